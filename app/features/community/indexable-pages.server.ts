import type { SitemapHandle } from "./sitemap";

interface RouteModule {
  handle?: { sitemap?: SitemapHandle };
}

// Every route module of the site, as the router sees them: a page is in the sitemap when its own
// route says how (`handle.sitemap`), so a new indexable page cannot be forgotten in a list kept
// elsewhere (tests/integration/sitemap-pages.test.ts walks the routes and checks both ways).
const routes = import.meta.glob<RouteModule>("../../routes/*.tsx", { eager: true });

/** A page of the sitemap: its path pattern (`{slug}` for each active platform) and how it is listed. */
interface IndexablePage extends SitemapHandle {
  pattern: string;
}

/** Flat-routes file name to URL pattern: `_index` is `/`, dots are slashes, `$slug` a platform, `x_` is `x`. */
function routePattern(file: string): string {
  const id = file.replace(/^.*\/routes\//, "").replace(/\.tsx$/, "");
  const segments = id
    .split(/\.(?![^[]*\])/)
    .filter((s) => s !== "_index")
    .map((s) =>
      s
        .replace(/_$/, "")
        .replace(/^\$slug$/, "{slug}")
        .replace(/\[(.*?)\]/g, "$1"),
    );
  return `/${segments.join("/")}`;
}

export function indexablePages(): IndexablePage[] {
  const pages: IndexablePage[] = [];
  for (const [file, module] of Object.entries(routes)) {
    const sitemap = module.handle?.sitemap;
    if (sitemap) pages.push({ pattern: routePattern(file), ...sitemap });
  }
  // The home page first, then by priority, then by path: a stable, readable order.
  return pages.sort((a, b) => b.priority - a.priority || a.pattern.localeCompare(b.pattern));
}
