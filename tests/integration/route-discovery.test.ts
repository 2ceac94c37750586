import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { unpatchedSource } from "../support/installed-patches";
import { ROOT, tmpPath } from "../support/paths";

/**
 * patches/@remix-run+router+1.23.3.patch also changes the router the browser runs (the package's
 * ES module, `dist/router.js`): `patchRoutes`, which Remix calls with the routes it discovers for
 * the page's links once the page has hydrated, no longer sends the router's state to its
 * subscribers. That update re-rendered the whole page (React Router's provider is a subscriber) for
 * routes the page does not show (decision 273). Here the installed router and the original, rebuilt
 * by taking the patch back out, run side by side.
 */
const ROUTER = path.join(ROOT, "node_modules", "@remix-run", "router", "dist", "router.js");
const PATCH = path.join(ROOT, "patches", "@remix-run+router+1.23.3.patch");

interface RouteObject {
  id: string;
  path?: string;
  index?: boolean;
  children?: RouteObject[];
}
interface Router {
  state: { location: { pathname: string }; matches: Array<{ route: { id: string } }>; initialized: boolean };
  routes: RouteObject[];
  initialize(): Router;
  subscribe(fn: (state: Router["state"]) => void): () => void;
  patchRoutes(routeId: string | null, children: RouteObject[]): void;
  navigate(to: string): Promise<void>;
  dispose(): void;
}
interface RouterModule {
  createRouter(init: object): Router;
  createMemoryHistory(options: { initialEntries: string[] }): unknown;
}

async function importSource(source: string): Promise<RouterModule> {
  const file = `${tmpPath("router")}.mjs`;
  // Without its source map comment: the map sits beside the installed file, not here.
  fs.writeFileSync(file, source.replace(/^\/\/# sourceMappingURL=.*$/m, ""));
  return (await import(pathToFileURL(file).href)) as RouterModule;
}

/** A router on `/tesla` as Remix hydrates one: the page's own routes, their data already there. */
function hydratedRouter(mod: RouterModule) {
  const routes: RouteObject[] = [{ id: "root", path: "/", children: [{ id: "routes/$slug", path: ":slug" }] }];
  const router = mod
    .createRouter({
      routes,
      history: mod.createMemoryHistory({ initialEntries: ["/tesla"] }),
      hydrationData: { loaderData: { root: null, "routes/$slug": null } },
    })
    .initialize();
  const updates: string[] = [];
  router.subscribe((state) => updates.push(state.location.pathname));
  return { router, updates };
}

/** What Remix's discovery does with `/__manifest`'s answer for a link to /submit. */
const discoverSubmit = (router: Router) => router.patchRoutes("root", [{ id: "routes/submit", path: "submit" }]);

describe("route discovery with the router patch (the browser's router)", () => {
  it("the installed module carries the patch, and the original differs only there", () => {
    const installed = fs.readFileSync(ROUTER, "utf8");
    expect(installed).toContain("Parrainly patch");
    const original = unpatchedSource(ROUTER, PATCH);
    expect(original).not.toContain("Parrainly patch");
    expect(original).toContain("updateState({});\n    }\n  }\n  router = {");
  });

  it("routes discovered ahead of time do not re-render the page; the next navigation uses them", async () => {
    const patched = hydratedRouter((await import(pathToFileURL(ROUTER).href)) as RouterModule);
    const original = hydratedRouter(await importSource(unpatchedSource(ROUTER, PATCH)));
    for (const { router } of [patched, original]) {
      expect(router.state.initialized).toBe(true);
      discoverSubmit(router);
    }
    // The original told its subscribers (the page) to render again; the patched one does not.
    expect(original.updates).toEqual(["/tesla"]);
    expect(patched.updates).toEqual([]);

    for (const { router, updates } of [patched, original]) {
      // The new table is the router's own at once (fetchers and the next navigation match against it)…
      expect(router.routes[0]?.children?.map((r) => r.id)).toEqual(["routes/$slug", "routes/submit"]);
      // …and a navigation to the discovered route matches it, no further discovery needed.
      await router.navigate("/submit");
      expect(router.state.location.pathname).toBe("/submit");
      expect(router.state.matches.map((m) => m.route.id)).toEqual(["root", "routes/submit"]);
      expect(updates.at(-1)).toBe("/submit");
      router.dispose();
    }
  });
});
