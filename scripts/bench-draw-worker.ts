// One drawing process of `npm run bench -- --only postgres` (scripts/bench-postgres.ts): draws from
// the platform `--platform` on DATABASE_URL with `--callers` concurrent callers, through today's
// draw (`--path after`: drawReferralCode, draw_in_turn) or the one before decision 390
// (`--path before`: drawInFiveRoundTripsForBench). It warms up, prints `ready`, waits for a line on
// stdin, draws for `--seconds`, then prints one JSON line: draws, no code found, p99 latency (ms).
import readline from "node:readline";
import { closeDb } from "~db/client.server";
import { drawInFiveRoundTripsForBench, drawReferralCode } from "~db/repositories/draw.server";

function option(name: string): string {
  const index = process.argv.indexOf(`--${name}`);
  const value = index >= 0 ? process.argv[index + 1] : undefined;
  if (value === undefined) {
    console.error(`--${name} is required`);
    process.exit(2);
  }
  return value;
}

const path = option("path");
if (path !== "before" && path !== "after") {
  console.error("--path takes before or after");
  process.exit(2);
}
const platformId = Number(option("platform"));
const callers = Number(option("callers"));
const seconds = Number(option("seconds"));
const draw = () => (path === "after" ? drawReferralCode(platformId) : drawInFiveRoundTripsForBench(platformId));

for (let i = 0; i < 20; i++) await draw(); // warm-up: connections, JIT, the compiled statements
console.log("ready");
await new Promise<void>((resolve) => readline.createInterface({ input: process.stdin }).once("line", () => resolve()));

let draws = 0;
let empty = 0;
const latencies: number[] = [];
const deadline = performance.now() + seconds * 1000;
await Promise.all(
  Array.from({ length: callers }, async () => {
    while (performance.now() < deadline) {
      const t = performance.now();
      if (await draw()) draws++;
      else empty++;
      latencies.push(performance.now() - t);
    }
  }),
);
latencies.sort((a, b) => a - b);
const p99 = latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))] ?? NaN;
console.log(JSON.stringify({ draws, empty, p99 }));
await closeDb();
process.exit(0);
