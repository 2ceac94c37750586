import { lazy, Suspense, type ComponentType } from "react";

/**
 * A component whose code is a chunk of its own in the browser, fetched only when a page shows it
 * (decision 265): the server renders it directly (`server` returns it from a `.ssr.tsx` module, which
 * the browser build empties, vite.config.ts's ssrOnlyModules: a static import would put the code back
 * in the importer's chunks). In the browser it renders at once once `preload` has run (before
 * hydration, from a route's `handle.preload`, where the server's HTML shows it, so hydration never
 * waits); otherwise it loads when it first renders, and nothing stands in its place meanwhile.
 */
export function splitPart<P extends object>(server: () => ComponentType<P>, load: () => Promise<ComponentType<P>>) {
  let loaded: ComponentType<P> | undefined;
  const preload = () => load().then((component) => (loaded = component));
  // Typed as the component itself: `lazy`'s own type does not carry a generic P's props.
  const Lazy = import.meta.env.SSR
    ? null
    : (lazy(() => preload().then((component) => ({ default: component }))) as unknown as ComponentType<P>);
  function Part(props: P) {
    const Component = import.meta.env.SSR ? server() : (loaded ?? Lazy);
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
