// The draw on PostgreSQL, for `npm run bench` (--only postgres): a throwaway cluster with durable
// defaults (fsync on), loopback only (a unix socket), removed at the end. One table of runs, then the
// repository runs before and after side by side:
// - repository: the draw's repository function in 1 and in 3 drawing processes on one database, today's
//   (draw_in_turn, one statement: decision 390) and the one before it (a transaction of five round trips
//   under the platform's lock), in the same run, then side by side;
// - HTTP: today's draw through the draw page's action with 50 keep-alive connections spread over 1 and over 3 server processes
//   sharing one database: draws/s, p99 latency, fairness spread, serves = log rows.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import nodePath from "node:path";
import readline from "node:readline";
import { closeDb, getDb, type DB } from "~db/client.server";
import { createDatabase, postgresAvailable, PG_BIN, startCluster } from "../tests/support/postgres";
import { BENCH_SLUG, drawTally, postDraw, prepareBenchDatabase } from "./bench-db";
import { startBuiltServer } from "./spawn-server.mjs";

const CONNECTIONS = 50;
const CALLERS_PER_PROCESS = 16;

async function fairness(db: DB) {
  const { spread, served, logged } = await drawTally(db);
  return { spread, "serves = log rows": served === logged ? `yes (${served})` : `NO (${served} vs ${logged})` };
}

const p99 = (latencies: number[]) => {
  const sorted = [...latencies].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? NaN;
};

/** Today's draw (draw_in_turn, one statement) or the one before decision 390 (five round trips under the lock). */
type DrawPath = "before" | "after";
const PATHS: Record<DrawPath, string> = {
  before: "before 390: transaction, 5 round trips under the lock",
  after: "after 390: draw_in_turn, 1 statement",
};

/** A line from a worker's stdout. */
function lineFrom(child: ChildProcess, what: (line: string) => boolean): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout! });
    lines.on("line", (line) => {
      if (!what(line)) return;
      lines.close();
      resolve(line);
    });
    child.once("exit", (code) => reject(new Error(`bench worker exited with ${code}`)));
  });
}

/**
 * `processes` drawing processes (scripts/bench-draw-worker.ts) on one database, each with
 * CALLERS_PER_PROCESS callers, all started at once after their warm-up: the draw's repository
 * function without HTTP, so that the two paths differ only in what they do on the database.
 */
async function processRun(root: string, url: string, codes: number, seconds: number, path: DrawPath, processes: number) {
  const { db, platformId } = await prepareBenchDatabase(url, codes);
  const workers = Array.from({ length: processes }, () =>
    spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        nodePath.join(root, "scripts", "bench-draw-worker.ts"),
        ...["--path", path, "--platform", String(platformId), "--callers", String(CALLERS_PER_PROCESS)],
        ...["--seconds", String(seconds)],
      ],
      { cwd: root, env: { ...process.env, DATABASE_URL: url }, stdio: ["pipe", "pipe", "inherit"] },
    ),
  );
  try {
    await Promise.all(workers.map((w) => lineFrom(w, (line) => line === "ready")));
    const results = workers.map((w) => lineFrom(w, (line) => line.startsWith("{")));
    for (const w of workers) w.stdin!.write("go\n");
    const ran = (await Promise.all(results)).map((line) => JSON.parse(line) as { draws: number; empty: number; p99: number });
    return {
      run: `repository, ${processes} process(es) × ${CALLERS_PER_PROCESS} callers, ${PATHS[path]}`,
      "draws/s": Math.round(ran.reduce((n, r) => n + r.draws, 0) / seconds),
      "p99 ms": Math.round(Math.max(...ran.map((r) => r.p99)) * 10) / 10,
      "no code found": ran.reduce((n, r) => n + r.empty, 0),
      ...(await fairness(db)),
    };
  } finally {
    for (const w of workers) if (w.exitCode === null) w.kill();
    await closeDb();
  }
}

async function httpRun(root: string, tmp: string, url: string, codes: number, seconds: number, processes: number) {
  await prepareBenchDatabase(url, codes);
  await closeDb();
  const servers = await Promise.all(Array.from({ length: processes }, () => startBuiltServer(url, tmp)));
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  try {
    const portOf = (i: number) => servers[i % processes]!.port;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async (_, i) => {
        for (let k = 0; k < 10; k++) await postDraw(agent, portOf(i), `/${BENCH_SLUG}/get-code`);
      }),
    );
    let draws = 0;
    let errors = 0;
    const latencies: number[] = [];
    const start = performance.now();
    const deadline = start + seconds * 1000;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async (_, i) => {
        while (performance.now() < deadline) {
          const t = performance.now();
          if ((await postDraw(agent, portOf(i), `/${BENCH_SLUG}/get-code`)) === 303) draws++;
          else errors++;
          latencies.push(performance.now() - t);
        }
      }),
    );
    const elapsed = (performance.now() - start) / 1000;
    await Promise.all(servers.map((s) => s.stop()));
    const db = getDb();
    const result = {
      run: `HTTP POST /${BENCH_SLUG}/get-code, ${CONNECTIONS} connections, ${processes} server process(es)`,
      "draws/s": Math.round(draws / elapsed),
      "p99 ms": Math.round(p99(latencies) * 10) / 10,
      errors,
      ...(await fairness(db)),
    };
    await closeDb();
    return result;
  } finally {
    agent.destroy();
    await Promise.all(servers.map((s) => s.stop()));
  }
}

export async function benchPostgres({ root, seconds, codes }: { root: string; seconds: number; codes: number }): Promise<void> {
  if (!postgresAvailable()) {
    console.log(`PostgreSQL bench SKIPPED: no server binaries in ${PG_BIN} (apt-get install postgresql-15, or set PG_BIN).`);
    return;
  }
  if (!fs.existsSync(nodePath.join(root, "build", "server.mjs"))) throw new Error("No build: run `npm run build` first.");
  const tmp = fs.mkdtempSync(nodePath.join(root, "tests", ".bench-pg-"));
  const cluster = startCluster({ durable: true });
  const saved = process.env.DATABASE_URL;
  try {
    const fresh = () => createDatabase(cluster.url("postgres"));
    const rows = [];
    const drawsPerSecond = new Map<string, number>();
    // Before and after in turn, so that the machine's load weighs on both alike.
    for (const processes of [1, 3])
      for (const drawPath of ["before", "after"] as const) {
        const row = await processRun(root, await fresh(), codes, seconds, drawPath, processes);
        drawsPerSecond.set(`${drawPath} ${processes}`, row["draws/s"]);
        rows.push(row);
      }
    for (const processes of [1, 3]) rows.push(await httpRun(root, tmp, await fresh(), codes, seconds, processes));
    console.log(
      `Draw on PostgreSQL 15 (durable defaults, unix socket), ${codes} codes, ${seconds} s per run, load average ${os.loadavg()[0]!.toFixed(1)} at the end`,
    );
    console.table(rows);
    console.log("Draws per second, before and after the single-statement draw (decision 390), from the rows above:");
    console.table(
      [1, 3].map((processes) => {
        const before = drawsPerSecond.get(`before ${processes}`)!;
        const after = drawsPerSecond.get(`after ${processes}`)!;
        return {
          "drawing processes": processes,
          [PATHS.before]: before,
          [PATHS.after]: after,
          "after / before": before > 0 ? Math.round((after / before) * 100) / 100 : "n/a",
        };
      }),
    );
  } finally {
    await closeDb();
    process.env.DATABASE_URL = saved;
    cluster.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
