import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/paths";

/**
 * What the home page's JavaScript costs a visitor who never plays: the production build's Remix
 * manifest lists the modules the page loads at start (entry, root, the home route and their imports).
 */
const CLIENT = path.join(ROOT, "build", "client");

function manifest() {
  const assets = path.join(CLIENT, "assets");
  if (!fs.existsSync(assets)) throw new Error("No build: run `npm run build` first (npm test does).");
  const file = fs.readdirSync(assets).find((f) => /^manifest-[\w-]+\.js$/.test(f))!;
  const source = fs.readFileSync(path.join(assets, file), "utf8");
  return JSON.parse(source.replace(/^window\.__remixManifest=/, "").replace(/;\s*$/, "")) as {
    entry: { module: string; imports: string[] };
    routes: Record<string, { module: string; imports?: string[] }>;
  };
}

describe("the home page's initial JavaScript", () => {
  const m = manifest();
  const home = m.routes["routes/_index"]!;
  const initial = new Set([m.entry.module, ...m.entry.imports]);
  for (const id of ["root", "routes/_index"])
    for (const f of [m.routes[id]!.module, ...(m.routes[id]!.imports ?? [])]) initial.add(f);
  const read = (f: string) => fs.readFileSync(path.join(CLIENT, f));

  it("holds none of the game: its rules, canvas loop and dialog are one lazy chunk", () => {
    const lazy = fs.readdirSync(path.join(CLIENT, "assets")).filter((f) => /^constellation-game-[\w-]+\.js$/.test(f));
    expect(lazy).toHaveLength(1);
    expect([...initial].some((f) => f.includes("constellation-game"))).toBe(false);
    for (const f of initial) {
      const code = read(f).toString();
      expect(code, f).not.toMatch(/orbHardCap|getContext\("2d"/);
    }
    // The home route only knows the chunk's name, to import it when idle.
    expect(read(home.module).toString()).toMatch(/constellation-game-[\w-]+\.js/);
  });

  it("keeps react-aria and zod out of the sky's chunk: the end dialog is a chunk of its own, imported on demand", () => {
    const assets = fs.readdirSync(path.join(CLIENT, "assets"));
    const sky = assets.find((f) => /^constellation-game-[\w-]+\.js$/.test(f))!;
    const dialog = assets.filter((f) => /^game-end-dialog-[\w-]+\.js$/.test(f));
    expect(dialog).toHaveLength(1);
    const skyCode = read(`assets/${sky}`).toString();
    // The sky's chunk names the dialog's only in a dynamic import().
    expect(skyCode).toMatch(new RegExp(`import\\("\\./${dialog[0]!.replace(/[.-]/g, "\\$&")}"\\)`));
    const statics = [...skyCode.matchAll(/from\s*"\.\/([\w.-]+\.js)"/g)].map((m) => m[1]!);
    expect(statics).not.toContain(dialog[0]);
    // react-aria marks its components with data-rac; zod's messages name its issue codes.
    const dialogCode = read(`assets/${dialog[0]!}`).toString();
    expect(dialogCode).toMatch(/data-rac/);
    for (const f of [sky, ...statics]) {
      const code = read(`assets/${f}`).toString();
      expect(code, f).not.toMatch(/data-rac/);
      expect(code, f).not.toMatch(/invalid_type_error/);
    }
  });

  it("grows the home route's chunk by less than 2 KB gzip", () => {
    // 2 502 bytes gzip before the game existed; the mount point added about 0.65 KB.
    const homeGz = zlib.gzipSync(read(home.module), { level: 9 }).length;
    expect(homeGz).toBeLessThan(2_502 + 2_048);
    // The game is imported on demand, once the page has loaded and the browser is idle (the helper,
    // app/utils/after-load.ts, is in a chunk the page loads anyway).
    expect(read(home.module).toString()).toMatch(/import\("\.\/constellation-game-/);
    const loaded = [home.module, ...(home.imports ?? [])].map((f) => read(f).toString());
    expect(loaded.some((code) => /requestIdleCallback/.test(code))).toBe(true);
  });
});
