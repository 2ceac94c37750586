// The pages part of `npm run bench`: Parrainly's built server against a stock Remix 2.17.5 + Express
// app (built here, in a temporary directory, from the installed node_modules) serving a page of about
// the same size from an in-memory list, and against a bare node:http server (the ceiling). In one run,
// interleaved: req/s, p50/p99 and the server's CPU per request at 10 keep-alive connections for the
// home page and a platform page, with the anonymous page cache and without it (a cookie the cache
// does not know, as a visitor with a vote or a toast has), RSS before and after the load, cold start
// (spawn to the first 200, median of 3) of the image's command on a fresh database and with an
// existing one, and the JavaScript (gzip -9) each visitor page loads. Prints ratios and writes a JSON
// file. Never fails on a number. Parrainly is started with the node flags of package.json's `start`
// (the image's command).
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { RESERVED_SLUGS } from "~/features/admin/catalog/slug";
import { BENCH_SECRET, spawnServer, startServer, stopChild, type SpawnedServer } from "./spawn-server.mjs";
import { pageScripts } from "./page-scripts";
import { buildStock } from "./stock-remix.mjs";

const CONNECTIONS = 10;

export interface PagesOptions {
  root: string;
  /** Seconds per measured run. */
  seconds: number;
  /** Interleaved rounds (medians are reported). */
  rounds: number;
  /** Where the JSON goes. */
  jsonFile: string;
  /** Node flags for Parrainly; defaults to those of package.json's `start`. */
  nodeFlags?: string[];
}

/** The node flags between `node` and `build/server.mjs` in package.json's `start` script. */
export function startFlags(root: string): string[] {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: { start: string } };
  const match = /^node\s+(.*?)\s*build\/server\.mjs/.exec(pkg.scripts.start);
  return match?.[1] ? match[1].split(/\s+/) : [];
}

function get(agent: http.Agent | false, port: number, target: string, headers: Record<string, string> = {}) {
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
function cpuMsOf(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) * (1000 / 100);
  } catch {
    return NaN;
  }
}

/**
 * Spawn to the first 200 on `/`: wall time, and the CPU time the server used until then (which a
 * machine shared with other work changes much less than the wall time).
 */
async function coldStart(args: string[], cwd: string, env: Record<string, string>): Promise<{ ms: number; cpuMs: number }> {
  const start = performance.now();
  const { child, port } = spawnServer(args, cwd, env);
  const p = await port;
  while ((await get(false, p, "/")).status !== 200) await new Promise((r) => setTimeout(r, 5));
  const ms = performance.now() - start;
  const cpuMs = cpuMsOf(child.pid!);
  await stopChild(child);
  return { ms, cpuMs };
}

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024);
}

interface Load {
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
async function load(
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

/**
 * Gzip -9 bytes of every JS file a page loads before it hydrates, read from the build
 * (scripts/page-scripts.ts: its `modulepreload` links, its inline script's imports, and a draw
 * page's half; the rule tests/integration/page-bundles.test.ts holds the pages to).
 */
async function pageJs(port: number, target: string, clientDir: string): Promise<{ files: number; gzBytes: number }> {
  const { body } = await get(false, port, target);
  const assets = path.join(clientDir, "assets");
  const files = pageScripts(body, target, assets);
  let gzBytes = 0;
  for (const file of files) {
    const full = path.join(assets, file);
    if (fs.existsSync(full)) gzBytes += zlib.gzipSync(fs.readFileSync(full), { level: 9 }).length;
  }
  return { files: files.length, gzBytes };
}

/**
 * Gzip -9 bytes of the page's styles: the stylesheet inlined in its head (decision 178) plus any it
 * links, read from the build.
 */
async function pageCss(port: number, target: string, clientDir: string): Promise<{ files: number; gzBytes: number }> {
  const { body } = await get(false, port, target);
  const inline = /<style id="site-css"[^>]*>([^<]*)<\/style>/.exec(body)?.[1] ?? "";
  let gzBytes = inline ? zlib.gzipSync(inline, { level: 9 }).length : 0;
  const files = new Set<string>();
  for (const m of body.matchAll(/rel="stylesheet" href="(\/assets\/[^"]+\.css)"/g)) files.add(m[1]!);
  for (const file of files) {
    const full = path.join(clientDir, file);
    if (fs.existsSync(full)) gzBytes += zlib.gzipSync(fs.readFileSync(full), { level: 9 }).length;
  }
  return { files: files.size + (inline ? 1 : 0), gzBytes };
}

const median = (xs: number[]) => {
  const s = [...xs].filter(Number.isFinite).sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)]! : NaN;
};

