import { useMatches } from "@remix-run/react";
import { useNonce } from "~/utils/nonce";

/**
 * The element each page's first paint waits for (decisions 306 and 400): the footer, unless a
 * matched route names another here. The home page's first screen ends with its hero; an admin
 * page's with its tabs, whatever the tab's length.
 */
const DEFAULT_TARGET = "site-footer";
const TARGETS: Readonly<Record<string, string>> = { "routes/_index": "home-hero", "routes/admin": "admin-tabs" };

/**
 * Holds the browser's first paint until the page's content is parsed: the script adds
 * `<link rel="expect" href="#…" blocking="render">` while the page is parsed, so the browser lays the
 * page out once and paints it whole, instead of painting the header alone and laying everything
 * out again in a long task after the first paint (what Lighthouse counts as blocking time). The
 * link goes inside the script element, which React does not walk; a browser without
 * `rel="expect"` ignores it; an id the page lacks releases the paint when the document is parsed.
 * Without JavaScript nothing runs: nothing is held. Rendered as the head's last element, the way
 * Remix's own `<ScrollRestoration>` renders its inline script.
 */
export function FirstPaintHold() {
  const nonce = useNonce();
  let target = DEFAULT_TARGET;
  for (const match of useMatches()) target = TARGETS[match.id] ?? target;
  const script =
    `(l=>{l.rel="expect";l.href="#${target}";l.setAttribute("blocking","render");` +
    `document.currentScript.append(l)})(document.createElement("link"))`;
  return <script id="first-paint-hold" nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: script }} />;
}
