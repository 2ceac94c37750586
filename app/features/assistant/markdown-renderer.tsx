import type { ReactNode } from "react";
import ReactMarkdown, { type Components } from "react-markdown";
import rehypeSanitize from "rehype-sanitize";
import remarkGfm from "remark-gfm";
import { tableScroll } from "./assistant.css";

/**
 * The assistant's answers as Markdown (react-markdown with GFM tables, rehype-sanitize after it):
 * React elements only, no raw HTML ever reaches the page (an HTML tag is shown as text). An answer
 * may repeat what a visitor wrote, so it links nowhere outside the admin: a link is a link only to
 * a page of the admin (`/admin/...`); any other target is plain text showing the whole address,
 * and an image is its words and address (decision 325). Admin only: its size is not a visitor's.
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

const textOf = (node: ReactNode): string =>
  typeof node === "string" || typeof node === "number" ? String(node) : Array.isArray(node) ? node.map(textOf).join("") : "";

type MarkdownNode = { type: string; children?: MarkdownNode[] };

/** A remark plugin: raw HTML in an answer is shown as the text it is, never dropped or rendered. */
const htmlAsText = () => (tree: MarkdownNode) => {
  const walk = (node: MarkdownNode) => {
    if (node.type === "html") node.type = "text";
    node.children?.forEach(walk);
  };
  walk(tree);
};

const components: Components = {
  // Chat answers' headings sit below the page's own.
  h1: ({ children }) => <h3>{children}</h3>,
  h2: ({ children }) => <h4>{children}</h4>,
  h3: ({ children }) => <h5>{children}</h5>,
  h4: ({ children }) => <h6>{children}</h6>,
  h5: ({ children }) => <h6>{children}</h6>,
  h6: ({ children }) => <h6>{children}</h6>,
  a: ({ href = "", children }) => {
    const path = adminPath(href);
    if (path) return <a href={path}>{children}</a>;
    // An address rehype-sanitize refused (javascript:, data:...) arrives empty: the words alone.
    if (!href) return <>{children}</>;
    // Another site: the words, then the whole address as text, so nothing hides where it leads.
    return <>{textOf(children) === href ? href : `${textOf(children)} (${href})`}</>;
  },
  img: ({ src, alt }) => <>{`${alt ?? ""} (${typeof src === "string" ? src : ""})`}</>,
  table: ({ children }) => (
    <div className={tableScroll}>
      <table>{children}</table>
    </div>
  ),
  th: ({ children }) => <th scope="col">{children}</th>,
  td: ({ children }) => <td>{children}</td>,
  hr: () => null,
  del: ({ children }) => <>{children}</>,
  input: () => null,
};

export function MarkdownRenderer({ text }: { text: string }) {
  return (
    <ReactMarkdown
      remarkPlugins={[remarkGfm, htmlAsText]}
      rehypePlugins={[rehypeSanitize]}
      components={components}
      skipHtml={false}
      // Every address goes to `a` and `img` above as written: they alone decide what becomes a link.
      urlTransform={(url) => url}
    >
      {text}
    </ReactMarkdown>
  );
}
