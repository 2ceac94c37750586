import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildState, sourceHash, stampBuild } from "../../scripts/build-stamp.mjs";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A checkout in miniature: a source, a config file, and (when asked) a build. */
function checkout(built: boolean): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "build-stamp-"));
  dirs.push(root);
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  };
  write("app/locales/fr/home.json", '{ "title": "Bonjour" }');
  write("server/index.ts", "export {};");
  write("package.json", "{}");
  if (built) for (const file of ["build/server.mjs", "build/server/index.js", "build/site.css"]) write(file, "");
  return root;
}

describe("the build's stamp (decision 346)", () => {
  it("says missing, stale or current, and stale once a source or a config file changes", () => {
    const root = checkout(false);
    expect(buildState(root)).toBe("missing");
    const built = checkout(true);
    // A build from before stamps existed is stale: it cannot say what it was made from.
    expect(buildState(built)).toBe("stale");
    stampBuild(built);
    expect(buildState(built)).toBe("current");

    fs.writeFileSync(path.join(built, "app/locales/fr/home.json"), '{ "title": "Salut" }');
    expect(buildState(built)).toBe("stale");
    stampBuild(built);
    fs.writeFileSync(path.join(built, "package.json"), '{ "name": "x" }');
    expect(buildState(built)).toBe("stale");
    stampBuild(built);
    fs.mkdirSync(path.join(built, "db"));
    fs.writeFileSync(path.join(built, "db/new.ts"), "export {};");
    expect(buildState(built)).toBe("stale");
  });

  it("hashes content, not times, and leaves tests and the build itself out", () => {
    const root = checkout(true);
    const before = sourceHash(root);
    const file = path.join(root, "server/index.ts");
    fs.utimesSync(file, new Date(), new Date(Date.now() + 60_000));
    fs.writeFileSync(path.join(root, "server/index.test.ts"), "test");
    fs.writeFileSync(path.join(root, "build/server.mjs"), "changed");
    expect(sourceHash(root)).toBe(before);
    fs.renameSync(file, path.join(root, "server/main.ts"));
    expect(sourceHash(root)).not.toBe(before);
  });
});
