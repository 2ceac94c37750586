import { useEffect, useSyncExternalStore } from "react";

const subscribe = () => () => {};
/** False in the server HTML and during hydration, true once React runs in the browser. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}

/** Set by the root's effect, which runs after every other effect of the hydration's commit. */
let pageHydrated = false;

/** The root layout calls this once: from its first commit on, a component's first render is not a hydration. */
export function useMarkPageHydrated() {
  useEffect(() => {
    pageHydrated = true;
  }, []);
}

/**
 * True when this render hydrates the server's HTML; for a question asked at the first render only
 * (keep the server's HTML? was the page already focused?). Unlike `useHydrated` it does not render
 * the component again once hydration is over: its store reads "not hydrated" until the root's
 * effect, after the component's own check, so React sees nothing change (decision 275). A part
 * hydrated later (inside a Suspense boundary) still gets true while it hydrates.
 */
export function useHydrationRender(): boolean {
  const hydrated = useSyncExternalStore(
    subscribe,
    () => pageHydrated,
    () => false,
  );
  return !hydrated && typeof document !== "undefined";
}
