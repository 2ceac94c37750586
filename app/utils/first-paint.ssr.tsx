import { useMatches } from "@remix-run/react";
import type { FirstPaintHandle } from "./first-paint";
import { useNonce } from "./nonce";

/** By default the footer: the header, the whole page and the footer are shown in one paint. */
const DEFAULT_TARGET = "site-footer";

/** The head's script that holds the first paint until the matched routes' target is parsed (first-paint.tsx). */
function Hold() {
  const matches = useMatches();
  let target = DEFAULT_TARGET;
  for (const match of matches) {
    const wanted = (match.handle as FirstPaintHandle | undefined)?.firstPaint;
    if (wanted) target = wanted;
  }
  const script =
    `(l=>{l.rel="expect";l.href=${JSON.stringify(`#${target}`)};l.setAttribute("blocking","render");` +
    `document.currentScript.append(l)})(document.createElement("link"))`;
  return <script id="first-paint-hold" nonce={useNonce()} dangerouslySetInnerHTML={{ __html: script }} />;
}

/** The server's only (`*.ssr.tsx`): the browser build gets none, and keeps the script the server wrote. */
export default { Hold };
