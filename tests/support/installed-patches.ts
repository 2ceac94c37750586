import fs from "node:fs";
import Module, { createRequire } from "node:module";
import path from "node:path";
import { expect } from "vitest";
import { ROOT } from "./paths";

/**
 * The patches under patches/ (applied by `npm ci`'s postinstall, patch-package) change installed
 * files. Their tests compare a patched file with the original, rebuilt here from the installed file
 * by taking each of the patch's hunks for that file back out.
 */
export function unpatchedSource(installedFile: string, patchFile: string): string {
  let source = fs.readFileSync(installedFile, "utf8");
  const relative = path.relative(ROOT, installedFile).split(path.sep).join("/");
  const files = fs.readFileSync(patchFile, "utf8").split(/^diff --git a\/\S+ b\//m);
  const forFile = files.filter((part) => part.startsWith(`${relative}\n`));
  expect(forFile, `the patch changes ${relative}`).toHaveLength(1);
  const hunks = forFile[0]!.split(/^@@[^\n]*\n/m).slice(1);
  for (const hunk of hunks) {
    const lines = hunk.replace(/\n$/, "").split("\n");
    const side = (drop: string) =>
      lines
        .filter((l) => !l.startsWith(drop) && !l.startsWith("\\"))
        .map((l) => l.slice(1))
        .join("\n");
    const after = side("-");
    expect(source.split(after).length - 1, "each hunk is in the installed file once").toBe(1);
    source = source.replace(after, () => side("+"));
  }
  return source;
}

/**
 * `source` loaded as if it were `installedFile` (its relative requires and packages resolve from
 * there), without touching the installed one.
 */
export function loadAs<T>(installedFile: string, source: string): T {
  const mod = new Module(installedFile);
  mod.filename = installedFile;
  mod.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(path.dirname(installedFile));
  (mod as unknown as { _compile(code: string, file: string): void })._compile(source, installedFile);
  return mod.exports as T;
}

/** The installed (patched) file, as Node loads it. */
export function loadInstalled<T>(installedFile: string): T {
  return createRequire(import.meta.url)(installedFile) as T;
}

export interface ManifestRoute {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  hasLoader?: boolean;
}

/** The site's routes, as the production build's browser manifest lists them. */
export function siteManifestRoutes(): Record<string, ManifestRoute> {
  const assets = path.join(ROOT, "build", "client", "assets");
  if (!fs.existsSync(assets)) throw new Error("No build: run `npm run build` first (npm test does).");
  const file = fs.readdirSync(assets).find((f) => /^manifest-[\w-]+\.js$/.test(f))!;
  const manifest = JSON.parse(
    fs
      .readFileSync(path.join(assets, file), "utf8")
      .replace(/^window\.__remixManifest=/, "")
      .replace(/;\s*$/, ""),
  ) as { routes: Record<string, ManifestRoute> };
  return manifest.routes;
}
