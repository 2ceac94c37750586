import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import type { RequestHandler } from "express";
import { appHooksOf, type AppHooks } from "./app-hooks";
import { withProductionReact } from "./production-mode";

export interface RemixBuild {
  /** What Remix's request handler takes: the build, or in development a function that loads the current one. */
  build: ServerBuild | (() => Promise<ServerBuild>);
  /** The app's hooks from the current build (in development it changes as files are edited). */
  hooks: () => Promise<AppHooks>;
  /** In development, Vite's middleware (assets, HMR); none in production. */
  devMiddleware?: RequestHandler;
  /** In production, the client files of the build (assets, favicon...). */
  clientDir?: string;
  /** In production, the site's stylesheet (build/site.css) as text, read once, inlined in every page. */
  siteCss?: string;
}

/**
 * The Remix server build: in production the bundle next to this file (build/server/index.js), in
 * development Vite's live module graph (each app module loaded once, reloaded when edited).
 */
export async function loadRemixBuild(dev: boolean): Promise<RemixBuild> {
  if (dev) {
    const vite = await import("vite").then((v) => v.createServer({ server: { middlewareMode: true } }));
    const build = async () => {
      const current = (await vite.ssrLoadModule("virtual:remix/server-build")) as ServerBuild;
      appHooksOf(current).guardRoutes(current.routes);
      return current;
    };
    return { build, hooks: async () => appHooksOf(await build()), devMiddleware: vite.middlewares };
  }
  const here = path.dirname(fileURLToPath(import.meta.url));
  const build = await withProductionReact(
    () => import(/* @vite-ignore */ pathToFileURL(path.join(here, "server", "index.js")).href) as Promise<ServerBuild>,
  );
  const hooks = appHooksOf(build);
  hooks.guardRoutes(build.routes);
  const siteCss = fs.readFileSync(path.join(here, "site.css"), "utf8");
  return { build, hooks: () => Promise.resolve(hooks), clientDir: path.join(here, "client"), siteCss };
}
