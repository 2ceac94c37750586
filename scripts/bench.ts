// npm run bench — the draw benchmark: draws per second through the repository function and through
// HTTP (50 concurrent keep-alive connections against the built server), with the fairness spread
// (max - min times_served) after each run. Temporary databases only, loopback only. Prints a table;
// never fails on a number (only on an error). Options: --seconds N (default 5 per run), --codes N
// (default 20), --only repository|http|audit (audit: the sitemap audit's peak memory, run by
// scripts/bench-audit.ts), --only pages (pages against a stock Remix app, scripts/bench-pages.ts, --rounds N;
// writes bench-results.json), --only postgres (the draw on a throwaway PostgreSQL cluster, before and after decision 390, with 1 and
// 3 processes: scripts/bench-postgres.ts), --only scale (every page on the demo data and on
// years of data, with RSS: scripts/bench-scale.ts; a few minutes, so only when asked), --only overload
// (120 and 400 concurrent visitors on uncached pages, admission control off and on, then the mixed
// load of pages and draws for 60 s: scripts/bench-overload.ts). HTTP runs use the built server: `npm run build` first.
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { closeDb, getDb } from "~db/client.server";
import { drawReferralCode } from "~db/repositories/draw.server";
import { BENCH_SLUG, drawTally, HTML, postDraw, prepareBenchDatabase } from "./bench-db";
import { benchPages } from "./bench-pages";
import { startBuiltServer } from "./spawn-server.mjs";

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? Number(process.argv[index + 1]) : fallback;
  if (!Number.isFinite(value) || value <= 0) {
    console.error(`--${name} takes a positive number`);
    process.exit(2);
  }
  return value;
}

process.env.SESSION_SECRET ??= "bench-secret-0123456789abcdef";
const SECONDS = option("seconds", 5);
const CODES = option("codes", 20);
const CONNECTIONS = 50;
const onlyIndex = process.argv.indexOf("--only");
const ONLY = onlyIndex >= 0 ? process.argv[onlyIndex + 1] : undefined;
if (ONLY !== undefined && !["repository", "http", "audit", "pages", "postgres", "scale", "overload"].includes(ONLY)) {
  console.error("--only takes repository, http, audit, pages, postgres, scale or overload");
  process.exit(2);
}
const root = path.resolve(import.meta.dirname, "..");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "parrainly-bench-"));

async function repositoryRun(callers: number) {
  const { db, platformId } = await prepareBenchDatabase(`file:${path.join(tmp, `repository-${callers}.db`)}`, CODES);
  for (let i = 0; i < 1000; i++) await drawReferralCode(platformId); // warm-up
  let draws = 0;
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  const deadline = start + SECONDS * 1000;
  // `callers` loops awaiting one draw at a time, one transaction (one commit) per draw: 1 is strictly
  // sequential; more mirror concurrent requests, which queue for SQLite's one connection.
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (performance.now() < deadline) {
        for (let i = 0; i < 50; i++) if (await drawReferralCode(platformId)) draws++;
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const after = await drawTally(db);
  await closeDb();
  return {
    perSecond: draws / elapsed,
    perCpuSecond: draws / ((cpu.user + cpu.system) / 1e6),
    draws: draws + 1000,
    errors: 0,
    ...after,
  };
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
function cpuSecondsOf(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

/**
 * `target` is the draw page, where the draw form posts (its action answers 303 without JavaScript),
 * or its `.data` twin (Remix's own request with JavaScript: 202 with the single-fetch redirect).
 */
let httpRuns = 0;
async function httpRun(target: string, drawn: number, accept = HTML) {
  const file = path.join(tmp, `http-${++httpRuns}.db`);
  await prepareBenchDatabase(`file:${file}`, CODES);
  await closeDb();
  const server = await startBuiltServer(`file:${file}`, tmp);
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  try {
    // Warm-up: JIT, statement cache, sockets.
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        for (let i = 0; i < 20; i++) await postDraw(agent, server.port, target, accept);
      }),
    );
    let draws = 0;
    let errors = 0;
    const cpuBefore = cpuSecondsOf(server.pid);
    const start = performance.now();
    const deadline = start + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        while (performance.now() < deadline) {
          const status = await postDraw(agent, server.port, target, accept);
          if (status === drawn) draws++;
          else errors++;
        }
      }),
    );
    const elapsed = (performance.now() - start) / 1000;
    const cpu = cpuSecondsOf(server.pid) - cpuBefore;
    await server.stop();
    const reopened = getDb();
    const after = await drawTally(reopened);
    await closeDb();
    return { perSecond: draws / elapsed, perCpuSecond: draws / cpu, draws: draws + CONNECTIONS * 20, errors, ...after };
  } finally {
    agent.destroy();
    await server.stop();
  }
}

