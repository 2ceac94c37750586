/**
 * Where a page's main-thread time goes beside stock Remix's, by Chromium's own trace events (decision
 * 308): Lighthouse's trace categories leave much of a task unnamed ("RunTask"); this one records
 * Blink's and V8's own (style, text shaping, stylesheet parsing, resource requests, DOMContentLoaded
 * observers…). The built server with demo data and the stock app (scripts/stock-remix.mjs), loaded
 * in turn in Debian's Chromium at a phone's size, unthrottled: each event's own thread time (its
 * children's taken out), means over the rounds, the names furthest from stock's first.
 *
 *   npm run build && node scripts/trace-compare.mjs [--runs 5] [--page / | --page draw]
 *
 * `--page draw` measures a draw result (a code drawn on /tesla first). Figures of one run compare;
 * the machine's load moves them from one run to the next.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import { startBuiltServer, startServer } from "./spawn-server.mjs";
import { buildStock } from "./stock-remix.mjs";
import { ownTimeByName, pageThread } from "./trace-events.mjs";

const CATEGORIES = [
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "blink",
  "blink_style",
  "blink.resource",
  "loading",
  "navigation",
  "toplevel",
  "renderer.scheduler",
  "v8",
  "v8.execute",
  "disabled-by-default-v8.gc",
  "cc",
  "ipc",
  "mojom",
];

const arg = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : fallback;
};
const runs = Number(arg("--runs", "5"));

/** Each event's own thread time on the page's renderer main thread, in ms, and the tasks' total. */
function ownTimes(events) {
  const thread = pageThread(events, "ThreadControllerImpl::RunTask");
  return { total: thread ? thread.cpu / 1000 : NaN, byName: thread ? ownTimeByName(events, thread.key) : new Map() };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "trace-compare-"));
const ours = await startBuiltServer(`file:${path.join(dir, "parrainly.db")}`, dir, { SEED_DEMO: "1" });
const stockDir = path.join(dir, "stock");
fs.mkdirSync(stockDir);
buildStock(process.cwd(), stockDir);
const stock = await startServer(["server.mjs"], stockDir, { NODE_ENV: "production" });
let page = arg("--page", "/");
if (page === "draw") {
  const drawn = await fetch(`http://127.0.0.1:${ours.port}/tesla/get-code`, {
    method: "POST",
    body: "intent=draw",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    redirect: "manual",
  });
  const location = new URL(drawn.headers.get("location") ?? "/", "http://localhost");
  page = location.pathname + location.search;
}
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true });
const results = { ours: [], stock: [] };
try {
  for (let round = 0; round < runs; round++) {
    for (const [name, server, target] of [
      ["ours", ours, page],
      ["stock", stock, "/"],
    ]) {
      const tab = await context.newPage();
      await browser.startTracing(tab, { categories: CATEGORIES });
      await tab.goto(`http://localhost:${server.port}${target}`, { waitUntil: "load" });
      // What the page does once loaded counts too (hydration, idle work), as in Lighthouse's window.
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const trace = JSON.parse((await browser.stopTracing()).toString("utf8"));
      await tab.close();
      results[name].push(ownTimes(trace.traceEvents));
    }
  }
} finally {
  await browser.close();
  await ours.stop();
  await stock.stop();
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const mean = (list, key) => list.reduce((sum, r) => sum + (r.byName.get(key) ?? 0), 0) / list.length;
const totals = (list) => list.map((r) => r.total);
const [o, s] = [median(totals(results.ours)), median(totals(results.stock))];
console.log(
  `${page}: main-thread time ${o.toFixed(0)} ms against stock's ${s.toFixed(0)} ms (${(o / s).toFixed(2)}x), medians of ${runs}, unthrottled`,
);
console.log(
  `rounds: ours ${totals(results.ours)
    .map((t) => t.toFixed(0))
    .join(" ")}; stock ${totals(results.stock)
    .map((t) => t.toFixed(0))
    .join(" ")}`,
);
const names = new Set(
  results.ours.flatMap((r) => [...r.byName.keys()]).concat(results.stock.flatMap((r) => [...r.byName.keys()])),
);
const rows = [...names]
  .map((name) => ({ name, ours: mean(results.ours, name), stock: mean(results.stock, name) }))
  .sort((a, b) => Math.abs(b.ours - b.stock) - Math.abs(a.ours - a.stock))
  .slice(0, 25);
console.log("   ours  stock   diff  event (own thread time, ms, mean)");
for (const r of rows)
  console.log(
    `${r.ours.toFixed(1).padStart(7)}${r.stock.toFixed(1).padStart(7)}${(r.ours - r.stock).toFixed(1).padStart(7)}  ${r.name}`,
  );
