import path from "node:path";
import { isValidElement } from "react";
import { describe, expect, it } from "vitest";
import { loadAs, loadInstalled, siteManifestRoutes, unpatchedSource, type ManifestRoute } from "../support/installed-patches";
import { ROOT } from "../support/paths";

/**
 * patches/@remix-run+react+2.17.5.patch makes RemixServer's route table (`createServerRoutes`) built
 * once per manifest instead of on every server render, handed out again while the route modules,
 * `future` and `isSpaMode` are the same (decision 240). Here the patched function and the original
 * one, rebuilt from the installed file by taking the patch back out, must give the same table for
 * the site's routes, and the patched one must build anew whenever an input differs.
 */
const ROUTES = path.join(ROOT, "node_modules", "@remix-run", "react", "dist", "routes.js");
const PATCH = path.join(ROOT, "patches", "@remix-run+react+2.17.5.patch");

type RouteModule = Record<string, unknown>;
type CreateServerRoutes = (
  manifest: Record<string, ManifestRoute>,
  routeModules: Record<string, RouteModule>,
  future: object,
  isSpaMode: boolean,
) => ServerRoute[];
interface ServerRoute extends Record<string, unknown> {
  id: string;
  children?: ServerRoute[];
}

/** A module per route, as the server build has them: a component, a handle, an error boundary on some. */
function modulesFor(manifest: Record<string, ManifestRoute>): Record<string, RouteModule> {
  return Object.fromEntries(
    Object.keys(manifest).map((id, i) => {
      const module: RouteModule = { default: function Page() {}, handle: { i18n: id } };
      if (i % 3 === 0) module.ErrorBoundary = function Boundary() {};
      if (id === "root") module.Layout = function Layout() {};
      return [id, module];
    }),
  );
}

/** The table with its functions and elements named by what they are, so that two builds compare. */
function shape(routes: ServerRoute[], modules: Record<string, RouteModule>): unknown[] {
  return routes.map((route) => {
    const described: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(route)) {
      if (key === "children") continue;
      const own = Object.entries(modules[route.id]!).find(([, v]) => v === value)?.[0];
      if (own) described[key] = `module.${own}`;
      else if (key === "handle") described[key] = value === modules[route.id]!.handle ? "module.handle" : "other";
      else if (typeof value === "function") described[key] = `function ${key}`;
      else if (isValidElement(value)) described[key] = `element ${(value.type as { name?: string }).name}`;
      else described[key] = value;
    }
    if (route.children) described.children = shape(route.children, modules);
    return described;
  });
}

describe("RemixServer's route table with the patch", () => {
  const patched = loadInstalled<{ createServerRoutes: CreateServerRoutes }>(ROUTES).createServerRoutes;
  const original = loadAs<{ createServerRoutes: CreateServerRoutes }>(ROUTES, unpatchedSource(ROUTES, PATCH)).createServerRoutes;
  const manifest = siteManifestRoutes();
  const future = { v3_singleFetch: true };

  it("is the table the original builds, for every route of the site", () => {
    const modules = modulesFor(manifest);
    const table = patched(manifest, modules, future, false);
    expect(Object.keys(manifest).length).toBeGreaterThan(40);
    expect(shape(table, modules)).toEqual(shape(original(manifest, modules, future, false), modules));
    expect(JSON.stringify(shape(table, modules))).toContain('"Component":"module.default"');
  });

  it("is built once: a new modules object holding the same modules, as each render makes, gets the same table", () => {
    const modules = modulesFor(manifest);
    const first = patched(manifest, modules, future, false);
    expect(patched(manifest, { ...modules }, future, false)).toBe(first);
  });

  it("is built anew when a module, the future flags, SPA mode or the manifest differ, and is then the original's", () => {
    const modules = modulesFor(manifest);
    const first = patched(manifest, modules, future, false);
    const changed = { ...modules, "routes/privacy": { default: function Other() {}, handle: { i18n: "legal" } } };
    const rebuilt = patched(manifest, changed, future, false);
    expect(rebuilt).not.toBe(first);
    expect(shape(rebuilt, changed)).toEqual(shape(original(manifest, changed, future, false), changed));
    const fewer = Object.fromEntries(Object.entries(modules).filter(([id]) => id !== "routes/privacy"));
    expect(() => patched(manifest, fewer, future, false)).toThrow(/No `routeModule` available/);
    expect(patched(manifest, changed, { ...future }, false)).not.toBe(rebuilt);
    expect(patched({ ...manifest }, changed, future, false)).not.toBe(rebuilt);
    const spa = patched(manifest, changed, future, true);
    expect(shape(spa, changed)).toEqual(shape(original(manifest, changed, future, true), changed));
  });
});
