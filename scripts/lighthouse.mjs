/**
 * Lighthouse (mobile settings, Debian's Chromium) on the built server with a fresh demo database:
 * prints performance, accessibility, best practices and SEO for the home page, a platform page, its
 * draw page, /submit and a draw result (a code drawn on /tesla just before the runs). Goal: ≥ 98 performance and 100 for the rest. Prints, never fails on a score.
 *
 *   npm run build && npm run lighthouse            # or: npm run lighthouse -- --only /submit,/tesla
 *   npm run lighthouse -- --stock                  # beside a stock Remix app, medians of 3 runs
 *
 * `--baseline DIR` also measures another build of Parrainly (a checkout of an earlier commit in DIR,
 * built there, node_modules linked), interleaved with this one: its rows are named "before: …". On a
 * loaded machine only figures from the same run compare.
 *
 * `--stock` builds a stock Remix 2.17.5 app (scripts/stock-remix.mjs: the template's Express server,
 * a list page of about the same size) in a temporary directory, serves it through the same proxy,
 * and measures its home page in each round, interleaved with ours. `--runs N` sets the rounds (3
 * with --stock, else 1); the table gives medians: score, total blocking time, first paint, LCP, and
 * the main-thread work with its script-evaluation and style-and-layout parts, plus the longest task.
 * "main-thread CPU" is the same tasks' thread time (times the 4x slowdown, from Lighthouse's own
 * trace): Lighthouse's "main thread" adds wall durations, which on a loaded machine include the time
 * a task waited for a core; thread time is the steadier figure for comparing two builds.
 * "CPU ratio by round" is the range of each round's ratio to the stock page of the same round: the
 * table's ratios are medians over medians, and the range says how far a single round can land.
 *
 * In production Fly's edge proxy compresses responses the app sends uncompressed (HTML; the build's
 * assets are precompressed already). The pages are measured as visitors get them: through a small
 * local proxy that does the same (gzip when the browser accepts it, for text without a
 * Content-Encoding). `--direct` measures the server alone.
 *
 * `--breakdown` prints, for each page, its main-thread CPU by trace event beside stock's (the names
 * furthest apart first); `--trace DIR` keeps each run's trace (open it in Chromium's performance
 * panel, or read it as JSON) for a closer look (decision 272).
 *
 * `--without sky,js` also measures each page with a part of it cut (rows "PAGE without sky"), interleaved
 * in the same rounds: `sky` blocks the constellation's chunk (the home page's idle-loaded game),
 * `js` blocks every script (the server's HTML and CSS alone, as without JavaScript; with `--stock`,
 * stock's page too), `manifest` the web manifest (stock's page has none: what the browser does
 * for it, decision 305). Where the difference to stock lies, measured beside it: what the render
 * costs, what the scripts add.
 *
 * Plain JavaScript on purpose: tsx's transform adds helpers (`__name`) to functions that Lighthouse
 * serialises and runs inside the page, where they do not exist.
 */
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { startBaselineServer, startBuiltServer, startServer } from "./spawn-server.mjs";
import { buildStock } from "./stock-remix.mjs";
import { ownTimeByName, pageThread } from "./trace-events.mjs";

const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"];
const DEFAULT_PATHS = ["/", "/tesla", "/tesla/get-code", "/submit"];
/** What `--without` can cut from our pages: Lighthouse's blocked URL patterns (requests that fail at once). */
const PARTS = { sky: ["*/assets/constellation-game-*"], js: ["*/assets/*.js"], manifest: ["*/site.webmanifest"] };
/** Stands for "a draw result" in the list: a code is drawn once before the runs, and its page measured. */
const DRAW_RESULT = "draw result";

