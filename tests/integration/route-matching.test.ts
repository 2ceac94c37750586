import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadAs, loadInstalled, siteManifestRoutes, unpatchedSource, type ManifestRoute } from "../support/installed-patches";
import { ROOT } from "../support/paths";

/**
 * patches/@remix-run+router+1.23.3.patch (applied by `npm ci`'s postinstall, patch-package) makes
 * `matchRoutes` flatten, rank and compile a route table once per shape instead of on every call,
 * and work out each table's shape once (decision 240). Here the patched router and the original one, rebuilt from the installed file by
 * taking the patch back out, must give the same matches for every route of the site's table.
 */
// The file Node loads for every Remix package on the server (the package's `main`).
const ROUTER = path.join(ROOT, "node_modules", "@remix-run", "router", "dist", "router.cjs.js");
const PATCH = path.join(ROOT, "patches", "@remix-run+router+1.23.3.patch");

interface Route {
  id: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  children?: Route[];
}
interface Match {
  params: Record<string, string | undefined>;
  pathname: string;
  pathnameBase: string;
  route: Route;
}
type MatchRoutes = (routes: Route[], location: string) => Match[] | null;

/** The site's route table, as the production build's browser manifest lists it. */
function siteRoutes(): Route[] {
  const byParent = new Map<string, ManifestRoute[]>();
  for (const route of Object.values(siteManifestRoutes())) {
    const list = byParent.get(route.parentId ?? "") ?? [];
    list.push(route);
    byParent.set(route.parentId ?? "", list);
  }
  const tree = (parent: string): Route[] =>
    (byParent.get(parent) ?? []).map(({ id, path: p, index, caseSensitive }) => {
      const children = tree(id);
      return { id, path: p, index, caseSensitive, ...(children.length ? { children } : {}) };
    });
  return tree("");
}

/** A copy made of new objects, as Remix builds one for each render. */
const copy = (routes: Route[]): Route[] => routes.map((r) => ({ ...r, ...(r.children ? { children: copy(r.children) } : {}) }));

/** Pathnames that reach each route (each parameter filled, with and without optional segments), and their near misses. */
function pathnamesFor(routes: Route[], parent = ""): string[] {
  return routes.flatMap((route) => {
    const full = route.path ? `${parent}/${route.path}`.replace(/\/+/g, "/") : parent;
    const filled = [
      full
        .replace(/\/:[\w-]+\?/g, "")
        .replace(/:[\w-]+/g, "tesla")
        .replace(/\*$/, "a/b"),
      full
        .replace(/\?/g, "")
        .replace(/:[\w-]+/g, "Caf%C3%A9")
        .replace(/\*$/, ""),
    ];
    const near = filled.flatMap((p) => [`${p}/`, p.toUpperCase(), `${p}/extra`, `${p}.data`]);
    return [...filled, ...near, ...(route.children ? pathnamesFor(route.children, full) : [])];
  });
}

const describeMatches = (matches: Match[] | null) =>
  matches?.map(({ params, pathname, pathnameBase, route }) => ({ id: route.id, params, pathname, pathnameBase })) ?? null;

describe("route matching with the router patch", () => {
  const patchedSource = fs.readFileSync(ROUTER, "utf8");
  const patched = loadInstalled<{ matchRoutes: MatchRoutes }>(ROUTER);
  const original = loadAs<{ matchRoutes: MatchRoutes }>(ROUTER, unpatchedSource(ROUTER, PATCH));
  const routes = siteRoutes();
  const pathnames = [
    ...new Set([...pathnamesFor(routes), "/", "", "//", "/unknown/deep/path", "/%E2%9C%93", "/tesla/get-code", "/admin/codes"]),
  ];

  it("the installed router carries the patch", () => {
    expect(patchedSource).toContain("Parrainly patch");
    expect(routes.length).toBe(1);
    expect(pathnames.length).toBeGreaterThan(200);
  });

  it("gives the same matches as the original for every route of the site, asked once and again", () => {
    for (const pathname of pathnames) {
      const expected = describeMatches(original.matchRoutes(routes, pathname));
      expect(describeMatches(patched.matchRoutes(routes, pathname)), pathname).toEqual(expected);
      expect(describeMatches(patched.matchRoutes(routes, pathname)), pathname).toEqual(expected);
    }
  });

  it("a table of the same shape made of new objects gets its own routes in the matches", () => {
    for (const pathname of pathnames) {
      const fresh = copy(routes);
      const matches = patched.matchRoutes(fresh, pathname);
      expect(describeMatches(matches), pathname).toEqual(describeMatches(original.matchRoutes(fresh, pathname)));
      // Each route is the object of this table, at the same place (not the first table's).
      let list: Route[] | undefined = fresh;
      for (const match of matches ?? []) {
        expect(list).toContain(match.route);
        list = match.route.children;
      }
    }
  });

  it("a table of another shape (a route added, a path changed) is matched anew", () => {
    // A table is known by the object: the server never changes one once built (lazy route discovery,
    // which adds children to a table, runs in the browser, on the unpatched ES module build). So a
    // changed table is a new table, as Remix makes one.
    const table = copy(routes);
    expect(describeMatches(patched.matchRoutes(table, "/brand-new/x"))?.at(-1)?.id).not.toBe("added");
    const added = copy(table);
    added[0]!.children!.unshift({ id: "added", path: "brand-new/:thing" });
    expect(describeMatches(patched.matchRoutes(added, "/brand-new/x"))?.at(-1)).toEqual({
      id: "added",
      params: { thing: "x" },
      pathname: "/brand-new/x",
      pathnameBase: "/brand-new/x",
    });
    const renamed = copy(added);
    renamed[0]!.children![0]!.path = "renamed/:thing";
    expect(describeMatches(patched.matchRoutes(renamed, "/brand-new/x"))).toEqual(
      describeMatches(original.matchRoutes(renamed, "/brand-new/x")),
    );
    expect(describeMatches(patched.matchRoutes(renamed, "/renamed/y"))?.at(-1)?.id).toBe("added");
    // The first table still matches as it did.
    expect(describeMatches(patched.matchRoutes(table, "/brand-new/x"))).toEqual(
      describeMatches(original.matchRoutes(table, "/brand-new/x")),
    );
  });
});
