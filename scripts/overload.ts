// More visitors than the server serves: `connections` visitors each asking uncached pages one after
// the other over a keep-alive connection (each from its own address behind the proxy), for
// `seconds` (scripts/overload-visitors.mjs, a process of its own), while /healthz is polled on
// fresh connections and the server's RSS is sampled. Shared
// by the reliability suite (tests/reliability/overload.test.ts) and `npm run bench` (bench-overload.ts).
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";

export interface OverloadOptions {
  port: number;
  /** The server's pid, for its RSS (Linux /proc); 0 skips the sampling. */
  pid: number;
  connections: number;
  seconds: number;
  /** Pages asked in turn (uncached: the tests run with PAGE_CACHE_MS=0). */
  paths: string[];
  /** Mixed load: every `every`-th request of a visitor is a draw posted to `path`, then its result page. */
  draws?: { path: string; every: number };
}

/** How a run's requests were answered, and how fast: the figures pages and draws share. */
interface Answered {
  /** 503 answers, and how many of them carried Retry-After. */
  refused: number;
  refusedWithRetryAfter: number;
  /** Anything else: another status, a reset connection. */
  other: number;
  /** No answer within ANSWER_LIMIT_MS. */
  unanswered: number;
  p50Ms: number;
  p99Ms: number;
}

export interface DrawFigures extends Answered {
  sent: number;
  /** 303 to a signed result page: the draw is stored and the visitor has its address. */
  acknowledged: number;
  /** The result pages those 303s named (`...?draw=<id>.<signature>`), to be checked against the database. */
  acknowledgedLocations: string[];
  /** Result pages shown (200), at the first ask or after a Retry-After. */
  resultShown: number;
  /** Result pages asked again after a 503. */
  resultRetried: number;
}

export interface OverloadFigures extends Answered {
  connections: number;
  sent: number;
  ok: number;
  healthPolls: number;
  healthWithin1s: number;
  peakRssMb: number;
  /** With `draws` only. */
  draws?: DrawFigures;
}

const HEALTH_EVERY_MS = 250;
const VISITORS = path.join(path.dirname(fileURLToPath(import.meta.url)), "overload-visitors.mjs");

type Answer = { status: number; retryAfter: boolean; ms: number } | "unanswered" | "failed";

function ask(agent: false, port: number, target: string, headers: Record<string, string>, limitMs: number): Promise<Answer> {
  return new Promise((resolve) => {
    const started = performance.now();
    const req = http.get({ agent, host: "127.0.0.1", port, path: target, headers }, (res) => {
      res.resume();
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          retryAfter: res.headers["retry-after"] !== undefined,
          ms: performance.now() - started,
        }),
      );
      res.on("error", () => resolve("failed"));
    });
    req.setTimeout(limitMs, () => {
      resolve("unanswered");
      req.destroy();
    });
    req.on("error", () => resolve("failed"));
  });
}

function rssMb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]! : 0;

interface VisitorCounts {
  times: number[];
  statuses: Record<string, number>;
  refusedWithRetryAfter: number;
  unanswered: number;
  failed: number;
}

export async function overload({ port, pid, connections, seconds, paths, draws }: OverloadOptions): Promise<OverloadFigures> {
  let peakRss = pid ? rssMb(pid) : 0;
  const health: number[] = [];
  let loading = true;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, pid ? rssMb(pid) : 0)), 200);
  const poller = (async () => {
    while (loading) {
      const answer = await ask(false, port, "/healthz", {}, 5_000);
      health.push(typeof answer === "object" && answer.status === 200 ? answer.ms : Infinity);
      await new Promise((resolve) => setTimeout(resolve, HEALTH_EVERY_MS));
    }
  })();
  const child = spawn(process.execPath, [VISITORS, String(port), String(connections), String(seconds), ...paths], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, DRAW_PATH: draws?.path ?? "", DRAW_EVERY: String(draws?.every ?? 0) },
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  await new Promise((resolve) => child.once("exit", resolve));
  loading = false;
  await poller;
  clearInterval(sampler);

  const visitors = JSON.parse(output) as VisitorCounts & {
    draws: VisitorCounts & { acknowledged: string[]; resultShown: number; resultRetried: number };
  };
  const times = visitors.times.sort((a, b) => a - b);
  const count = (status: number) => visitors.statuses[status] ?? 0;
  const answered = times.length;
  const drawTimes = visitors.draws.times.sort((a, b) => a - b);
  const drawCount = (status: number) => visitors.draws.statuses[status] ?? 0;
  return {
    connections,
    sent: answered + visitors.unanswered + visitors.failed,
    ok: count(200),
    refused: count(503),
    refusedWithRetryAfter: visitors.refusedWithRetryAfter,
    other: answered - count(200) - count(503) + visitors.failed,
    unanswered: visitors.unanswered,
    p50Ms: Math.round(percentile(times, 0.5)),
    p99Ms: Math.round(percentile(times, 0.99)),
    healthPolls: health.length,
    healthWithin1s: health.filter((ms) => ms <= 1_000).length,
    peakRssMb: Math.round(peakRss),
    ...(draws
      ? {
          draws: {
            sent: drawTimes.length + visitors.draws.unanswered + visitors.draws.failed,
            acknowledged: visitors.draws.acknowledged.length,
            acknowledgedLocations: visitors.draws.acknowledged,
            refused: drawCount(503),
            refusedWithRetryAfter: visitors.draws.refusedWithRetryAfter,
            other: drawTimes.length - visitors.draws.acknowledged.length - drawCount(503) + visitors.draws.failed,
            unanswered: visitors.draws.unanswered,
            p50Ms: Math.round(percentile(drawTimes, 0.5)),
            p99Ms: Math.round(percentile(drawTimes, 0.99)),
            resultShown: visitors.draws.resultShown,
            resultRetried: visitors.draws.resultRetried,
          },
        }
      : {}),
  };
}