/** Draws a code on /tesla as a visitor's form does without JavaScript; resolves the result page's path. */
function drawResultPath(port) {
  return new Promise((resolve, reject) => {
    const body = "intent=draw";
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        method: "POST",
        path: "/tesla/get-code",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "content-length": Buffer.byteLength(body),
        },
      },
      (res) => {
        res.resume();
        const location = res.headers.location;
        if (res.statusCode === 303 && location)
          resolve(new URL(location, "http://localhost").pathname + new URL(location, "http://localhost").search);
        else reject(new Error(`the draw answered ${res.statusCode}`));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

function argValue(name) {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

/** A compressing reverse proxy in front of `port`, as Fly's edge is in front of the VM. */
function startCompressingProxy(port) {
  const proxy = http.createServer((req, res) => {
    const upstream = http.request(
      { host: "127.0.0.1", port, method: req.method, path: req.url, headers: { ...req.headers, "accept-encoding": "identity" } },
      (up) => {
        const type = String(up.headers["content-type"] ?? "");
        const accepts = /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""));
        const compressible = /^(text\/|application\/(json|javascript|xml))/.test(type) && !up.headers["content-encoding"];
        if (!accepts || !compressible) {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
          return;
        }
        const headers = {
          ...up.headers,
          "content-encoding": "gzip",
          vary: [up.headers.vary, "Accept-Encoding"].filter(Boolean).join(", "),
        };
        delete headers["content-length"];
        res.writeHead(up.statusCode ?? 502, headers);
        up.pipe(zlib.createGzip()).pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  return new Promise((resolve) => proxy.listen(0, "127.0.0.1", () => resolve(proxy)));
}

const median = (xs) => {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN;
};

/**
 * The page's main-thread CPU in Lighthouse's own trace: the thread time (`tdur`) of the renderer main
 * thread's tasks, in ms, times Lighthouse's CPU slowdown (4). Lighthouse's "main thread" figure adds
 * up the tasks' wall durations instead; on a small shared machine a task also waits there for a core
 * (the server, the proxy and Chromium's other processes run beside it), and that wait is most of the
 * spread between rounds. Thread time counts only the work.
 */
function mainThreadCpu(artifacts, lhr) {
  const page = pageThread(artifacts?.Trace?.traceEvents ?? []);
  const slowdown = lhr?.configSettings?.throttling?.cpuSlowdownMultiplier ?? 4;
  return page ? (page.cpu / 1000) * slowdown : NaN;
}

/**
 * Where the page's main-thread CPU goes (`--breakdown`): the renderer main thread's trace events
 * by name, each counted for its own thread time (its children's taken out), in ms times the CPU
 * slowdown, as `mainThreadCpu` counts them. "RunTask" is what a task did outside any named event.
 */
function threadBreakdown(artifacts, lhr) {
  const events = artifacts?.Trace?.traceEvents ?? [];
  const thread = pageThread(events)?.key;
  const slowdown = lhr?.configSettings?.throttling?.cpuSlowdownMultiplier ?? 4;
  const own = new Map();
  if (!thread) return own;
  for (const [name, ms] of ownTimeByName(events, thread)) own.set(name, ms * slowdown);
  return own;
}

/** The figures of one report. */
function figures(lhr, artifacts) {
  const numeric = (id) => lhr?.audits[id]?.numericValue ?? NaN;
  const breakdown = lhr?.audits["mainthread-work-breakdown"]?.details?.items ?? [];
  const group = (name) => breakdown.find((item) => item.group === name)?.duration ?? 0;
  const tasks = (lhr?.audits["long-tasks"]?.details?.items ?? []).map((t) => t.duration).sort((a, b) => b - a);
  const scores = {};
  for (const category of CATEGORIES) scores[category] = lhr?.categories[category]?.score ?? NaN;
  return {
    scores,
    tbt: numeric("total-blocking-time"),
    fcp: numeric("first-contentful-paint"),
    lcp: numeric("largest-contentful-paint"),
    mainThread: numeric("mainthread-work-breakdown"),
    mainThreadCpu: mainThreadCpu(artifacts, lhr),
    script: group("scriptEvaluation"),
    styleLayout: group("styleLayout"),
    longTasks: tasks,
    breakdown: process.argv.includes("--breakdown") ? threadBreakdown(artifacts, lhr) : undefined,
    lcpError: lhr?.audits["largest-contentful-paint"]?.errorMessage,
  };
}

async function main() {
  const only = argValue("--only");
  const withStock = process.argv.includes("--stock");
  const runs = Number(argValue("--runs") ?? (withStock ? 3 : 1));
  const traceDir = argValue("--trace");
  const without = (argValue("--without") ?? "").split(",").filter(Boolean);
  const unknown = without.filter((part) => !(part in PARTS));
  if (unknown.length) throw new Error(`--without takes ${Object.keys(PARTS).join(", ")}; not ${unknown.join(", ")}`);
  if (traceDir) fs.mkdirSync(traceDir, { recursive: true });
  // --only takes one path or several, comma-separated ("draw result" names the drawn code's page).
  const paths = only ? only.split(",").map((p) => p.trim()) : [...DEFAULT_PATHS, DRAW_RESULT];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "parrainly-lighthouse-"));
  const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
  const stoppers = [];
  let chrome;
  /** @type {Map<string, ReturnType<typeof figures>[]>} */
  const results = new Map();
  try {
    const server = await startBuiltServer(`file:${path.join(dir, "lighthouse.db")}`, dir, { SEED_DEMO: "1" });
    stoppers.push(() => server.stop());
    const direct = process.argv.includes("--direct");
    const targets = [];
    const base = async (port) => {
      if (direct) return `http://localhost:${port}`;
      const proxy = await startCompressingProxy(port);
      stoppers.push(() => proxy.close());
      return `http://localhost:${proxy.address().port}`;
    };
    const ours = await base(server.port);
    if (withStock) {
      const stockDir = path.join(dir, "stock");
      buildStock(root, stockDir);
      const stock = await startServer(["server.mjs"], stockDir, { NODE_ENV: "production" });
      stoppers.push(() => stock.stop());
      const stockUrl = `${await base(stock.port)}/`;
      targets.push({ name: "stock Remix /", url: stockUrl });
      // Stock's own render without its scripts, to set beside ours (stock has no sky).
      if (without.includes("js")) targets.push({ name: "stock Remix / without js", url: stockUrl, blocked: PARTS.js });
    }
    const baselineDir = argValue("--baseline");
    let before;
    if (baselineDir) {
      const baseline = await startBaselineServer(baselineDir, dir);
      stoppers.push(() => baseline.stop());
      before = { port: baseline.port, url: await base(baseline.port) };
    }
    for (const pagePath of paths) {
      const at = pagePath === DRAW_RESULT ? await drawResultPath(server.port) : pagePath;
      targets.push({ name: pagePath, url: `${ours}${at}` });
      for (const part of without)
        targets.push({ name: `${pagePath} without ${part}`, url: `${ours}${at}`, blocked: PARTS[part] });
      if (before) {
        const then = pagePath === DRAW_RESULT ? await drawResultPath(before.port) : pagePath;
        targets.push({ name: `before: ${pagePath}`, url: `${before.url}${then}` });
      }
    }
    console.log(direct ? "The servers alone" : "Through a compressing proxy, as behind Fly's edge (--direct: the server alone)");
    chrome = await chromeLauncher.launch({
      chromePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
    });
    for (let round = 0; round < runs; round++) {
      // Interleaved, and the order turns each round, so no page always gets the quieter moment.
      const order = targets.map((_, i) => targets[(i + round) % targets.length]);
      for (const target of order) {
        // Default config: mobile form factor, simulated slow 4G and a 4x slower CPU.
        const result = await lighthouse(target.url, {
          port: chrome.port,
          output: "json",
          logLevel: "error",
          onlyCategories: [...CATEGORIES],
          ...(target.blocked ? { blockedUrlPatterns: target.blocked } : {}),
        });
        const lhr = result?.lhr;
        if (process.env.LH_DUMP)
          fs.writeFileSync(
            `${process.env.LH_DUMP}${target.name.replace(/[^a-z0-9]+/gi, "_")}-${round}.json`,
            JSON.stringify(lhr),
          );
        if (traceDir)
          fs.writeFileSync(
            path.join(traceDir, `${target.name.replace(/[^a-z0-9]+/gi, "_")}-${round}.trace.json`),
            JSON.stringify(result?.artifacts?.Trace?.traceEvents ?? []),
          );
        const f = figures(lhr, result?.artifacts);
        results.set(target.name, [...(results.get(target.name) ?? []), f]);
        const failing = Object.values(lhr?.audits ?? {})
          .filter(
            (a) => a.score !== null && a.score < 1 && a.scoreDisplayMode !== "informative" && a.scoreDisplayMode !== "manual",
          )
          .map((a) => a.id);
        console.log(
          `${target.name} (run ${round + 1}): performance ${Math.round(f.scores.performance * 100)}, TBT ${Math.round(f.tbt)} ms, ` +
            `long tasks ${f.longTasks.map(Math.round).join(", ") || "none"}` +
            (failing.length ? `; below 100 on ${failing.slice(0, 12).join(", ")}` : ""),
        );
      }
    }
  } finally {
    await chrome?.kill();
    for (const stop of stoppers.reverse()) await stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const stockMain = median((results.get("stock Remix /") ?? []).map((f) => f.mainThread));
  const stockCpu = median((results.get("stock Remix /") ?? []).map((f) => f.mainThreadCpu));
  const rows = [];
  for (const [page, list] of results) {
    const m = (pick) => median(list.map(pick));
    const ms = (n) => (Number.isFinite(n) ? `${Math.round(n)}` : "n/a");
    const s = (n) => (Number.isFinite(n) ? `${(n / 1000).toFixed(1)} s` : "n/a");
    const row = { page };
    for (const category of CATEGORIES) row[category] = ms(m((f) => f.scores[category] * 100));
    row["TBT ms"] = ms(m((f) => f.tbt));
    row.FCP = s(m((f) => f.fcp));
    row.LCP = list.some((f) => f.lcpError) ? "error" : s(m((f) => f.lcp));
    row["main thread"] =
      s(m((f) => f.mainThread)) + (Number.isFinite(stockMain) ? ` (${(m((f) => f.mainThread) / stockMain).toFixed(2)}x)` : "");
    row["main-thread CPU"] =
      `${ms(m((f) => f.mainThreadCpu))} ms` +
      (Number.isFinite(stockCpu) ? ` (${(m((f) => f.mainThreadCpu) / stockCpu).toFixed(2)}x)` : "");
    // Each round's ratio against the stock page measured in the same round: how far rounds spread
    // (a shared machine moves both pages of a round together, and rounds apart by 0.3x or more).
    const stockRuns = results.get("stock Remix /") ?? [];
    const perRound = list
      .map((f, round) => f.mainThreadCpu / (stockRuns[round]?.mainThreadCpu ?? Number.NaN))
      .filter(Number.isFinite);
    if (perRound.length > 1 && page !== "stock Remix /")
      row["CPU ratio by round"] = `${Math.min(...perRound).toFixed(2)}-${Math.max(...perRound).toFixed(2)}x`;
    row["script / style+layout"] = `${s(m((f) => f.script))} / ${s(m((f) => f.styleLayout))}`;
    row["longest task"] = ms(m((f) => f.longTasks[0] ?? 0));
    rows.push(row);
  }
  console.table(rows);
  console.log(
    `Medians of ${runs} run(s), load average ${os.loadavg()[0].toFixed(1)} at the end. Goals: performance ≥ 95 (issue 32; ≥ 98 before), ` +
      "total blocking time ≤ 200 ms, main thread ≤ 1.2x stock (main-thread CPU: thread time, no wait for a core); accessibility, best practices and SEO 100 (mobile settings).",
  );
  if (process.argv.includes("--breakdown")) printBreakdown(results);
}

/** Each page's main-thread CPU by trace event (means over the runs), the names furthest from stock's first. */
function printBreakdown(results) {
  const mean = (list) => {
    const sums = new Map();
    for (const f of list) for (const [name, ms] of f.breakdown ?? []) sums.set(name, (sums.get(name) ?? 0) + ms / list.length);
    return sums;
  };
  const stock = mean(results.get("stock Remix /") ?? []);
  for (const [page, list] of results) {
    if (page === "stock Remix /") continue;
    const ours = mean(list);
    const names = [...new Set([...ours.keys(), ...stock.keys()])];
    const gap = (name) => (ours.get(name) ?? 0) - (stock.get(name) ?? 0);
    names.sort((a, b) => Math.abs(gap(b)) - Math.abs(gap(a)));
    console.log(`\n${page}: main-thread CPU by trace event, ms (mean of ${list.length}; stock's beside it)`);
    for (const name of names.slice(0, 14))
      console.log(
        `  ${name.slice(0, 48).padEnd(48)} ${(ours.get(name) ?? 0).toFixed(1).padStart(7)} ${(stock.get(name) ?? 0).toFixed(1).padStart(7)}`,
      );
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
