// More visitors than the server serves (decision 212): 120 and 400 concurrent visitors asking
// uncached pages, with admission control off (every request rendered as it comes: the behaviour
// before) and on (the defaults), same machine, same run. Prints one table; never fails on a number.
import os from "node:os";
import path from "node:path";
import { startFlags } from "./bench-pages";
import { overload } from "./overload";
import { BENCH_SECRET, startServer } from "./spawn-server.mjs";

const PATHS = ["/", "/holy", "/platforms", "/fairness", "/?lng=en", "/holy?lng=de"];

export async function benchOverload({ root, tmp, seconds }: { root: string; tmp: string; seconds: number }) {
  const rows: Array<Record<string, string | number>> = [];
  for (const connections of [120, 400]) {
    for (const admission of ["off", "on"] as const) {
      const server = await startServer([...startFlags(root), path.join(root, "build", "server.mjs")], root, {
        DATABASE_URL: `file:${path.join(tmp, `overload-${connections}-${admission}.db`)}`,
        UPLOADS_DIR: path.join(tmp, "uploads"),
        SESSION_SECRET: BENCH_SECRET,
        LOG_REQUESTS: "0",
        PAGE_CACHE_MS: "0",
        TRUST_PROXY: "1",
        ...(admission === "off" ? { ADMISSION_MAX_IN_FLIGHT: "0" } : {}),
      });
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
}
