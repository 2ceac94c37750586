// `npm run bench -- --only scale`: the same build on the demo database and on the "years of success"
// data set (scripts/scale-data.ts, LARGE: built in a temporary SQLite file with raw better-sqlite3
// statements in one transaction), with the node flags of package.json's `start` (a 128 MB heap).
// Per page: median of 5 sequential requests on each database (page cache off), the HTML size and
// status on the large one; the draw POST the same way; the server's peak RSS. A server that dies is
// said so and started again for the next page. Prints a table; never fails on a number.
// Then the history job's whole first run on the large file and an hourly run after it, with the longest
// event-loop pause of each (decision 288); then one backup of the large file, the server's way
// (decision 283), beside the way before it (SQLite's
// backup API on the server's connection, integrity_check on its thread), in the same run: time, size,
// and the longest pause of this process's event loop (a timer every 5 ms).
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { backupDatabase, isIntact } from "~db/backup.server";
import { closeDb, getDb, getSqlite } from "~db/client.server";
import { migrateToLatest } from "~db/migrate.server";
import { pruneDraws, runHistoryJob, type WalkPosition } from "~db/repositories/history.server";
import { rollUpNextDay } from "~db/repositories/rollup.server";
import { seedBase } from "~db/seed.server";
import { resetEnvCache } from "~/utils/env.server";
import { startFlags } from "./bench-pages";
import { generateScaleData, LARGE } from "./scale-data";
import { sqliteSink } from "./scale-sinks";
import { BENCH_SECRET, startServer, type SpawnedServer } from "./spawn-server.mjs";

const ADMIN = { email: "bench@parrainly.test", password: "bench-admin-passphrase-24" };
const REQUESTS = 5;

const PUBLIC_PAGES = [
  "/",
  "/platforms",
  "/revolut",
  "/revolut/get-code",
  "/random",
  "/fairness",
  "/sitemap.xml",
  "/suggest-platform",
  "/partnerships",
  "/feeds/platforms.atom",
  "/game/leaderboard?device=desktop",
  "/api/platforms.json",
  "/llms.txt",
  "/platforms?q=rev",
];
const ADMIN_PAGES = [
  "/admin/assistant",
  "/admin/platforms",
  "/admin/codes",
  "/admin/codes?platform=revolut",
  "/admin/codes?q=X1",
  "/admin/codes?state=expired",
  "/admin/requests",
  "/admin/requests?platform=revolut",
  "/admin/deletions",
  "/admin/suggestions",
  "/admin/scores",
  "/admin/settings",
  "/admin/partnerships",
];
const DRAW = "/revolut/get-code";

interface Answer {
  status: number;
  bytes: number;
  ms: number;
}

function request(port: number, target: string, options: { method?: string; cookie?: string; body?: string } = {}) {
  return new Promise<Answer & { headers: http.IncomingHttpHeaders }>((resolve) => {
    const start = performance.now();
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        path: target,
        method: options.method ?? "GET",
        agent: false,
        timeout: 60_000,
        headers: {
          Accept: "text/html,application/xhtml+xml,*/*;q=0.8",
          ...(options.cookie ? { Cookie: options.cookie } : {}),
          ...(options.body !== undefined
            ? {
                "Content-Type": "application/x-www-form-urlencoded",
                "Content-Length": Buffer.byteLength(options.body),
                Origin: `http://127.0.0.1:${port}`,
              }
            : {}),
        },
      },
      (res) => {
        let bytes = 0;
        res.on("data", (c: Buffer) => (bytes += c.length));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, bytes, ms: performance.now() - start, headers: res.headers }));
      },
    );
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve({ status: 0, bytes: 0, ms: performance.now() - start, headers: {} }));
    req.end(options.body);
  });
}

