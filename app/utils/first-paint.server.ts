import type { EntryContext } from "@remix-run/node";
import type { Insert } from "./react-output.server";

/**
 * The element each page's first paint waits for (decision 306): the footer, unless a matched route
 * below names another here. The home page's first screen ends with its hero (four sections follow
 * it); an admin page's with its tabs, whatever the tab's length. Kept on the server, by route id: a
 * route's `handle` would be in the browser's code too.
 */
const DEFAULT_TARGET = "site-footer";
const TARGETS: Readonly<Record<string, string>> = { "routes/_index": "home-hero", "routes/admin": "admin-tabs" };

/** The end of the shell's head: the hold goes just before it, after everything React renders there. */
const HEAD_END = Buffer.from("</head>");

/** The id of the element the page's first paint waits for. */
function firstPaintTarget(context: EntryContext): string {
  let target = DEFAULT_TARGET;
  for (const match of context.staticHandlerContext.matches) target = TARGETS[match.route.id] ?? target;
  return target;
}

/**
 * The script that holds the browser's first paint until the page's content is parsed (decision 306),
 * as `reactOutput` puts it in place, before the end of the head. It adds `<link rel="expect"
 * href="#…" blocking="render">` while the page is parsed, so the browser lays the page out once and
 * paints it whole instead of painting the header alone and laying everything out again in a long
 * task just before hydrating.
 *
 * The server writes it into React's output as the head's last element (entry.server.tsx): React 18
 * leaves nodes after its own at the end of the head alone when it hydrates (as it does for what a
 * browser extension adds), so the browser's code has none of it. The link goes inside the script
 * element, which nobody walks. Only a page whose scripts run is held (without JavaScript nothing
 * would follow the paint); a browser without `rel="expect"` ignores the link; an id the page lacks
 * releases the paint when the document is parsed. A link, not markup: the validators of today's
 * HTML refuse `blocking` on a link that is not a stylesheet.
 */
export function firstPaintHold(context: EntryContext, nonce: string | undefined): Insert {
  const target = firstPaintTarget(context);
  if (!/^[\w-]+$/.test(target)) throw new Error(`first paint: not an element id: ${target}`);
  const script =
    `(l=>{l.rel="expect";l.href="#${target}";l.setAttribute("blocking","render");` +
    `document.currentScript.append(l)})(document.createElement("link"))`;
  const nonceAttribute = nonce ? ` nonce="${nonce.replace(/[^\w+/=-]/g, "")}"` : "";
  return {
    placeholder: HEAD_END,
    bytes: Buffer.from(`<script id="first-paint-hold"${nonceAttribute}>${script}</script></head>`),
  };
}
