import { useEffect } from "react";
import { splitPart } from "~/components/split-part";
import { serverOnly$ } from "vite-env-only/macros";
import { DrawReadyForm } from "./draw-ready-form";
import type { DrawResultSectionProps } from "./draw-result-section";
import { DrawResultPart, loadResult } from "./result-half";

/**
 * A draw page (/{slug}/get-code, /random) shows one of two halves: the draw form, or a draw's result
 * with its copy and share buttons and the "did it work?" forms. Each half's code is a chunk of its
 * own, so a page loads only the half it shows (decision 263): the form's page none of the result's
 * code, the result's page none of the form's.
 *
 * Each half is a split part (decision 265, app/components/split-part.tsx). Nothing waits at
 * hydration: before hydrating, the browser entry waits for what the page's route modules asked with `beforeHydration`, which
 * loads the half the server rendered, and the part then renders it at once (a plain lazy component
 * would suspend, and an update reaching the waiting boundary, such as route discovery's, would make
 * React drop the server's HTML). The other half loads when it is needed: the result's when the
 * visitor draws (in parallel with the draw), the form's when the result page is idle (for "draw
 * another"). The server renders both directly (`serverOnly$`: not in the browser build).
 */
export const DrawReady = splitPart(
  serverOnly$(() => DrawReadyForm),
  () => import("./draw-ready-form").then((m) => m.DrawReadyForm),
);

export function preloadDrawParts(): Promise<unknown> {
  return document.querySelector("[data-testid='draw-result']") ? loadResult() : DrawReady.preload();
}

export function DrawResult(props: DrawResultSectionProps) {
  useEffect(() => {
    const idle = window.requestIdleCallback ?? ((run: () => void) => setTimeout(run, 1));
    idle(() => void DrawReady.preload());
  }, []);
  return <DrawResultPart {...props} />;
}
