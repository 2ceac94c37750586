import { expect, type Page } from "@playwright/test";

/**
 * The layout rules: what the eye sees on a page as it is drawn now. A field or button far taller
 * than its text (the /platforms search input once drawn 192 px tall), anything wider than the
 * window, two controls or text blocks drawn over each other, a line of text touching the box beside
 * it or the window's edge. Used by the layout check on every public page (layout.spec.ts) and by the sweep on every
 * admin tab (sweep.spec.ts), at 320 px and 1280 px.
 */
interface Finding {
  rule: string;
  what: string;
}

/** Runs in the page: every rule over the page as it is drawn now. */
function findLayoutFaults(): Finding[] {
  const findings: Finding[] = [];
  const describe = (e: Element) => {
    const id = e.id ? `#${e.id}` : "";
    const testId = e.getAttribute("data-testid") ? `[data-testid=${e.getAttribute("data-testid")}]` : "";
    const text = (e.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 40);
    return `<${e.tagName.toLowerCase()}${id}${testId}> "${text}"`;
  };
  const styles = new Map<Element, CSSStyleDeclaration>();
  const style = (e: Element) => {
    let s = styles.get(e);
    if (!s) styles.set(e, (s = getComputedStyle(e)));
    return s;
  };
  const boxes = new Map<Element, DOMRect>();
  const box = (e: Element) => {
    let r = boxes.get(e);
    if (!r) boxes.set(e, (r = e.getBoundingClientRect()));
    return r;
  };
  /** Inside a fixed layer (a toast, the consent banner: drawn over the page on purpose). */
  const fixedLayer = new Map<Element, boolean>();
  const inFixedLayer = (e: Element | null): boolean => {
    if (!e || e === document.body) return false;
    let v = fixedLayer.get(e);
    if (v === undefined) fixedLayer.set(e, (v = style(e).position === "fixed" || inFixedLayer(e.parentElement)));
    return v;
  };
  const seen = new Map<Element, boolean>();
  const shown = (e: Element) => {
    let v = seen.get(e);
    if (v === undefined) seen.set(e, (v = isShown(e)));
    return v;
  };
  const isShown = (e: Element) => {
    const r = box(e);
    if (r.width < 2 || r.height < 2) return false;
    const s = style(e);
    if (s.visibility === "hidden" || s.opacity === "0" || inFixedLayer(e)) return false;
    // Inside a closed <details> (its summary aside): not drawn, though Chromium keeps its boxes.
    const details = e.closest("details:not([open])");
    if (details && !e.closest("summary")?.parentElement?.isSameNode(details)) return false;
    // Clipped away (a visually hidden label, a slide scrolled out of its list).
    for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
      const sa = style(a);
      if (sa.overflowX === "visible" && sa.overflowY === "visible") continue;
      const ra = box(a);
      if (r.right <= ra.left + 1 || r.left >= ra.right - 1 || r.bottom <= ra.top + 1 || r.top >= ra.bottom - 1) return false;
    }
    return true;
  };
  const hasText = (e: Element) => (e.textContent ?? "").trim().length > 0;
  /** Table cells meet their neighbours by design: each has its own padding. */
  const tableCell = (e: Element) => e.matches("td, th");
  /** Where a box's text and inner boxes are drawn (its padding left out), or its border box if drawn. */
  const content = (e: Element) => {
    if (drawn(e)) return box(e);
    // The union of what is drawn inside: its text that shows and its shown controls and images. Not
    // the range of all its contents: a visually hidden part (a table's caption, "opens in a new tab")
    // has text rects outside the 1 px box that clips it.
    let top = Infinity;
    let left = Infinity;
    let bottom = -Infinity;
    let right = -Infinity;
    const add = (r: DOMRect) => {
      if (r.width === 0 && r.height === 0) return;
      top = Math.min(top, r.top);
      left = Math.min(left, r.left);
      bottom = Math.max(bottom, r.bottom);
      right = Math.max(right, r.right);
    };
    const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent?.trim() || !node.parentElement || !shown(node.parentElement)) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      add(range.getBoundingClientRect());
    }
    for (const inner of e.querySelectorAll("img, svg, input, select, textarea, button, canvas"))
      if (shown(inner)) add(box(inner));
    return top === Infinity ? box(e) : new DOMRect(left, top, right - left, bottom - top);
  };

  // Text touching the window's edge (the privacy page's text once ran from x = 0 to the right edge
  // on a phone: a padding lost to a later class). Every page keeps its text a margin from both sides.
  for (const e of document.querySelectorAll("main :is(p, h1, h2, h3, h4, li, label, dt, dd)")) {
    if (!shown(e) || !hasText(e)) continue;
    // Inside a box that clips or scrolls sideways (a carousel's slides): its own edges are what show.
    let clipped = false;
    for (let a = e.parentElement; a && a !== document.body && !clipped; a = a.parentElement)
      clipped = style(a).overflowX !== "visible";
    if (clipped) continue;
    // Its box, not its text's range: a visually hidden part ("opens in a new tab") has text rects
    // far outside the 1 px box that clips it.
    const r = box(e);
    if (r.width > 0 && (r.left < 4 || r.right > window.innerWidth - 4)) {
      findings.push({
        rule: "text touching the window's edge",
        what: `${describe(e)} from ${Math.round(r.left)} to ${Math.round(r.right)} px`,
      });
    }
  }

  // Wider than the window: the page scrolls sideways.
  if (document.documentElement.scrollWidth > window.innerWidth) {
    const wide = [...document.querySelectorAll("body *")].find(
      (e) => e.getBoundingClientRect().right > window.innerWidth + 1 && shown(e),
    );
    findings.push({
      rule: "wider than the window",
      what: `${document.documentElement.scrollWidth} px > ${window.innerWidth} px${wide ? `: ${describe(wide)}` : ""}`,
    });
  }

  // A one-line control far taller than its text: at most 4.5 times its font size (a 2.75rem field
  // with a 1rem font is 2.75).
  const oneLine = "input:not([type=checkbox]):not([type=radio]):not([type=hidden]):not([type=range]), select:not([multiple])";
  for (const e of document.querySelectorAll(oneLine)) {
    if (!shown(e)) continue;
    const h = e.getBoundingClientRect().height;
    const font = parseFloat(style(e).fontSize);
    if (h > font * 4.5) findings.push({ rule: "field far taller than its text", what: `${describe(e)} ${Math.round(h)} px` });
  }
  // A button (or a link drawn as one) far taller than the lines of its text: its padding and border
  // are at most 3.5 times its font size.
  for (const e of document.querySelectorAll("button, a, [role=button], summary")) {
    if (!shown(e)) continue;
    const s = style(e);
    if (s.display === "inline") continue;
    const range = document.createRange();
    range.selectNodeContents(e);
    const text = range.getBoundingClientRect();
    if (text.height === 0) continue;
    const h = e.getBoundingClientRect().height;
    const font = parseFloat(s.fontSize);
    if (h - text.height > font * 3.5) {
      findings.push({
        rule: "button far taller than its text",
        what: `${describe(e)} ${Math.round(h)} px for ${Math.round(text.height)} px of text`,
      });
    }
  }

  // Two boxes drawn over each other: controls and text blocks, neither inside the other.
  const blocks = [
    ...document.querySelectorAll(
      "main :is(a, button, input, select, textarea, label, p, h1, h2, h3, h4, li, img, svg), header :is(a, button, select)",
    ),
  ].filter((e) => shown(e) && !e.closest("svg *"));
  const rects = blocks.map(box);
  for (let i = 0; i < blocks.length; i++) {
    for (let j = i + 1; j < blocks.length; j++) {
      const [a, b] = [blocks[i]!, blocks[j]!];
      if (a.contains(b) || b.contains(a)) continue;
      const [ra, rb] = [rects[i]!, rects[j]!];
      const x = Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left);
      const y = Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top);
      // A label and the control it wraps or names, a line of text wrapping around an inline box:
      // only a real overlap of a few pixels in both directions counts.
      if (x > 3 && y > 3) {
        // Inline text beside inline text on wrapped lines shares a line box corner: skip two inline runs.
        if (style(a).display === "inline" && style(b).display === "inline") continue;
        findings.push({ rule: "overlapping boxes", what: `${describe(a)} and ${describe(b)}` });
      }
    }
  }

  // Text touching its neighbour: two siblings in a column, one of them a drawn box (a border or a
  // background), with no space between them; or two drawn boxes side by side with none.
  function drawn(e: Element) {
    const s = style(e);
    return (
      parseFloat(s.borderTopWidth) + parseFloat(s.borderBottomWidth) > 0 ||
      (s.backgroundColor !== "rgba(0, 0, 0, 0)" && s.backgroundColor !== "transparent") ||
      s.backgroundImage !== "none"
    );
  }
  for (const parent of document.querySelectorAll("main *, main")) {
    if (parent.children.length < 2 || !shown(parent)) continue;
    const kids = [...parent.children].filter(
      (k) => shown(k) && style(k).position !== "absolute" && style(k).display !== "inline" && hasText(k),
    );
    for (let i = 0; i + 1 < kids.length; i++) {
      const [a, b] = [kids[i]!, kids[i + 1]!];
      if (!drawn(a) && !drawn(b)) continue;
      const [ra, rb] = [box(a), box(b)];
      const stacked = rb.top >= ra.bottom - 1 && Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left) > 0;
      const sideBySide = rb.left >= ra.right - 1 && Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top) > 0;
      if (stacked && content(b).top - content(a).bottom < 2) {
        findings.push({ rule: "text touching the box above or below", what: `${describe(a)} then ${describe(b)}` });
      } else if (sideBySide && drawn(a) && drawn(b) && rb.left - ra.right < 2 && !tableCell(a)) {
        findings.push({ rule: "boxes touching side by side", what: `${describe(a)} then ${describe(b)}` });
      }
    }
  }
  return findings;
}

export async function expectLaidOut(page: Page, label: string) {
  const findings = await page.evaluate(findLayoutFaults);
  expect(
    findings.map((f) => `${f.rule}: ${f.what}`),
    `${label}: layout faults`,
  ).toEqual([]);
}
