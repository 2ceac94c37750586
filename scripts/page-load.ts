// The load the pages bench (scripts/bench-pages.ts) puts on a server: keep-alive GETs from
// CONNECTIONS loops, each response's latency to its last byte, and the server's CPU time and memory
// read from /proc (Linux).
import fs from "node:fs";
import http from "node:http";

export const CONNECTIONS = 10;

export function get(agent: http.Agent | false, port: number, target: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: string }>((resolve) => {
    const req = http.get({ host: "127.0.0.1", port, path: target, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    req.on("error", () => resolve({ status: 0, body: "" }));
  });
}

/** CPU time (user + system) a process has used so far, in ms, from /proc (Linux). */
export function cpuMsOf(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) * (1000 / 100);
  } catch {
    return NaN;
  }
}

export function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024);
}

export const median = (xs: number[]) => {
  const s = [...xs].filter(Number.isFinite).sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)]! : NaN;
};

export interface Load {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** The server's CPU time per answered request (ms). */
  cpuMs: number;
}

/**
 * CONNECTIONS loops of keep-alive GETs for `seconds`; latency of each response to its last byte, and
 * the server's CPU time per request (`pid`).
 */
export async function load(
  port: number,
  target: string,
  seconds: number,
  pid: number,
  headers: Record<string, string> = {},
): Promise<Load> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const latencies: number[] = [];
  let errors = 0;
  const loop = async (until: number, record: boolean) => {
    while (performance.now() < until) {
      const t0 = performance.now();
      const { status } = await get(agent, port, target, headers);
      if (!record) continue;
      if (status === 200) latencies.push(performance.now() - t0);
      else errors++;
    }
  };
  // Warm-up: JIT, caches, sockets.
  const warm = performance.now() + Math.min(2, seconds / 3) * 1000;
  await Promise.all(Array.from({ length: CONNECTIONS }, () => loop(warm, false)));
  const cpuBefore = cpuMsOf(pid);
  const start = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, () => loop(start + seconds * 1000, true)));
  const elapsed = (performance.now() - start) / 1000;
  const cpuMs = (cpuMsOf(pid) - cpuBefore) / Math.max(1, latencies.length);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return { rps: latencies.length / elapsed, p50: at(0.5), p99: at(0.99), errors, cpuMs };
}

/** What the bench reports of several runs of one page on one app: medians, and the req/s range. */
export function summarizeLoads(list: Load[]) {
  return {
    rps: Math.round(median(list.map((l) => l.rps))),
    rpsRange: [Math.round(Math.min(...list.map((l) => l.rps))), Math.round(Math.max(...list.map((l) => l.rps)))],
    p50: Number(median(list.map((l) => l.p50)).toFixed(1)),
    p99: Number(median(list.map((l) => l.p99)).toFixed(1)),
    errors: list.reduce((a, l) => a + l.errors, 0),
    cpuMsPerRequest: Number(median(list.map((l) => l.cpuMs)).toFixed(2)),
  };
}
export type LoadSummary = ReturnType<typeof summarizeLoads>;
