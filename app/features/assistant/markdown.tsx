import { Fragment, type ReactNode } from "react";
import { tableScroll } from "./assistant.css";

/**
 * A small Markdown renderer for the assistant's answers, building React elements only: no raw
 * HTML ever reaches the page (an HTML tag is shown as text). An answer may repeat what a visitor
 * wrote, so it links nowhere outside the admin: a link is a link only to a page of the admin
 * (`/admin/...`); any other target, and any bare address, is plain text showing the whole address
 * (decision 325). Covers what chat answers use: paragraphs, headings, lists, quotes, fenced code,
 * tables, bold, italic, inline code and links.
 */

/** The admin page a link may open, or null: a path under /admin/, never another site. */
function adminPath(href: string): string | null {
  if (!/^\/admin(\/|$|\?)/.test(href)) return null;
  try {
    const url = new URL(href, "https://site.invalid");
    return url.origin === "https://site.invalid" && url.pathname.startsWith("/admin") ? `${url.pathname}${url.search}` : null;
  } catch {
    return null;
  }
}

const INLINE =
  /(`[^`\n]+`)|(\*\*[^*\n]+\*\*|__[^_\n]+__)|(\[[^\]\n]+\]\([^)\s]+\))|(\*[^*\s][^*\n]*\*|_[^_\s][^_\n]*_)|(https?:\/\/[^\s<>()]+[^\s<>().,;:!?'"])/g;

function renderInline(text: string, keyPrefix = "i"): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  let n = 0;
  for (const match of text.matchAll(INLINE)) {
    const index = match.index ?? 0;
    if (index > last) out.push(text.slice(last, index));
    const key = `${keyPrefix}-${n++}`;
    const [whole, code, bold, link, italic, bare] = match;
    if (code) out.push(<code key={key}>{code.slice(1, -1)}</code>);
    else if (bold) out.push(<strong key={key}>{renderInline(bold.slice(2, -2), key)}</strong>);
    else if (italic) out.push(<em key={key}>{renderInline(italic.slice(1, -1), key)}</em>);
    else if (link) {
      const split = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(link)!;
      const href = adminPath(split[2]!);
      out.push(
        href ? (
          <a key={key} href={href}>
            {renderInline(split[1]!, key)}
          </a>
        ) : (
          // Another site: the words, then the whole address as text, so nothing hides where it leads.
          <Fragment key={key}>{`${split[1]} (${split[2]})`}</Fragment>
        ),
      );
    } else if (bare) {
      out.push(bare);
    } else out.push(whole);
    last = index + whole.length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

const cells = (line: string) =>
  line
    .trim()
    .replace(/^\|/, "")
    .replace(/\|$/, "")
    .split("|")
    .map((c) => c.trim());

const isTableSeparator = (line: string | undefined) => !!line && /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/.test(line);

export function Markdown({ text }: { text: string }) {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const blocks: ReactNode[] = [];
  let i = 0;
  let k = 0;
  const key = () => `b${k++}`;
  while (i < lines.length) {
    const line = lines[i]!;
    if (!line.trim()) {
      i++;
      continue;
    }
    const fence = /^\s*```/.exec(line);
    if (fence) {
      const body: string[] = [];
      i++;
      while (i < lines.length && !/^\s*```/.test(lines[i]!)) body.push(lines[i++]!);
      i++;
      blocks.push(
        <pre key={key()}>
          <code>{body.join("\n")}</code>
        </pre>,
      );
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      const level = Math.min(6, heading[1]!.length + 2);
      const Tag = `h${level}` as "h3";
      blocks.push(<Tag key={key()}>{renderInline(heading[2]!, `h${k}`)}</Tag>);
      i++;
      continue;
    }
    if (line.includes("|") && isTableSeparator(lines[i + 1])) {
      const head = cells(line);
      i += 2;
      const rows: string[][] = [];
      while (i < lines.length && lines[i]!.includes("|") && lines[i]!.trim()) rows.push(cells(lines[i++]!));
      const tk = key();
      blocks.push(
        <div key={tk} className={tableScroll}>
          <table>
            <thead>
              <tr>
                {head.map((c, j) => (
                  <th key={j} scope="col">
                    {renderInline(c, `${tk}h${j}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row, r) => (
                <tr key={r}>
                  {head.map((_, j) => (
                    <td key={j}>{renderInline(row[j] ?? "", `${tk}r${r}c${j}`)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>,
      );
      continue;
    }
    const bullet = /^\s*[-*+]\s+/;
    const numbered = /^\s*\d+[.)]\s+/;
    if (bullet.test(line) || numbered.test(line)) {
      const ordered = numbered.test(line);
      const pattern = ordered ? numbered : bullet;
      const items: string[] = [];
      while (i < lines.length && pattern.test(lines[i]!)) items.push(lines[i++]!.replace(pattern, ""));
      const lk = key();
      const children = items.map((item, j) => <li key={j}>{renderInline(item, `${lk}-${j}`)}</li>);
      blocks.push(ordered ? <ol key={lk}>{children}</ol> : <ul key={lk}>{children}</ul>);
      continue;
    }
    if (/^\s*>/.test(line)) {
      const quoted: string[] = [];
      while (i < lines.length && /^\s*>/.test(lines[i]!)) quoted.push(lines[i++]!.replace(/^\s*>\s?/, ""));
      const qk = key();
      blocks.push(<blockquote key={qk}>{renderInline(quoted.join(" "), qk)}</blockquote>);
      continue;
    }
    const paragraph: string[] = [];
    while (
      i < lines.length &&
      lines[i]!.trim() &&
      !/^\s*```/.test(lines[i]!) &&
      !/^#{1,6}\s/.test(lines[i]!) &&
      !bullet.test(lines[i]!) &&
      !numbered.test(lines[i]!)
    )
      paragraph.push(lines[i++]!);
    const pk = key();
    blocks.push(
      <p key={pk}>
        {paragraph.map((l, j) => (
          <Fragment key={j}>
            {j > 0 ? <br /> : null}
            {renderInline(l, `${pk}-${j}`)}
          </Fragment>
        ))}
      </p>,
    );
  }
  return <>{blocks}</>;
}
