import type { ComponentType } from "react";
import { contents } from "~/styles/ui.css";
import { ServerHtml } from "./server-html";
import { splitPart } from "./split-part";

/**
 * A part of a page that never changes after the server rendered it (a claim guide, a figure from
 * visitors' answers), whose code the browser fetches only when it must render the part itself
 * (decision 265). At hydration the part keeps the server's HTML (ServerHtml), so its module is never
 * asked for; on a client navigation to a page that shows it, its chunk loads and it renders
 * (split-part.tsx; `preload` starts that earlier). The same rules as ServerHtml's hold inside: no
 * state, no handlers, nothing that changes without a navigation.
 *
 * `id` names the part's wrapper (`display: contents`, so an empty part adds no gap) from its props,
 * unique in the page.
 */
export function keptPart<P extends object>(
  server: (() => ComponentType<P>) | undefined,
  load: () => Promise<ComponentType<P>>,
  id: (props: P) => string,
) {
  const Part = splitPart(server, load);
  function Kept(props: P) {
    // The server renders the component itself: hydration never walks a kept region, so it needs no
    // Suspense boundary there to match (one only the browser's lazy load needs).
    const Server = import.meta.env.SSR ? server?.() : null;
    return (
      <ServerHtml id={id(props)} className={contents}>
        {Server ? <Server {...props} /> : <Part {...props} />}
      </ServerHtml>
    );
  }
  Kept.preload = () => void Part.preload();
  return Kept;
}
