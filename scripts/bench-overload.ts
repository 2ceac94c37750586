// More visitors than the server serves (decision 212): 120 and 400 concurrent visitors asking
// uncached pages, with admission control off (every request rendered as it comes: the behaviour
// before) and on (the defaults), same machine, same run; then the mixed load of issue 30 (200
// visitors for 60 s, every fifth request a draw followed by its result page), off and on, with each
// acknowledged draw checked against the database. Prints two tables; never fails on a number.
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { startFlags } from "./bench-pages";
import { overload } from "./overload";
import { BENCH_SECRET, startServer } from "./spawn-server.mjs";

const PATHS = ["/", "/holy", "/platforms", "/fairness", "/?lng=en", "/holy?lng=de"];
const MIXED_CONNECTIONS = 200;
const MIXED_SECONDS = 60;
const MIXED_PLATFORM = "holy";

type Admission = "off" | "on";

function serverEnv(tmp: string, name: string, admission: Admission) {
  return {
    DATABASE_URL: `file:${path.join(tmp, `${name}.db`)}`,
    UPLOADS_DIR: path.join(tmp, "uploads"),
    SESSION_SECRET: BENCH_SECRET,
    LOG_REQUESTS: "0",
    PAGE_CACHE_MS: "0",
    TRUST_PROXY: "1",
    ...(admission === "off" ? { ADMISSION_MAX_IN_FLIGHT: "0" } : {}),
  };
}

/** Codes to draw on the mixed load's platform (enough that none is at its monthly cap); its id. */
function insertCodes(file: string, count: number): number {
  const db = new SQLite(file);
  try {
    db.pragma("busy_timeout = 5000");
    const { id } = db.prepare("SELECT id FROM platforms WHERE slug = ?").get(MIXED_PLATFORM) as { id: number };
    const insert = db.prepare("INSERT INTO referral_codes (platform_id, code, created_at) VALUES (?, ?, ?)");
    db.transaction(() => {
      for (let i = 0; i < count; i++) insert.run(id, `BENCHMIX${i}`, new Date().toISOString());
    })();
    return id;
  } finally {
    db.close();
  }
}

function drawLog(file: string, platformId: number): number[] {
  const db = new SQLite(file, { readonly: true });
  try {
    return (db.prepare("SELECT id FROM random_requests WHERE platform_id = ?").all(platformId) as Array<{ id: number }>).map(
      (r) => r.id,
    );
  } finally {
    db.close();
  }
}

export async function benchOverload({ root, tmp, seconds }: { root: string; tmp: string; seconds: number }) {
  const entry = [...startFlags(root), path.join(root, "build", "server.mjs")];
  const rows: Array<Record<string, string | number>> = [];
  for (const connections of [120, 400]) {
    for (const admission of ["off", "on"] as const) {
      const server = await startServer(entry, root, serverEnv(tmp, `overload-${connections}-${admission}`, admission));
      try {
        const f = await overload({ port: server.port, pid: server.pid, connections, seconds, paths: PATHS });
        rows.push({
          visitors: connections,
          admission,
          sent: f.sent,
          "answered 200": f.ok,
          "503 (with Retry-After)": `${f.refused} (${f.refusedWithRetryAfter})`,
          "unanswered in 10 s": f.unanswered,
          other: f.other,
          "p50 ms": f.p50Ms,
          "p99 ms": f.p99Ms,
          "/healthz within 1 s": `${f.healthWithin1s}/${f.healthPolls}`,
          "peak RSS MB": f.peakRssMb,
        });
      } finally {
        await server.stop();
      }
    }
  }
  console.log(
    `\nOverload: uncached pages, ${seconds} s per run, ${os.cpus().length} CPU(s), load average ${os.loadavg()[0]!.toFixed(1)} (a shared machine: compare rows of the same run only)`,
  );
  console.table(rows);

  const mixed: Array<Record<string, string | number>> = [];
  for (const admission of ["off", "on"] as const) {
    const env = serverEnv(tmp, `mixed-${admission}`, admission);
    const file = env.DATABASE_URL.slice("file:".length);
    const server = await startServer(entry, root, env);
    try {
      const platformId = insertCodes(file, 500);
      const before = drawLog(file, platformId).length;
      const f = await overload({
        port: server.port,
        pid: server.pid,
        connections: MIXED_CONNECTIONS,
        seconds: MIXED_SECONDS,
        paths: PATHS,
        draws: { path: `/${MIXED_PLATFORM}/get-code`, every: 5 },
      });
      const d = f.draws!;
      const stored = drawLog(file, platformId);
      const storedIds = new Set(stored);
      const acknowledged = d.acknowledgedLocations.map((location) => Number(/[?&]draw=(\d+)\./.exec(location)?.[1]));
      mixed.push({
        admission,
        "pages 200 / 503 / unanswered / other": `${f.ok} / ${f.refused} / ${f.unanswered} / ${f.other}`,
        "pages p50 / p99 ms": `${f.p50Ms} / ${f.p99Ms}`,
        "draws 303 / 503 / unanswered / other": `${d.acknowledged} / ${d.refused} / ${d.unanswered} / ${d.other}`,
        "draws p99 ms": d.p99Ms,
        "acknowledged not stored": acknowledged.filter((id) => !storedIds.has(id)).length,
        "stored, answer not received": stored.length - before - acknowledged.length,
        "results shown (asked again)": `${d.resultShown}/${d.acknowledged} (${d.resultRetried})`,
        "/healthz within 1 s": `${f.healthWithin1s}/${f.healthPolls}`,
        "peak RSS MB": f.peakRssMb,
      });
    } finally {
      await server.stop();
    }
  }
  console.log(
    `\nMixed load: ${MIXED_CONNECTIONS} visitors, ${MIXED_SECONDS} s, every fifth request a draw then its result page, load average ${os.loadavg()[0]!.toFixed(1)}`,
  );
  console.table(mixed);
}
