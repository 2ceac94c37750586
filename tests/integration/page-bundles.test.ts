import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../support/paths";
import { startServer, type RunningServer } from "../support/server";

/**
 * What each visitor page's JavaScript holds, read from the production build and the pages it serves
 * (decision 252): the files a page loads are its `modulepreload` links and the modules its inline
 * script imports, counted as `npm run bench -- --only pages` counts them.
 */
const ASSETS = path.join(ROOT, "build", "client", "assets");

let server: RunningServer;
beforeAll(async () => {
  if (!fs.existsSync(ASSETS)) throw new Error("No build: run `npm run build` first (npm test does).");
  server = await startServer({ SEED_DEMO: "1" });
});
afterAll(async () => {
  await server?.stop();
});

async function scriptsOf(page: string): Promise<string[]> {
  const html = await (await fetch(`${server.url}${page}`)).text();
  const files = new Set<string>();
  for (const m of html.matchAll(/rel="modulepreload"[^>]* href="\/assets\/([^"]+\.js)"/g)) files.add(m[1]!);
  for (const m of html.matchAll(/import(?: \* as \w+ from |\()"\/assets\/([^"]+\.js)"/g)) files.add(m[1]!);
  return [...files];
}

const read = (file: string) => fs.readFileSync(path.join(ASSETS, file), "utf8");

describe("translations in the browser", () => {
  it("are modules at one URL pattern, not a table of loaders in every page's code", async () => {
    const modules = fs.readdirSync(ASSETS).filter((f) => /^locales-[\w-]+\.[a-z]{2}\.[\w-]+\.js$/.test(f));
    // Every language and namespace, one hash for all.
    expect(modules.length).toBe(4 * fs.readdirSync(path.join(ROOT, "app", "locales", "fr")).length);
    expect(new Set(modules.map((f) => f.split(".")[0])).size).toBe(1);
    const prefix = `${modules[0]!.split(".")[0]}.`;
    const scripts = await scriptsOf("/tesla");
    const code = scripts.map(read).join("\n");
    expect(code).toContain(`"/assets/${prefix}"`);
    expect(code).not.toMatch(/locales\/(fr|en|de|es)\//);
    // The old per-file chunks (a module per language and namespace, named after the namespace) are gone.
    expect(fs.readdirSync(ASSETS).filter((f) => /^common-[\w-]+\.js$/.test(f))).toEqual([]);

    const response = await fetch(`${server.url}/assets/${prefix}de.common.js`, { headers: { "accept-encoding": "gzip" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(response.headers.get("cache-control")).toContain("immutable");
    const body = await response.text();
    const tree = JSON.parse(JSON.parse(/^export default JSON\.parse\((".*")\);\n$/s.exec(body)![1]!) as string) as {
      nav?: { skipToContent?: string };
    };
    const source = JSON.parse(fs.readFileSync(path.join(ROOT, "app", "locales", "de", "common.json"), "utf8")) as typeof tree;
    expect(tree).toEqual(source);
  });
});

describe("the consent banner and the analytics tags", () => {
  it("are a chunk of their own, which a page without them never loads", async () => {
    const chunk = fs.readdirSync(ASSETS).filter((f) => /^analytics-tags-[\w-]+\.js$/.test(f));
    expect(chunk).toHaveLength(1);
    expect(read(chunk[0]!)).toContain("set-consent");
    for (const page of ["/", "/tesla", "/tesla/get-code", "/submit", "/privacy"]) {
      const scripts = await scriptsOf(page);
      expect(scripts, page).not.toContain(chunk[0]);
      for (const f of scripts) expect(read(f), `${page}: ${f}`).not.toMatch(/set-consent|googletagmanager/);
      // Vite's preload helper (its error event names it) is a plain call here.
      for (const f of scripts) expect(read(f), `${page}: ${f}`).not.toContain("vite:preloadError");
    }
  });
});

describe("what a page loads before anyone plays", () => {
  it("no visitor page loads the game's end dialog (react-aria's modal) or grows past 100 KB gz", async () => {
    const dialog = fs.readdirSync(ASSETS).filter((f) => /^game-end-dialog-[\w-]+\.js$/.test(f));
    expect(dialog).toHaveLength(1);
    for (const page of ["/", "/tesla", "/tesla/get-code", "/random", "/submit", "/suggest-platform", "/platforms"]) {
      const scripts = await scriptsOf(page);
      expect(scripts, page).not.toContain(dialog[0]);
      const gz = scripts.reduce((n, f) => n + zlib.gzipSync(fs.readFileSync(path.join(ASSETS, f)), { level: 9 }).length, 0);
      expect(gz, page).toBeLessThan(100 * 1024);
    }
  });
});
