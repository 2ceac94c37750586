import serverParts from "./first-paint.ssr";

/** A route's `handle.firstPaint`: the id of the element the browser waits for before it paints the page the first time. */
export interface FirstPaintHandle {
  firstPaint?: string;
}

/**
 * Holds the browser's first paint until the page's content is parsed (decision 306): a
 * `<link rel="expect" blocking="render">` to an element near the end of what the first screen
 * shows, the footer unless the route names another (`handle.firstPaint`: the home page its hero, an
 * admin page its tabs). Painting the header alone as soon as it arrived, then laying out the whole
 * page again once the rest was parsed, made that second layout a long task after the first paint,
 * just before hydration: on a slow phone the largest part of the page's blocking time. Now the page
 * is laid out once, before it is painted.
 *
 * A small script in the head adds the link as the document is parsed: only pages that will hydrate
 * need the hold (without JavaScript nothing runs after the paint), and the validators of today's
 * HTML still refuse `blocking` on a link that is not a stylesheet. The link goes inside the script
 * element itself, whose content React never walks: the head it hydrates is the server's. A browser
 * without `rel="expect"` ignores it; an id the page lacks releases the paint when the document is
 * parsed; once the page is parsed the link does nothing. The script is written by the server
 * (first-paint.ssr.ts); the browser's build has none of it.
 */
export function FirstPaintHold() {
  if (typeof document === "undefined") return <serverParts.Hold />;
  // Hydrating, React keeps the server's script as it is: it does not compare a script's content in
  // production, nor its attributes (suppressHydrationWarning covers development).
  return <script suppressHydrationWarning dangerouslySetInnerHTML={{ __html: "" }} />;
}
