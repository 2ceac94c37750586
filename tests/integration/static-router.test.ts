import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadAs, loadInstalled, siteManifestRoutes, unpatchedSource } from "../support/installed-patches";
import { ROOT } from "../support/paths";

/**
 * patches/react-router-dom+6.30.4.patch makes `createStaticRouter` (called by RemixServer on every
 * server render) convert a route table to data routes once per table instead of on every render
 * (decision 240). Here the patched function and the original one, rebuilt from the installed file by
 * taking the patch back out, must give the same router for the site's routes.
 */
const SERVER = path.join(ROOT, "node_modules", "react-router-dom", "server.js");
const PATCH = path.join(ROOT, "patches", "react-router-dom+6.30.4.patch");

interface Route {
  id: string;
  path?: string;
  index?: boolean;
  hasErrorBoundary?: boolean;
  Component?: () => null;
  children?: Route[];
}
interface DataRoute extends Route {
  children?: DataRoute[];
}
interface StaticRouter {
  routes: DataRoute[];
  state: { matches: Array<{ route: DataRoute; pathname: string }>; location: { pathname: string } };
}
type CreateStaticRouter = (routes: Route[], context: object) => StaticRouter;

/** The site's routes as RemixServer hands them over: a component on each, an error boundary on some. */
function siteRoutes(): Route[] {
  const manifest = Object.values(siteManifestRoutes());
  const tree = (parent: string | undefined): Route[] =>
    manifest
      .filter((r) => r.parentId === parent)
      .map(({ id, path: p, index }, i) => {
        const children = tree(id);
        return {
          id,
          path: p,
          index,
          Component: () => null,
          ...(i % 3 === 0 ? { hasErrorBoundary: true } : {}),
          ...(children.length ? { children } : {}),
        };
      });
  return tree(undefined);
}

/** What a data route is, without its functions' identity. */
const describe_ = (routes: DataRoute[]): unknown =>
  routes.map(({ children, Component, ...rest }) => ({
    ...rest,
    Component: typeof Component,
    ...(children ? { children: describe_(children) } : {}),
  }));

/** The static handler's context for one page: the matches it found (routes of its own table). */
function contextFor(routes: Route[], pathname: string) {
  const matches: Array<{ route: Route; pathname: string; pathnameBase: string; params: object }> = [];
  let list: Route[] | undefined = routes;
  for (const id of ["root", "routes/$slug"]) {
    const route: Route | undefined = list?.find((r) => r.id === id);
    if (!route) break;
    matches.push({ route: { ...route }, pathname, pathnameBase: pathname, params: {} });
    list = route.children;
  }
  return { basename: "/", location: { pathname, search: "", hash: "" }, matches, loaderData: {}, actionData: null, errors: null };
}

describe("createStaticRouter with the patch", () => {
  const patched = loadInstalled<{ createStaticRouter: CreateStaticRouter }>(SERVER).createStaticRouter;
  const original = loadAs<{ createStaticRouter: CreateStaticRouter }>(SERVER, unpatchedSource(SERVER, PATCH)).createStaticRouter;

  it("gives the data routes and matches the original gives, for the site's routes", () => {
    const routes = siteRoutes();
    expect(JSON.stringify(routes)).toContain('"id":"root"');
    const context = contextFor(routes, "/tesla");
    const mine = patched(routes, context);
    const theirs = original(routes, context);
    expect(describe_(mine.routes)).toEqual(describe_(theirs.routes));
    expect(mine.state.matches.map((m) => m.route.id)).toEqual(theirs.state.matches.map((m) => m.route.id));
    expect(mine.state.matches.length).toBeGreaterThan(1);
    // Each match's route is the data route of this router's table, as the original makes it.
    const flat = (list: DataRoute[]): DataRoute[] => list.flatMap((r) => [r, ...flat(r.children ?? [])]);
    for (const match of mine.state.matches) expect(flat(mine.routes)).toContain(match.route);
  });

  it("converts a table once: each render with the same table gets the same data routes", () => {
    const routes = siteRoutes();
    const first = patched(routes, contextFor(routes, "/tesla"));
    const second = patched(routes, contextFor(routes, "/privacy"));
    expect(second.routes).toBe(first.routes);
    expect(second.state.location.pathname).toBe("/privacy");
    // The original converts on every render.
    expect(original(routes, contextFor(routes, "/tesla")).routes).not.toBe(original(routes, contextFor(routes, "/tesla")).routes);
  });

  it("another table (a new build, a route added) gets data routes of its own", () => {
    const routes = siteRoutes();
    const other = siteRoutes();
    other[0]!.children!.push({ id: "added", path: "brand-new", Component: () => null });
    const first = patched(routes, contextFor(routes, "/tesla"));
    const second = patched(other, contextFor(other, "/tesla"));
    expect(second.routes).not.toBe(first.routes);
    expect(describe_(second.routes)).toEqual(describe_(original(other, contextFor(other, "/tesla")).routes));
    expect(JSON.stringify(describe_(second.routes))).toContain('"id":"added"');
  });
});
