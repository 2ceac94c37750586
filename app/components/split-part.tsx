import { lazy, Suspense, type ComponentType } from "react";

/**
 * A component whose code is a chunk of its own in the browser, fetched only when a page shows it
 * (decision 265): the server renders it directly (`server`, wrapped in vite-env-only's `serverOnly$`:
 * the browser build drops it and the import it alone uses, which would put the code back in the
 * importer's chunks). In the browser it renders at once once `preload` has run (before
 * hydration, from a route module's `beforeHydration` call, app/utils/before-hydration.ts, where the server's HTML shows it, so hydration never
 * waits); otherwise it loads when it first renders, and nothing stands in its place meanwhile.
 *
 * Where its code cannot load (the network is gone), `unreachable` stands in for it (nothing by
 * default) until the page is loaded again: a lazy component that fails throws to the nearest error
 * boundary, and the error page's own code is a split part too (offline, a blank page).
 */
export function splitPart<P extends object>(
  server: (() => ComponentType<P>) | undefined,
  load: () => Promise<ComponentType<P>>,
  unreachable: ComponentType<P> = Nothing,
) {
  let loaded: ComponentType<P> | undefined;
  const preload = () =>
    load().then(
      (component) => (loaded = component),
      () => (loaded = unreachable),
    );
  const Lazy = import.meta.env.SSR ? null : lazyNow(() => loaded, preload);
  function Part(props: P) {
    const Component = import.meta.env.SSR ? server?.() : Lazy;
    if (!Component) return null;
    return (
      <Suspense fallback={null}>
        <Component {...props} />
      </Suspense>
    );
  }
  Part.preload = preload;
  return Part;
}

function Nothing() {
  return null;
}

/**
 * React's `lazy`, except that it renders at once, without suspending, when `loaded()` already has the
 * component (its chunk was preloaded): hydration then never waits. And it is one component for
 * every render, before its code arrives and after: switching from a lazy component to the loaded one
 * would make React unmount the part and mount it again (a toast's timer, a form's state lost).
 */
export function lazyNow<P extends object>(
  loaded: () => ComponentType<P> | undefined,
  load: () => Promise<ComponentType<P>>,
): ComponentType<P> {
  const component = lazy(() => {
    const ready = loaded();
    if (!ready) return load().then((c) => ({ default: c }));
    // A thenable that calls back at once: React's lazy is resolved before it would suspend.
    const now = { then: (resolve: (m: { default: ComponentType<P> }) => void) => resolve({ default: ready }) };
    return now as unknown as Promise<{ default: ComponentType<P> }>;
  });
  // Typed as the component itself: `lazy`'s own type does not carry a generic P's props.
  return component as unknown as ComponentType<P>;
}
