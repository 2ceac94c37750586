// How the bench and Lighthouse scripts start a server: a child node process on a free port (PORT=0),
// ready once it prints "listening on http://localhost:N". `startBuiltServer` starts Parrainly's
// production build with the scripts' defaults; `spawnServer` starts any script (the stock Remix
// baseline, the bare node:http ceiling). The integration tests have their own starter
// (tests/support/server.ts), which adds a database per test and the PostgreSQL pass.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ensureBuild } from "./build-stamp.mjs";

export const BENCH_SECRET = "bench-secret-0123456789abcdef";
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/**
 * @typedef {object} SpawnedServer
 * @property {number} port
 * @property {number} pid
 * @property {import("node:child_process").ChildProcess} child
 * @property {() => Promise<void>} stop SIGTERM, then resolves once the process has exited.
 */

/**
 * Spawns `node ...args` in `cwd` and resolves the port it listens on. The child's stdout is drained
 * once it is ready (a request log would otherwise fill the pipe and stall it).
 * @param {string[]} args
 * @param {string} cwd
 * @param {Record<string, string>} env
 * @returns {{ child: import("node:child_process").ChildProcess; port: Promise<number> }}
 */
export function spawnServer(args, cwd, env, timeoutMs = 60_000) {
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, NODE_OPTIONS: "", PORT: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  /** @type {Promise<number>} */
  const port = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), timeoutMs);
    const onData = (/** @type {Buffer} */ chunk) => {
      output += chunk.toString();
      const match = /listening on http:\/\/localhost:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        output = "";
        child.stdout.off("data", onData);
        child.stdout.resume();
        resolve(Number(match[1]));
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", (/** @type {Buffer} */ chunk) => (output += chunk.toString()));
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  return { child, port };
}

/**
 * @param {import("node:child_process").ChildProcess} child
 * @returns {Promise<void>}
 */
export function stopChild(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

/**
 * @param {string[]} args
 * @param {string} cwd
 * @param {Record<string, string>} env
 * @returns {Promise<SpawnedServer>}
 */
export async function startServer(args, cwd, env) {
  const { child, port } = spawnServer(args, cwd, env);
  return { port: await port, pid: child.pid ?? 0, child, stop: () => stopChild(child) };
}

/**
 * Parrainly's production build (`build/server.mjs`) on `databaseUrl`, with uploads under `dir`, no
 * request log. `env` adds or overrides variables (SEED_DEMO, PAGE_CACHE_MS…).
 * @param {string} databaseUrl
 * @param {string} dir
 * @param {Record<string, string>} [env]
 * @returns {Promise<SpawnedServer>}
 */
export function startBuiltServer(databaseUrl, dir, env = {}) {
  // A measurement of the previous build would be a wrong figure: build when a source changed (decision 346).
  ensureBuild("benchmark");
  const entry = path.join(ROOT, "build", "server.mjs");
  return startServer([entry], ROOT, {
    NODE_ENV: "production",
    DATABASE_URL: databaseUrl,
    SESSION_SECRET: BENCH_SECRET,
    UPLOADS_DIR: path.join(dir, "uploads"),
    LOG_REQUESTS: "0",
    // The benchmarks draw from one address thousands of times a second (decision 298).
    DRAW_RATE_LIMIT: "0",
    DRAW_DAILY_LIMIT: "0",
    DRAW_SOFT_LIMIT: "0",
    ...env,
  });
}

/**
 * Another built checkout of Parrainly (`baselineDir`, built there) on a fresh demo database under
 * `dir`: the "before" of `npm run lighthouse -- --baseline` and `scripts/paint-times.mjs`.
 * @param {string} baselineDir
 * @param {string} dir
 * @returns {Promise<SpawnedServer>}
 */
export function startBaselineServer(baselineDir, dir) {
  const root = path.resolve(baselineDir);
  return startServer([path.join(root, "build", "server.mjs")], root, {
    NODE_ENV: "production",
    DATABASE_URL: `file:${path.join(dir, "baseline.db")}`,
    SESSION_SECRET: BENCH_SECRET,
    UPLOADS_DIR: path.join(dir, "baseline-uploads"),
    LOG_REQUESTS: "0",
    SEED_DEMO: "1",
    DRAW_RATE_LIMIT: "0",
    DRAW_DAILY_LIMIT: "0",
    DRAW_SOFT_LIMIT: "0",
  });
}
