// The draw on PostgreSQL, for `npm run bench` (--only postgres): a throwaway cluster with durable
// defaults (fsync on), loopback only (a unix socket), removed at the end. Two tables:
// - repository: drawReferralCode with 50 concurrent callers in this process;
// - HTTP: the draw page's action with 50 keep-alive connections spread over 1 and over 3 server processes
//   sharing one database: draws/s, p99 latency, fairness spread, serves = log rows.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { closeDb, getDb, type DB } from "~db/client.server";
import { drawReferralCode } from "~db/repositories/draw.server";
import { createDatabase, postgresAvailable, PG_BIN, startCluster } from "../tests/support/postgres";
import { BENCH_SLUG, drawTally, postDraw, prepareBenchDatabase } from "./bench-db";
import { startBuiltServer } from "./spawn-server.mjs";

const CONNECTIONS = 50;

async function fairness(db: DB) {
  const { spread, served, logged } = await drawTally(db);
  return { spread, "serves = log rows": served === logged ? `yes (${served})` : `NO (${served} vs ${logged})` };
}

const p99 = (latencies: number[]) => {
  const sorted = [...latencies].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? NaN;
};

async function repositoryRun(url: string, codes: number, seconds: number) {
  const { db, platformId } = await prepareBenchDatabase(url, codes);
  let draws = 0;
  let empty = 0;
  const latencies: number[] = [];
  const start = performance.now();
  const deadline = start + seconds * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < deadline) {
        const t = performance.now();
        if (await drawReferralCode(platformId)) draws++;
        else empty++;
        latencies.push(performance.now() - t);
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  const result = {
    run: `repository, ${CONNECTIONS} concurrent callers`,
    "draws/s": Math.round(draws / elapsed),
    "p99 ms": Math.round(p99(latencies) * 10) / 10,
    "no code found": empty,
    ...(await fairness(db)),
  };
  await closeDb();
  return result;
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
  if (!fs.existsSync(path.join(root, "build", "server.mjs"))) throw new Error("No build: run `npm run build` first.");
  const tmp = fs.mkdtempSync(path.join(root, "tests", ".bench-pg-"));
  const cluster = startCluster({ durable: true });
  const saved = process.env.DATABASE_URL;
  try {
    const fresh = () => createDatabase(cluster.url("postgres"));
    const rows = [];
    rows.push(await repositoryRun(await fresh(), codes, seconds));
    for (const processes of [1, 3]) rows.push(await httpRun(root, tmp, await fresh(), codes, seconds, processes));
    console.log(`Draw on PostgreSQL 15 (durable defaults, unix socket), ${codes} codes, ${seconds} s per run`);
    console.table(rows);
  } finally {
    await closeDb();
    process.env.DATABASE_URL = saved;
    cluster.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
