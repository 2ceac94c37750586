// The build's stamp (decision 346): a hash of the sources a build was made from, written by
// `npm run build`, read by `npm start` (scripts/ensure-build.mjs) and by every test suite that runs
// the build, which rebuild when a source changed since. `node scripts/build-stamp.mjs begin|end`.
import { execSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** What the build reads: every file under these folders (tests aside), and these files. */
const SOURCE_DIRS = ["app", "server", "db", "migrations", "public", "patches"];
const SOURCE_FILES = [
  "package.json",
  "package-lock.json",
  "tsconfig.json",
  "vite.config.ts",
  "scripts/build-server.mjs",
  "scripts/build-stamp.mjs",
];
/** What a usable build holds besides its stamp. */
const BUILD_FILES = ["build/server.mjs", "build/server/index.js", "build/site.css"];
const STAMP = "build/source-hash.txt";
/**
 * The hash taken when a build began; it becomes the stamp only once the build has succeeded. Kept
 * outside build/, which the Remix build empties.
 */
const PENDING = path.join(ROOT, "node_modules", ".cache", "parrainly-source-hash.pending");

function listFiles(dir, out) {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) listFiles(full, out);
    else if (entry.isFile() && !/\.test\.tsx?$/.test(entry.name)) out.push(full);
  }
}

/** SHA-256 over every source file's path and bytes (about 450 files, 3 MB: 20-40 ms). */
export function sourceHash(root = ROOT) {
  const files = [];
  for (const dir of SOURCE_DIRS) listFiles(path.join(root, dir), files);
  for (const file of SOURCE_FILES) if (fs.existsSync(path.join(root, file))) files.push(path.join(root, file));
  files.sort();
  const hash = crypto.createHash("sha256");
  for (const file of files) {
    hash.update(path.relative(root, file));
    hash.update("\0");
    hash.update(fs.readFileSync(file));
    hash.update("\0");
  }
  return hash.digest("hex");
}

/** "missing" (no build), "stale" (built from other sources, or before stamps existed) or "current". */
export function buildState(root = ROOT) {
  if (BUILD_FILES.some((file) => !fs.existsSync(path.join(root, file)))) return "missing";
  const stamp = path.join(root, STAMP);
  return fs.existsSync(stamp) && fs.readFileSync(stamp, "utf8").trim() === sourceHash(root) ? "current" : "stale";
}

/** Marks the build under `root` as made from its sources as they are now. */
export function stampBuild(root = ROOT, hash = sourceHash(root)) {
  fs.writeFileSync(path.join(root, STAMP), hash);
}

/**
 * Builds when there is no build or the sources changed since it was made, and says so in one line.
 * Returns whether it built. `who` names the caller in that line ("npm start", "vitest"…).
 */
export function ensureBuild(who) {
  const state = buildState();
  if (state === "current") return false;
  // On stderr: Playwright shows its web server's stderr only.
  console.warn(
    state === "missing"
      ? `[${who}] no build yet: building (about 30 s)…`
      : `[${who}] sources changed since the last build: rebuilding (about 30 s)…`,
  );
  // As from a shell: vitest's variables would make vite.config.ts leave the Remix plugin out.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(VITEST.*|TEST|NODE_ENV)$/.test(name)));
  execSync("npm run build", { stdio: "inherit", cwd: ROOT, env });
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const step = process.argv[2];
  if (step === "begin") {
    fs.rmSync(path.join(ROOT, STAMP), { force: true });
    fs.mkdirSync(path.dirname(PENDING), { recursive: true });
    // A new file, never one hard-linked from another checkout's node_modules.
    fs.rmSync(PENDING, { force: true });
    fs.writeFileSync(PENDING, sourceHash());
  } else if (step === "end") {
    stampBuild(ROOT, fs.readFileSync(PENDING, "utf8"));
    fs.rmSync(PENDING);
  } else {
    console.log(buildState());
  }
}
