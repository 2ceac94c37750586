import { lazy, memo, Suspense, type ComponentProps } from "react";
import * as parts from "./analytics-tags";

/**
 * The consent banner and the analytics tags, as the root layout uses them. Most pages show none of
 * them (nothing is configured, or the visitor has not said yes), yet their code sat in every page's
 * layout chunk (decision 252). The server renders them as before; the browser fetches their code only
 * when a page has one: at hydration the part's `Suspense` boundary keeps the server's HTML until the
 * chunk (and the `consent` texts, which the components suspend on) are in, then hydrates it.
 * `import.meta.env.SSR` is false in the browser build, so the static import above is dropped there.
 * Each part is memoised: a boundary that is still waiting for its code must receive no update (the
 * layout re-renders when the `consent` texts arrive), or React gives up its server HTML and renders
 * it again on the client (error 421).
 */
const load = () =>
  import("./analytics-tags").catch(
    // Where the code cannot load (the network is gone, a deploy replaced it), the part stays as the
    // server rendered it: a boundary that waits keeps the server's HTML, whose forms work without
    // JavaScript. A lazy part that failed would throw to the page's error boundary (decision 277).
    () => new Promise<never>(() => undefined),
  );
const LazyHead = lazy(() => load().then((m) => ({ default: m.AnalyticsHead })));
const LazyBody = lazy(() => load().then((m) => ({ default: m.AnalyticsBody })));
const LazyBanner = lazy(() => load().then((m) => ({ default: m.ConsentBanner })));

export const AnalyticsHead = memo(function AnalyticsHead(props: ComponentProps<typeof parts.AnalyticsHead>) {
  const Part = import.meta.env.SSR ? parts.AnalyticsHead : LazyHead;
  return (
    <Suspense fallback={null}>
      <Part {...props} />
    </Suspense>
  );
});

export const AnalyticsBody = memo(function AnalyticsBody(props: ComponentProps<typeof parts.AnalyticsBody>) {
  const Part = import.meta.env.SSR ? parts.AnalyticsBody : LazyBody;
  return (
    <Suspense fallback={null}>
      <Part {...props} />
    </Suspense>
  );
});

export const ConsentBanner = memo(function ConsentBanner(props: ComponentProps<typeof parts.ConsentBanner>) {
  const Part = import.meta.env.SSR ? parts.ConsentBanner : LazyBanner;
  return (
    <Suspense fallback={null}>
      <Part {...props} />
    </Suspense>
  );
});