const BARE = `const http = require("node:http");
const body = Buffer.from("<!DOCTYPE html>" + "<p>".padEnd(17000, "x"));
const server = http.createServer((req, res) => {
  res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Length": body.length });
  res.end(body);
});
server.keepAliveTimeout = 65000;
server.listen(0, () => console.log("listening on http://localhost:" + server.address().port));
process.on("SIGTERM", () => process.exit(0));
`;

export async function benchPages(options: PagesOptions) {
  const { root, seconds, rounds } = options;
  const entry = path.join(root, "build", "server.mjs");
  if (!fs.existsSync(entry)) throw new Error("No build: run `npm run build` first.");
  const flags = options.nodeFlags ?? startFlags(root);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "parrainly-bench-pages-"));
  const stockDir = path.join(tmp, "stock");
  const servers: SpawnedServer[] = [];
  try {
    console.log(`Pages benchmark: ${rounds} interleaved round(s) of ${seconds} s per page and app, ${CONNECTIONS} connections`);
    console.log(`Parrainly node flags: ${flags.join(" ") || "(none)"}`);
    const buildStart = performance.now();
    buildStock(root, stockDir);
    console.log(`stock Remix app built in ${Math.round(performance.now() - buildStart)} ms`);

    const parrainlyEnv = {
      NODE_ENV: "production",
      DATABASE_URL: `file:${path.join(tmp, "parrainly.db")}`,
      SESSION_SECRET: BENCH_SECRET,
      UPLOADS_DIR: path.join(tmp, "uploads"),
      SEED_DEMO: "1",
    };
    const parrainlyArgs = [...flags, entry];
    const stockArgs = ["server.mjs"];
    const stockEnv = { NODE_ENV: "production" };

    // Cold starts, each a median of 3: the image's command (the start flags, NODE_ENV=production, no
    // demo data) on a fresh database each time (migrations, base data: a new Fly machine's first
    // request), then with the bench's database existing; the stock app's beside them.
    type Cold = { ms: number; cpuMs: number };
    const cold = { fresh: [] as Cold[], parrainly: [] as Cold[], stock: [] as Cold[] };
    for (let i = 0; i < 3; i++) {
      const fresh = path.join(tmp, `fresh-${i}`);
      cold.fresh.push(
        await coldStart(parrainlyArgs, root, {
          NODE_ENV: "production",
          DATABASE_URL: `file:${path.join(fresh, "app.db")}`,
          SESSION_SECRET: BENCH_SECRET,
          UPLOADS_DIR: path.join(fresh, "uploads"),
        }),
      );
      cold.parrainly.push(await coldStart(parrainlyArgs, root, parrainlyEnv));
      cold.stock.push(await coldStart(stockArgs, stockDir, stockEnv));
    }

    const parrainly = await startServer(parrainlyArgs, root, parrainlyEnv);
    const stock = await startServer(stockArgs, stockDir, stockEnv);
    const bare = await startServer(["-e", BARE], tmp, {});
    servers.push(parrainly, stock, bare);
    const idle = { parrainly: rssMb(parrainly.pid), stock: rssMb(stock.pid) };

    const home = await get(false, parrainly.port, "/");
    // A platform's page: the first link of the home page's main part that is not one of the site's own paths.
    const slug =
      [...home.body.slice(home.body.indexOf("<main")).matchAll(/href="\/([a-z0-9-]+)"/g)]
        .map((m) => m[1]!)
        .find((candidate) => !RESERVED_SLUGS.has(candidate)) ?? "revolut";
    const stockHome = await get(false, stock.port, "/");
    const stockPlatform = await get(false, stock.port, "/p/platform-3");
    const parrainlyPlatform = await get(false, parrainly.port, `/${slug}`);
    const sizes = {
      parrainlyHome: home.body.length,
      parrainlyPlatform: parrainlyPlatform.body.length,
      stockHome: stockHome.body.length,
      stockPlatform: stockPlatform.body.length,
    };

    const targets = [
      ["home", "/", "/"],
      ["platform", `/${slug}`, "/p/platform-3"],
    ] as const;
    const runs: Record<string, Load[]> = {};
    const push = (key: string, l: Load) => (runs[key] ??= []).push(l);
    for (let round = 0; round < rounds; round++) {
      for (const [name, ours, theirs] of targets) {
        // Alternate which app goes first, so neither always gets the quieter moment.
        const apps = ["parrainly", "uncached", "stock"] as const;
        const order = apps.map((_, i) => apps[(i + round) % apps.length]!);
        for (const app of order) {
          const server = app === "stock" ? stock : parrainly;
          // Uncached: the same server, asked with a cookie the page cache does not know, so every
          // request renders (as a visitor with a vote, a toast or a draw result does).
          const headers: Record<string, string> = app === "uncached" ? { cookie: "bench=1" } : {};
          push(`${app}:${name}`, await load(server.port, app === "stock" ? theirs : ours, seconds, server.pid, headers));
        }
      }
      push("bare", await load(bare.port, "/", seconds, bare.pid));
    }
    const after = { parrainly: rssMb(parrainly.pid), stock: rssMb(stock.pid) };

    const js = {
      parrainlyHome: await pageJs(parrainly.port, "/", path.join(root, "build", "client")),
      parrainlySubmit: await pageJs(parrainly.port, "/submit", path.join(root, "build", "client")),
      stockHome: await pageJs(stock.port, "/", path.join(stockDir, "build", "client")),
    };
    // Every visitor page (the cap is per page): the heaviest is printed.
    const visitorPages = [
      "/",
      `/${slug}`,
      `/${slug}/get-code`,
      "/random",
      "/submit",
      "/suggest-platform",
      "/partnerships",
      "/platforms",
      "/fairness",
      "/privacy",
    ];
    const perPage: Record<string, number> = {};
    for (const page of visitorPages)
      perPage[page] = (await pageJs(parrainly.port, page, path.join(root, "build", "client"))).gzBytes;
    const heaviest = Object.entries(perPage).sort((a, b) => b[1] - a[1])[0]!;
    const css = await pageCss(parrainly.port, "/", path.join(root, "build", "client"));

    const summary = (key: string) => {
      const list = runs[key]!;
      return {
        rps: Math.round(median(list.map((l) => l.rps))),
        rpsRange: [Math.round(Math.min(...list.map((l) => l.rps))), Math.round(Math.max(...list.map((l) => l.rps)))],
        p50: Number(median(list.map((l) => l.p50)).toFixed(1)),
        p99: Number(median(list.map((l) => l.p99)).toFixed(1)),
        errors: list.reduce((a, l) => a + l.errors, 0),
        cpuMsPerRequest: Number(median(list.map((l) => l.cpuMs)).toFixed(2)),
      };
    };
    const coldSummary = (list: Cold[]) => ({
      ms: Math.round(median(list.map((c) => c.ms))),
      cpuMs: Math.round(median(list.map((c) => c.cpuMs))),
      runs: list.map((c) => Math.round(c.ms)),
    });
    const result = {
      date: new Date().toISOString(),
      machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, loadAverage: os.loadavg()[0], node: process.version },
      seconds,
      rounds,
      connections: CONNECTIONS,
      nodeFlags: flags,
      pageBytes: sizes,
      home: { parrainly: summary("parrainly:home"), uncached: summary("uncached:home"), stock: summary("stock:home") },
      platform: {
        parrainly: summary("parrainly:platform"),
        uncached: summary("uncached:platform"),
        stock: summary("stock:platform"),
        slug,
      },
      bare: summary("bare"),
      rssMb: { idle, afterLoad: after, loadSecondsPerApp: rounds * 2 * (seconds + Math.min(2, seconds / 3)) },
      coldStart: {
        imageCommandFreshDatabase: coldSummary(cold.fresh),
        parrainlyExistingDatabase: coldSummary(cold.parrainly),
        stock: coldSummary(cold.stock),
      },
      jsGzBytes: { ...js, perVisitorPage: perPage },
      cssGzBytesHome: css,
    };
    fs.writeFileSync(options.jsonFile, `${JSON.stringify(result, null, 2)}\n`);

    const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
    const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
    const table = [
      ...(["home", "platform"] as const).flatMap((page) => {
        const ours = result[page].parrainly;
        const theirs = result[page].stock;
        const raw = result[page].uncached;
        return [
          {
            figure: `${page} req/s (min-max)`,
            parrainly: `${ours.rps} (${ours.rpsRange.join("-")})`,
            stock: `${theirs.rps} (${theirs.rpsRange.join("-")})`,
            ratio: ratio(ours.rps, theirs.rps),
            target: ">= 1.90x",
          },
          {
            figure: `${page} p50 / p99 ms`,
            parrainly: `${ours.p50} / ${ours.p99}`,
            stock: `${theirs.p50} / ${theirs.p99}`,
            ratio: `${ratio(ours.p50, theirs.p50)} / ${ratio(ours.p99, theirs.p99)}`,
            target: "p99 <= 20 ms (idle machine)",
          },
          {
            figure: `${page} uncached req/s, p50 / p99`,
            parrainly: `${raw.rps} (${raw.rpsRange.join("-")}), ${raw.p50} / ${raw.p99}`,
            stock: `${theirs.rps}, ${theirs.p50} / ${theirs.p99}`,
            ratio: ratio(raw.rps, theirs.rps),
            target: ">= 1.00x (floor 0.70x)",
          },
          {
            // Steadier than req/s on a shared machine: the CPU each answer cost the server.
            figure: `${page} uncached CPU ms per request`,
            parrainly: `${raw.cpuMsPerRequest}`,
            stock: `${theirs.cpuMsPerRequest}`,
            ratio: `${ratio(theirs.cpuMsPerRequest, raw.cpuMsPerRequest)} (stock's / ours)`,
            target: ">= 1.00x",
          },
        ];
      }),
      {
        figure: "bare node:http req/s (17 KB)",
        parrainly: `${result.bare.rps}`,
        stock: "",
        ratio: `home at ${((100 * result.home.parrainly.rps) / result.bare.rps).toFixed(1)} % of it`,
        target: "",
      },
      {
        figure: "RSS idle -> after load (MB)",
        parrainly: `${idle.parrainly} -> ${after.parrainly}`,
        stock: `${idle.stock} -> ${after.stock}`,
        ratio: ratio(after.parrainly, after.stock),
        target: "<= 150 MB",
      },
      {
        figure: "cold start, image command, fresh db: ms (CPU ms)",
        parrainly: `${result.coldStart.imageCommandFreshDatabase.ms} (${result.coldStart.imageCommandFreshDatabase.cpuMs})`,
        stock: `${result.coldStart.stock.ms} (${result.coldStart.stock.cpuMs})`,
        ratio: ratio(result.coldStart.imageCommandFreshDatabase.ms, result.coldStart.stock.ms),
        target: "<= 500 ms",
      },
      {
        figure: "cold start, existing db: ms (CPU ms)",
        parrainly: `${result.coldStart.parrainlyExistingDatabase.ms} (${result.coldStart.parrainlyExistingDatabase.cpuMs})`,
        stock: "",
        ratio: ratio(result.coldStart.parrainlyExistingDatabase.ms, result.coldStart.stock.ms),
        target: "",
      },
      {
        figure: "JS gz -9 on / (files)",
        parrainly: `${kb(js.parrainlyHome.gzBytes)} (${js.parrainlyHome.files})`,
        stock: `${kb(js.stockHome.gzBytes)} (${js.stockHome.files})`,
        ratio: ratio(js.parrainlyHome.gzBytes, js.stockHome.gzBytes),
        target: "<= 90 KB",
      },
      {
        figure: "JS gz -9 on /submit (files)",
        parrainly: `${kb(js.parrainlySubmit.gzBytes)} (${js.parrainlySubmit.files})`,
        stock: "",
        ratio: "",
        target: "<= 100 KB",
      },
      {
        figure: "JS gz -9 per visitor page",
        parrainly: Object.entries(perPage)
          .map(([page, bytes]) => `${page} ${(bytes / 1024).toFixed(1)}`)
          .join(", "),
        stock: "",
        ratio: "",
        target: `<= stock's / + 8 KB (${kb(js.stockHome.gzBytes + 8 * 1024)})`,
      },
      {
        figure: "JS gz -9, heaviest visitor page",
        parrainly: `${kb(heaviest[1])} (${heaviest[0]})`,
        stock: "",
        ratio: "",
        target: "<= 100 KB",
      },
      {
        figure: "CSS gz -9 on / (files)",
        parrainly: `${kb(css.gzBytes)} (${css.files})`,
        stock: "",
        ratio: "",
        target: "< 20 KB",
      },
      {
        figure: "page bytes home / platform",
        parrainly: `${sizes.parrainlyHome} / ${sizes.parrainlyPlatform}`,
        stock: `${sizes.stockHome} / ${sizes.stockPlatform}`,
        ratio: "",
        target: "",
      },
    ];
    console.table(table);
    const errors = Object.values(runs)
      .flat()
      .reduce((a, l) => a + l.errors, 0);
    if (errors) console.log(`non-200 responses during load: ${errors}`);
    console.log(`(load average ${os.loadavg()[0]!.toFixed(1)}; figures written to ${path.relative(root, options.jsonFile)})`);
    return result;
  } finally {
    for (const s of servers) await s.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

// Alone: `npx tsx scripts/bench-pages.ts --seconds 5 --rounds 3 [--flags "--max-old-space-size=96"]`.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i >= 0 ? process.argv[i + 1] : undefined;
  };
  const root = path.resolve(import.meta.dirname, "..");
  const flags = arg("flags");
  benchPages({
    root,
    seconds: Number(arg("seconds") ?? 5),
    rounds: Number(arg("rounds") ?? 3),
    jsonFile: path.resolve(arg("json") ?? path.join(root, "bench-results.json")),
    nodeFlags: flags === undefined ? undefined : flags.split(/\s+/).filter(Boolean),
  }).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