function rssMb(pid: number): number {
  try {
    const line = fs
      .readFileSync(`/proc/${pid}/status`, "utf8")
      .split("\n")
      .find((l) => l.startsWith("VmRSS:"));
    return line ? Number(line.replace(/\D+/g, "")) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/** A server on `file` that is started again when a request kills it. */
class Target {
  server: SpawnedServer | null = null;
  cookie = "";
  peakRss = 0;
  deaths = 0;
  constructor(
    readonly root: string,
    readonly file: string,
    readonly env: Record<string, string>,
  ) {}

  async ensure(): Promise<SpawnedServer> {
    if (this.server && this.server.child.exitCode === null && this.server.child.signalCode === null) return this.server;
    if (this.server) this.deaths++;
    const entry = path.join(this.root, "build", "server.mjs");
    this.server = await startServer([...startFlags(this.root), entry], this.root, {
      NODE_ENV: "production",
      DATABASE_URL: `file:${this.file}`,
      SESSION_SECRET: BENCH_SECRET,
      UPLOADS_DIR: path.join(path.dirname(this.file), "uploads"),
      LOG_REQUESTS: "0",
      PAGE_CACHE_MS: "0",
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      ...this.env,
    });
    const body = new URLSearchParams({ email: ADMIN.email, password: ADMIN.password, redirectTo: "/admin" }).toString();
    const login = await request(this.server.port, "/admin/login", { method: "POST", body });
    const cookies = login.headers["set-cookie"] ?? [];
    this.cookie = cookies
      .map((c) => c.split(";")[0]!)
      .filter((c) => !c.startsWith("toast="))
      .join("; ");
    return this.server;
  }

  /** Median of REQUESTS sequential requests after one warm-up; "died" when the server did not survive. */
  async measure(target: string, options: { admin?: boolean; post?: boolean } = {}) {
    const server = await this.ensure();
    const send = () =>
      request(server.port, target, {
        cookie: options.admin ? this.cookie : undefined,
        ...(options.post ? { method: "POST", body: "intent=draw" } : {}),
      });
    const runs: Answer[] = [];
    await send();
    for (let i = 0; i < REQUESTS; i++) {
      runs.push(await send());
      this.peakRss = Math.max(this.peakRss, rssMb(server.pid) || 0);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    const died = server.child.exitCode !== null || server.child.signalCode !== null;
    const rss = died ? NaN : rssMb(server.pid);
    return { ms: median(runs.map((r) => r.ms)), bytes: runs.at(-1)!.bytes, status: runs.at(-1)!.status, died, rss };
  }

  async stop() {
    await this.server?.stop();
  }
}

/** Tables the generator fills: their secondary indexes are built once at the end (much faster than row by row). */
const FILLED = [
  "referral_codes",
  "random_requests",
  "code_reports",
  "deletion_requests",
  "platform_suggestions",
  "platform_suggestion_votes",
  "game_scores",
];

export async function buildLargeDatabase(file: string) {
  await closeDb();
  process.env.DATABASE_URL = `file:${file}`;
  resetEnvCache();
  const db = getDb();
  await migrateToLatest(db);
  await seedBase(db);
  const platforms = await db.selectFrom("platforms").select(["id", "slug"]).orderBy("id").execute();
  const sqlite = getSqlite();
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  // A throwaway file: no journal, no fsync, a big page cache while it is built.
  sqlite.pragma("journal_mode = OFF");
  sqlite.pragma("synchronous = OFF");
  sqlite.pragma("cache_size = -262144");
  const indexes = sqlite
    .prepare(
      `select name, sql from sqlite_master where type = 'index' and sql is not null and tbl_name in (${FILLED.map(() => "?").join(", ")})`,
    )
    .all(...FILLED) as Array<{ name: string; sql: string }>;
  for (const index of indexes) sqlite.exec(`drop index ${index.name}`);
  sqlite.exec("begin");
  await generateScaleData(
    sqliteSink(sqlite),
    { platforms, maxIds: { platforms: Math.max(...platforms.map((p) => p.id)) } },
    LARGE,
  );
  sqlite.exec("commit");
  for (const index of indexes) sqlite.exec(index.sql);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = NORMAL");
  const generated = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  // Wall time depends on what else the machine runs; CPU time tells what a free core would take.
  const generatedCpu = (cpu.user + cpu.system) / 1e6;
  // The roll-up of the whole history (what the first run of the job does after an upgrade).
  const rollUp = performance.now();
  let days = 0;
  while ((await rollUpNextDay(new Date(), db)) !== "done") days++;
  const rollUpSeconds = (performance.now() - rollUp) / 1000;
  // The removals are timed on a sample, and the pages measured on the full tables (the worst case).
  const prune = performance.now();
  let pruned = 0;
  let after: WalkPosition | null = null;
  for (let i = 0; i < PRUNE_SAMPLE_BATCHES; i++) {
    const step: Awaited<ReturnType<typeof pruneDraws>> = await pruneDraws(new Date(), 2000, after, db);
    pruned += step?.removed ?? 0;
    after = step?.next ?? null;
  }
  const pruneSeconds = (performance.now() - prune) / 1000;
  await closeDb();
  return { generated, generatedCpu, days, rollUpSeconds, pruned, pruneSeconds };
}

const PRUNE_SAMPLE_BATCHES = 10;

/** The longest the event loop went without turning, from now until the returned function is called. */
function pauseProbe(): () => number {
  let longest = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 5);
  return () => {
    clearInterval(timer);
    return Math.max(longest, performance.now() - last);
  };
}

/**
 * The history job on the large file as the server runs it (decision 288): its first run after an
 * upgrade (two years of raw rows to roll up and remove), then an hourly run with little left to do;
 * each with the longest pause of this process's event loop.
 */
async function benchHistoryJob(file: string): Promise<void> {
  process.env.DATABASE_URL = `file:${file}`;
  resetEnvCache();
  const db = getDb();
  try {
    for (const label of ["first run after an upgrade", "next hourly run"]) {
      const stop = pauseProbe();
      const started = performance.now();
      const r = await runHistoryJob({ db });
      const pause = stop();
      console.log(
        `History job, ${label}: ${((performance.now() - started) / 1000).toFixed(1)} s, longest event-loop pause ${pause.toFixed(0)} ms ` +
          `(${r.daysRolledUp} days rolled up; removed ${r.draws.toLocaleString("en")} draws, ${r.answers.toLocaleString("en")} answers, ` +
          `${r.scores.toLocaleString("en")} scores, ${r.votes.toLocaleString("en")} votes).`,
      );
    }
  } finally {
    await closeDb();
  }
}

async function benchBackup(file: string, tmp: string): Promise<void> {
  const sqlite = new SQLite(file);
  const mb = (bytes: number) => `${(bytes / 1e6).toFixed(0)} MB`;
  try {
    const pages = sqlite.pragma("page_count", { simple: true }) as number;
    const free = sqlite.pragma("freelist_count", { simple: true }) as number;
    const oldFile = path.join(tmp, "backup-api.db");
    let stop = pauseProbe();
    let started = performance.now();
    await sqlite.backup(oldFile);
    const oldIntact = isIntact(oldFile);
    const old = { ms: performance.now() - started, pause: stop(), bytes: fs.statSync(oldFile).size };
    fs.rmSync(oldFile, { force: true });
    stop = pauseProbe();
    started = performance.now();
    const r = await backupDatabase(sqlite, { dir: path.join(tmp, "backups"), keep: 1 });
    const now = { ms: performance.now() - started, pause: stop() };
    console.log(
      `Backup of the large file (${mb(fs.statSync(file).size)}, ${((free / pages) * 100).toFixed(0)}% of its pages free): ` +
        `before (backup API, then integrity_check on the server's thread): ${(old.ms / 1000).toFixed(1)} s, ${mb(old.bytes)}, ` +
        `integrity ${oldIntact ? "ok" : "FAILED"}, longest event-loop pause ${old.pause.toFixed(0)} ms; ` +
        (r.kind === "done"
          ? `now (VACUUM INTO and the check in a worker): ${(now.ms / 1000).toFixed(1)} s, ${mb(r.bytes)}, longest pause ${now.pause.toFixed(0)} ms.`
          : r.kind === "skipped"
            ? `now: skipped, ${mb(r.needed)} needed and ${mb(r.room)} to spare on this disk.`
            : "now: stopped."),
    );
  } finally {
    sqlite.close();
  }
}

export async function benchScale(root: string): Promise<void> {
  if (!fs.existsSync(path.join(root, "build", "server.mjs"))) throw new Error("No build: run `npm run build` first.");
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "parrainly-scale-"));
  try {
    console.log(
      `Scale benchmark: ${os.cpus().length} CPU(s), load average ${os.loadavg()[0]!.toFixed(1)}, Node ${process.version}`,
    );
    const largeFile = path.join(tmp, "large.db");
    const built = await buildLargeDatabase(largeFile);
    const mb = fs.statSync(largeFile).size / 1e6;
    console.log(
      `Large data set: ${LARGE.platforms} platforms, ${LARGE.codes.toLocaleString("en")} codes (${LARGE.revolutCodes.toLocaleString("en")} on Revolut), ` +
        `${LARGE.draws.toLocaleString("en")} draws, ${LARGE.answers.toLocaleString("en")} answers, ${LARGE.deletions.toLocaleString("en")} deletion requests, ` +
        `${LARGE.suggestions.toLocaleString("en")} suggestions, ${LARGE.votes.toLocaleString("en")} votes, ${LARGE.scores.toLocaleString("en")} scores ` +
        `over ${LARGE.days} days: generated in ${built.generated.toFixed(1)} s (${built.generatedCpu.toFixed(1)} s of CPU; ${mb.toFixed(0)} MB).`,
    );
    console.log(
      `History job on it: ${built.days} days rolled up in ${built.rollUpSeconds.toFixed(1)} s; removing old draws: ` +
        `${built.pruned.toLocaleString("en")} in ${built.pruneSeconds.toFixed(1)} s (${PRUNE_SAMPLE_BATCHES} batches of 2,000; the pages below still see the full tables).`,
    );
    const demo = new Target(root, path.join(tmp, "demo.db"), { SEED_DEMO: "1" });
    const large = new Target(root, largeFile, {});
    const rows: Array<Record<string, string | number>> = [];
    const measureBoth = async (label: string, target: string, options: { admin?: boolean; post?: boolean } = {}) => {
      const d = await demo.measure(target, options);
      const l = await large.measure(target, options);
      rows.push({
        page: label,
        "demo ms": d.died ? "died" : Math.round(d.ms * 10) / 10,
        "large ms": l.died ? "DIED" : Math.round(l.ms * 10) / 10,
        "x demo": l.died ? "-" : Math.round((l.ms / d.ms) * 10) / 10,
        "large HTML KB": Math.round(l.bytes / 102.4) / 10,
        status: l.died ? "died" : l.status,
        "large RSS MB": Number.isFinite(l.rss) ? Math.round(l.rss) : "-",
      });
    };
    for (const page of PUBLIC_PAGES) await measureBoth(page, page);
    await measureBoth(`POST ${DRAW}`, DRAW, { post: true });
    for (const page of ADMIN_PAGES) await measureBoth(page, page, { admin: true });
    console.table(rows);
    console.log(
      `Peak RSS (VmRSS, sampled after each request): demo ${demo.peakRss.toFixed(0)} MB, large ${large.peakRss.toFixed(0)} MB; ` +
        `restarts after a crash: demo ${demo.deaths}, large ${large.deaths + (large.server?.child.exitCode !== null ? 1 : 0)}.`,
    );
    await demo.stop();
    await large.stop();
    await benchHistoryJob(largeFile);
    await benchBackup(largeFile, tmp);
  } finally {
    await closeDb();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
