/** The element the first paint waits for: a link the head's script adds while the page is parsed (first-paint.tsx). */
const HOLD_SELECTOR = 'link[rel="expect"][blocking="render"]';

/** Takes the hold's link out of the head before hydrating: the server's head has none. */
export function releaseFirstPaintHold(): void {
  for (const link of document.querySelectorAll(HOLD_SELECTOR)) link.remove();
}
