// The pages bench's cold start (scripts/bench-pages.ts): spawn to the first 200 on `/`, a median of 3,
// for the image's command on a fresh database, for Parrainly with the bench's database existing, and
// for the stock Remix app beside them.
import path from "node:path";
import { BENCH_SECRET, spawnServer, stopChild } from "./spawn-server.mjs";
import { cpuMsOf, get, median } from "./page-load";

type Cold = { ms: number; cpuMs: number };
/** A command to start: node's arguments, the directory it runs in, its environment. */
type Command = { args: string[]; cwd: string; env: Record<string, string> };

/**
 * Spawn to the first 200 on `/`: wall time, and the CPU time the server used until then (which a
 * machine shared with other work changes much less than the wall time).
 */
async function coldStart(args: string[], cwd: string, env: Record<string, string>): Promise<Cold> {
  const start = performance.now();
  const { child, port } = spawnServer(args, cwd, env);
  const p = await port;
  while ((await get(false, p, "/")).status !== 200) await new Promise((r) => setTimeout(r, 5));
  const ms = performance.now() - start;
  const cpuMs = cpuMsOf(child.pid!);
  await stopChild(child);
  return { ms, cpuMs };
}

const coldSummary = (list: Cold[]) => ({
  ms: Math.round(median(list.map((c) => c.ms))),
  cpuMs: Math.round(median(list.map((c) => c.cpuMs))),
  runs: list.map((c) => Math.round(c.ms)),
});
export type ColdSummary = ReturnType<typeof coldSummary>;

/**
 * Cold starts, each a median of 3: the image's command (the start flags, NODE_ENV=production, no
 * demo data) on a fresh database each time, in `tmp` (migrations, base data: a new Fly machine's first
 * request), then `parrainly` (the bench's database existing), then `stock`, interleaved.
 */
export async function coldStarts(tmp: string, parrainly: Command, stock: Command) {
  const cold = { fresh: [] as Cold[], parrainly: [] as Cold[], stock: [] as Cold[] };
  for (let i = 0; i < 3; i++) {
    const fresh = path.join(tmp, `fresh-${i}`);
    cold.fresh.push(
      await coldStart(parrainly.args, parrainly.cwd, {
        NODE_ENV: "production",
        DATABASE_URL: `file:${path.join(fresh, "app.db")}`,
        SESSION_SECRET: BENCH_SECRET,
        UPLOADS_DIR: path.join(fresh, "uploads"),
      }),
    );
    cold.parrainly.push(await coldStart(parrainly.args, parrainly.cwd, parrainly.env));
    cold.stock.push(await coldStart(stock.args, stock.cwd, stock.env));
  }
  return {
    imageCommandFreshDatabase: coldSummary(cold.fresh),
    parrainlyExistingDatabase: coldSummary(cold.parrainly),
    stock: coldSummary(cold.stock),
  };
}
