/**
 * When a page is first painted and when its largest part is, measured in Chromium itself (not
 * Lighthouse's model): Debian's Chromium at 4x slower CPU and slow 4G (150 ms, 1.6 Mbit/s down),
 * no cache, a 412 px phone screen; this build against another build of Parrainly, alternating
 * load by load, medians. Decision 306: what holding the first paint for the page's content costs
 * and gives, beside `npm run lighthouse`, whose figures are simulated from a trace.
 *
 *   npm run build && node scripts/paint-times.mjs --baseline DIR [--only /,/tesla] [--runs 5]
 *
 * DIR is a checkout of another commit, built there (node_modules linked). Prints, never fails.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import { phonePage } from "./phone-page.mjs";
import { startBaselineServer, startBuiltServer } from "./spawn-server.mjs";

const arg = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const baselineDir = arg("--baseline");
if (!baselineDir) throw new Error("--baseline DIR: a built checkout of the commit to compare with");
const pages = arg("--only", "/,/tesla,/tesla/get-code,/submit").split(",");
const runs = Number(arg("--runs", "5"));

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "paint-times-"));
const servers = {
  now: await startBuiltServer(`file:${path.join(dir, "now.db")}`, dir, { SEED_DEMO: "1" }),
  before: await startBaselineServer(baselineDir, dir),
};
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});

/** One cold load: first contentful paint and largest contentful paint, ms from navigation. */
async function measure(port, pagePath) {
  const { page, cdp, close } = await phonePage(browser);
  try {
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 150,
      downloadThroughput: (1.6e6 / 8) * 0.9,
      uploadThroughput: (750e3 / 8) * 0.9,
    });
    await page.addInitScript(() => {
      window.__lcp = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) window.__lcp = entry.startTime;
      }).observe({ type: "largest-contentful-paint", buffered: true });
    });
    await page.goto(`http://localhost:${port}${pagePath}`, { waitUntil: "load" });
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    return await page.evaluate(() => ({
      fcp: performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? Number.NaN,
      lcp: window.__lcp,
    }));
  } finally {
    await close();
  }
}

const results = new Map();
try {
  for (let round = 0; round < runs; round++)
    for (const pagePath of pages) {
      // Alternating, and the order turns each round: neither build always gets the quieter moment.
      const order = round % 2 ? ["now", "before"] : ["before", "now"];
      for (const name of order) {
        const key = `${name === "before" ? "before: " : ""}${pagePath}`;
        results.set(key, [...(results.get(key) ?? []), await measure(servers[name].port, pagePath)]);
      }
    }
} finally {
  await browser.close();
  await servers.now.stop();
  await servers.before.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
const median = (values) => {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  return sorted.length ? Math.round(sorted[Math.floor(sorted.length / 2)]) : Number.NaN;
};
console.table(
  [...results].map(([page, list]) => ({
    page,
    "first paint ms": median(list.map((m) => m.fcp)),
    "largest paint ms": median(list.map((m) => m.lcp)),
    "first paints": list.map((m) => Math.round(m.fcp)).join(" "),
  })),
);
console.log(
  `Medians of ${runs} cold loads each, 4x slower CPU, slow 4G, alternating; load average ${os.loadavg()[0].toFixed(1)}.`,
);
