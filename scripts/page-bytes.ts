// What a page costs the browser in bytes, for the pages bench (scripts/bench-pages.ts): the JavaScript
// (gzip -9) each visitor page loads before it hydrates, beside the stock Remix app's home page, and
// the styles of `/`, read from the builds.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { get } from "./page-load";
import { pageScripts } from "./page-scripts";

/**
 * Gzip -9 bytes of every JS file a page loads before it hydrates, read from the build
 * (scripts/page-scripts.ts: its `modulepreload` links, its inline script's imports, and a draw
 * page's half; the rule tests/integration/page-bundles.test.ts holds the pages to).
 */
async function pageJs(port: number, target: string, clientDir: string): Promise<{ files: number; gzBytes: number }> {
  const { body } = await get(false, port, target);
  const assets = path.join(clientDir, "assets");
  const files = pageScripts(body);
  let gzBytes = 0;
  for (const file of files) {
    const full = path.join(assets, file);
    if (fs.existsSync(full)) gzBytes += zlib.gzipSync(fs.readFileSync(full), { level: 9 }).length;
  }
  return { files: files.length, gzBytes };
}

/**
 * Gzip -9 bytes of the page's styles: the stylesheet inlined in its head (decision 178) plus any it
 * links, read from the build.
 */
async function pageCss(port: number, target: string, clientDir: string): Promise<{ files: number; gzBytes: number }> {
  const { body } = await get(false, port, target);
  const inline = /<style id="site-css"[^>]*>([^<]*)<\/style>/.exec(body)?.[1] ?? "";
  let gzBytes = inline ? zlib.gzipSync(inline, { level: 9 }).length : 0;
  const files = new Set<string>();
  for (const m of body.matchAll(/rel="stylesheet" href="(\/assets\/[^"]+\.css)"/g)) files.add(m[1]!);
  for (const file of files) {
    const full = path.join(clientDir, file);
    if (fs.existsSync(full)) gzBytes += zlib.gzipSync(fs.readFileSync(full), { level: 9 }).length;
  }
  return { files: files.size + (inline ? 1 : 0), gzBytes };
}

/**
 * The JavaScript of `/` and `/submit` (files and bytes) beside stock's `/`, the bytes of every visitor
 * page (the cap is per page; `slug` is a platform's), and the CSS of `/`.
 */
export async function pageBytes(
  parrainly: { port: number; clientDir: string },
  stock: { port: number; clientDir: string },
  slug: string,
) {
  const js = {
    parrainlyHome: await pageJs(parrainly.port, "/", parrainly.clientDir),
    parrainlySubmit: await pageJs(parrainly.port, "/submit", parrainly.clientDir),
    stockHome: await pageJs(stock.port, "/", stock.clientDir),
  };
  const visitorPages = [
    "/",
    `/${slug}`,
    `/${slug}/get-code`,
    "/random",
    "/submit",
    "/suggest-platform",
    "/partnerships",
    "/platforms",
    "/fairness",
    "/privacy",
  ];
  const perPage: Record<string, number> = {};
  for (const page of visitorPages) perPage[page] = (await pageJs(parrainly.port, page, parrainly.clientDir)).gzBytes;
  const css = await pageCss(parrainly.port, "/", parrainly.clientDir);
  return { js, perPage, css };
}
