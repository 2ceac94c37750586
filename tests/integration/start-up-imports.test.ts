import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/paths";

/**
 * What importing the server build loads from node_modules (decision 241): packages only one
 * dialect or one rare page needs are loaded when first used, not at every start-up.
 */
function packagesLoadedByTheBuild(): string[] {
  const build = path.join(ROOT, "build", "server", "index.js");
  if (!fs.existsSync(build)) throw new Error("No build: run `npm run build` first (npm test does).");
  const script = `
    import { createRequire } from "node:module";
    await import(${JSON.stringify(build)});
    const files = Object.keys(createRequire(import.meta.url).cache);
    console.log(JSON.stringify(files));
  `;
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production", NODE_OPTIONS: "" },
    encoding: "utf8",
  });
  expect(result.status, result.stderr).toBe(0);
  return JSON.parse(result.stdout.trim().split("\n").at(-1)!) as string[];
}

describe("start-up imports", () => {
  it("the server build loads neither pg nor the sitemap audit's parsers", () => {
    const files = packagesLoadedByTheBuild();
    const loaded = (pkg: string) => files.some((f) => f.includes(`${path.sep}node_modules${path.sep}${pkg}${path.sep}`));
    // What it does load, so that the check below looks at the right list.
    expect(loaded("react-dom")).toBe(true);
    expect(loaded("better-sqlite3")).toBe(true);
    for (const pkg of ["pg", "pg-protocol", "saxes", "robots-parser"]) expect(loaded(pkg), pkg).toBe(false);
    // Express and its dependencies are in the build (vite.config.ts, decision 241), not read file by file.
    for (const pkg of ["express", "body-parser"]) expect(loaded(pkg), pkg).toBe(false);
    // rate-limiter-flexible is imported by its public entry only (decision 331), which loads each of
    // its stores' modules (not their clients): no longer checked here.
  });
});

describe("the runner and the build (decision 001)", () => {
  it("the runner imports no module of the server or the app: the build's entry exports the server", () => {
    const runner = fs.readFileSync(path.join(ROOT, "build", "server.mjs"), "utf8");
    expect(runner).toContain("startServer");
    // What the Express server is made of lives in the build, once.
    for (const part of ["admissionControl", "createRequestHandler", "pageCache", "closeWithGrace"])
      expect(runner, part).not.toContain(part);
    const server = fs.readFileSync(path.join(ROOT, "build", "server", "index.js"), "utf8");
    expect(server).toMatch(/\bentry\b/);
  });
});

describe("the server build's translation hooks", () => {
  it("render with react-i18next itself, as shipped (no alias of the package to the app's own hooks)", () => {
    const dir = path.join(ROOT, "build", "server", "assets");
    const code = fs
      .readdirSync(dir)
      .filter((f) => f.endsWith(".js"))
      .map((f) => fs.readFileSync(path.join(dir, f), "utf8"))
      .join("\n");
    const server = fs.readFileSync(path.join(ROOT, "build", "server", "index.js"), "utf8");
    // react-i18next's own namespace bookkeeping, in the bundle or imported from the package.
    expect(code.includes("reportNamespaces") || server.includes('from "react-i18next"')).toBe(true);
    expect(code).not.toContain("useTranslation outside I18nextProvider");
  });
});
