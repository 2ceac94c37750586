import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import type { RemixBuild, startServer } from "./app";
import { withProductionReact } from "./production-mode";

/** What app/entry.server.tsx exports for this runner. */
interface ServerEntry {
  startServer: typeof startServer;
}

function entryOf(build: ServerBuild): ServerEntry {
  const entry = build.entry.module as Partial<ServerEntry>;
  if (typeof entry.startServer !== "function")
    throw new Error("The Remix build has no startServer: app/entry.server.tsx must export it.");
  return entry as ServerEntry;
}

/**
 * The Remix server build: in production the bundle next to this file (build/server/index.js), in
 * development Vite's live module graph (each route module reloaded when edited; the server's own
 * modules, server/app.ts and what it imports, stay those of the first load until a restart).
 */
export async function loadRemixBuild(dev: boolean): Promise<RemixBuild & { entry: ServerEntry }> {
  if (dev) {
    const vite = await import("vite").then((v) => v.createServer({ server: { middlewareMode: true } }));
    const build = () => vite.ssrLoadModule("virtual:remix/server-build") as Promise<ServerBuild>;
    return { build, entry: entryOf(await build()), devMiddleware: vite.middlewares };
  }
  const here = path.dirname(fileURLToPath(import.meta.url));
  const build = await withProductionReact(
    () => import(/* @vite-ignore */ pathToFileURL(path.join(here, "server", "index.js")).href) as Promise<ServerBuild>,
  );
  const siteCss = fs.readFileSync(path.join(here, "site.css"), "utf8");
  return { build, entry: entryOf(build), clientDir: path.join(here, "client"), siteCss };
}
