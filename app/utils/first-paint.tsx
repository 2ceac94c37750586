import { useMatches } from "@remix-run/react";
import { useNonce } from "./nonce";

/** A route's `handle.firstPaint`: the id of the element the browser waits for before it paints the page the first time. */
export interface FirstPaintHandle {
  firstPaint?: string;
}

/** By default the footer: the header, the whole page and the footer are shown in one paint. */
const DEFAULT_TARGET = "site-footer";

/**
 * Holds the browser's first paint until the page's content is parsed (decision 306): a
 * `<link rel="expect" blocking="render">` to an element near the end of what the first screen
 * shows. Painting the header alone as soon as it arrived, then laying out the whole page again
 * once the rest was parsed, made that second layout a long task after the first paint, just before
 * hydration: on a slow phone the largest part of the page's blocking time. Now the page is laid
 * out once, before it is painted. A route whose first screen ends well before its footer (the home
 * page) names an element there (`handle.firstPaint`), so its first paint does not wait for the rest.
 *
 * A small script in the head adds the link as the document is parsed: only pages that will hydrate
 * need the hold (without JavaScript nothing runs after the paint), and the validators of today's
 * HTML still refuse `blocking` on a link that is not a stylesheet. A browser without `rel="expect"`
 * ignores it; an id the page lacks releases the paint when the document is parsed.
 */
export function FirstPaintHold() {
  const matches = useMatches();
  const nonce = useNonce();
  let target = DEFAULT_TARGET;
  for (const match of matches) {
    const wanted = (match.handle as FirstPaintHandle | undefined)?.firstPaint;
    if (wanted) target = wanted;
  }
  const script =
    `(l=>{l.rel="expect";l.href=${JSON.stringify(`#${target}`)};l.setAttribute("blocking","render");` +
    `document.head.append(l)})(document.createElement("link"))`;
  return <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: script }} />;
}
