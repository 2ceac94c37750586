import { Suspense, useEffect, type ComponentProps } from "react";
import { lazyNow } from "~/components/split-part";
import type * as ReadyModule from "./draw-ready-form";
import { loadResult, resultHalf } from "./result-half";
import serverHalves from "./draw-halves.ssr";
import type { DrawReadyForm } from "./draw-ready-form";
import type { DrawResultSectionProps } from "./draw-result-section";

/**
 * A draw page (/{slug}/get-code, /random) shows one of two halves: the draw form, or a draw's result
 * with its copy and share buttons and the "did it work?" forms. Each half's code is a chunk of its
 * own, so a page loads only the half it shows (decision 263): the form's page none of the result's
 * code, the result's page none of the form's.
 *
 * Nothing waits at hydration: before hydrating, the browser entry runs `handle.preload` of the page's
 * routes, which loads the half the server rendered; the wrappers then render it at once (`lazyNow`:
 * a plain lazy component would suspend, and an update reaching the waiting boundary, such as route
 * discovery's, would make React drop the server's HTML). The other half loads when it is needed: the result's
 * when the visitor draws (in parallel with the draw), the form's when the result page is idle (for
 * "draw another"). The server renders both directly (draw-halves.ssr.tsx, empty in the browser
 * build).
 */
const readyHalf: { module?: typeof ReadyModule } = {};
const loadReady = () => import("./draw-ready-form").then((m) => (readyHalf.module = m));

export function preloadDrawParts(): Promise<unknown> {
  return document.querySelector("[data-testid='draw-result']") ? loadResult() : loadReady();
}

// One component per half for every render (lazyNow): rendered at once where the half is here already.
const LazyReady = lazyNow(
  () => readyHalf.module?.DrawReadyForm,
  () => loadReady().then((m) => m.DrawReadyForm),
);
const LazyResult = lazyNow(
  () => resultHalf.module?.DrawResultSection,
  () => loadResult().then((m) => m.DrawResultSection),
);

export function DrawReady(props: ComponentProps<typeof DrawReadyForm>) {
  const Part = import.meta.env.SSR ? serverHalves.DrawReadyForm : LazyReady;
  return (
    <Suspense fallback={null}>
      <Part {...props} />
    </Suspense>
  );
}

export function DrawResult(props: DrawResultSectionProps) {
  const Part = import.meta.env.SSR ? serverHalves.DrawResultSection : LazyResult;
  useEffect(() => {
    const idle = window.requestIdleCallback ?? ((run: () => void) => setTimeout(run, 1));
    idle(() => void loadReady());
  }, []);
  return (
    <Suspense fallback={null}>
      <Part {...props} />
    </Suspense>
  );
}