const results: Array<Record<string, string | number>> = [];
type Run = {
  perSecond: number;
  perCpuSecond: number;
  draws: number;
  errors: number;
  spread: number;
  served: number;
  logged: number;
};
const row = (name: string, target: number | null | "comparison", r: Run) => ({
  run: name,
  "draws/s": Math.round(r.perSecond),
  "µs/draw (1/rate)": Math.round(1e6 / r.perSecond),
  // Wall-clock figures depend on what else the machine runs; draws per CPU-second of the drawing
  // process tell what one free core would do.
  "draws/CPU-s": Number.isFinite(r.perCpuSecond) ? Math.round(r.perCpuSecond) : "n/a",
  target: target === null ? "none (*)" : target === "comparison" ? "none" : `>= ${target.toLocaleString("en")}`,
  "met?": typeof target !== "number" ? "-" : r.perSecond >= target ? "yes" : "NO",
  errors: r.errors,
  "spread (max-min serves)": r.spread,
  "serves = log rows": r.served === r.logged ? `yes (${r.logged})` : `NO (${r.served} vs ${r.logged})`,
});

if (ONLY !== "scale")
  console.log(
    `Draw benchmark: ${CODES} codes, ${SECONDS} s per run, ${os.cpus().length} CPU(s), load average ${os.loadavg()[0]!.toFixed(1)}, Node ${process.version}`,
  );
try {
  if (ONLY === undefined || ONLY === "repository") {
    // The target: below it, the plain transaction would need a batch or a special path (issue 58).
    results.push(row(`repository drawReferralCode, ${CONNECTIONS} concurrent callers`, 500, await repositoryRun(CONNECTIONS)));
    results.push(row("repository drawReferralCode, 1 caller (sequential) (*)", null, await repositoryRun(1)));
  }
  if (ONLY === undefined || ONLY === "http") {
    const page = `/${BENCH_SLUG}/get-code`;
    results.push(row(`HTTP POST ${page} (no JS), ${CONNECTIONS} connections`, 1_000, await httpRun(page, 303)));
    results.push(row(`HTTP POST ${page}.data (JS), ${CONNECTIONS} connections`, 1_000, await httpRun(`${page}.data`, 202)));
  }
  if (results.length) console.table(results);
  if (ONLY === undefined || ONLY === "repository") {
    console.log(
      "(*) One caller awaiting each draw: its µs/draw is the latency of a lone draw, one transaction and its\n" +
        "    commit (docs/performance/draw.md).",
    );
  }
  // The same draw on PostgreSQL (skipped, and said so, when its binaries are not installed).
  if (ONLY === undefined || ONLY === "postgres") {
    const { benchPostgres } = await import("./bench-postgres");
    await benchPostgres({ root, seconds: SECONDS, codes: CODES });
  }
  if (ONLY === undefined || ONLY === "pages") {
    const jsonFile = path.join(root, "bench-results.json");
    await benchPages({ root, seconds: SECONDS, rounds: option("rounds", 3), jsonFile });
  }
  // What ServerHtml's kept regions save a phone's main thread (decision 251): Chromium, so only when asked.
  if (ONLY === "scale") await (await import("./bench-scale")).benchScale(root);
  // More visitors than the server serves, and the mixed load: admission control off and on (decision 212).
  if (ONLY === undefined || ONLY === "overload") {
    const { benchOverload } = await import("./bench-overload");
    await benchOverload({ root, tmp, seconds: Math.min(SECONDS, 8) });
  }
  // The sitemap audit's memory, in a process of its own so the draw runs do not weigh on its RSS.
  if (ONLY === undefined || ONLY === "audit") {
    const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "scripts", "bench-audit.ts")], {
      stdio: "inherit",
    });
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    if (code !== 0) throw new Error(`bench-audit exited with ${code}`);
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}

// The game's frame cost: its own file (scripts/bench-game.ts), after the draw runs.
if (ONLY === undefined) await (await import("./bench-game")).benchGame();
