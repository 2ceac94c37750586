// The pages part of `npm run bench`: Parrainly's built server against a stock Remix 2.17.5 + Express
// app (built here, in a temporary directory, from the installed node_modules) serving a page of about
// the same size from an in-memory list, against the same stock app given Parrainly's route table
// (one trivial module per route file: what the framework's matching costs a table of this size,
// before anything renders), and against a bare node:http server (the ceiling). In one run,
// interleaved: req/s, p50/p99 and the server's CPU per request at 10 keep-alive connections for the
// home page and a platform page, with the anonymous page cache and without it (a cookie the cache
// does not know, as a visitor with a vote or a toast has), RSS before and after the load, cold start
// (spawn to the first 200, median of 3) of the image's command on a fresh database and with an
// existing one, and the JavaScript (gzip -9) each visitor page loads. Prints ratios and writes a JSON
// file. Never fails on a number. Parrainly is started with the node flags of package.json's `start`
// (the image's command). The parts: the load and its summaries (page-load.ts), the cold starts
// (cold-start.ts), the bytes each page loads (page-bytes.ts), the printed table (bench-pages-report.ts).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { RESERVED_SLUGS } from "~/features/admin/catalog/slug";
import { printPagesTable } from "./bench-pages-report";
import { coldStarts } from "./cold-start";
import { pageBytes } from "./page-bytes";
import { CONNECTIONS, get, load, rssMb, summarizeLoads, type Load } from "./page-load";
import { BENCH_SECRET, startServer, type SpawnedServer } from "./spawn-server.mjs";
import { buildStock } from "./stock-remix.mjs";

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
  const tabledDir = path.join(tmp, "stock-route-table");
  const servers: SpawnedServer[] = [];
  try {
    console.log(`Pages benchmark: ${rounds} interleaved round(s) of ${seconds} s per page and app, ${CONNECTIONS} connections`);
    console.log(`Parrainly node flags: ${flags.join(" ") || "(none)"}`);
    const buildStart = performance.now();
    buildStock(root, stockDir);
    buildStock(root, tabledDir, { routeTable: true });
    console.log(`stock Remix apps built in ${Math.round(performance.now() - buildStart)} ms`);

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

    const coldStart = await coldStarts(
      tmp,
      { args: parrainlyArgs, cwd: root, env: parrainlyEnv },
      { args: stockArgs, cwd: stockDir, env: stockEnv },
    );

    const parrainly = await startServer(parrainlyArgs, root, parrainlyEnv);
    const stock = await startServer(stockArgs, stockDir, stockEnv);
    const tabled = await startServer(stockArgs, tabledDir, stockEnv);
    const bare = await startServer(["-e", BARE], tmp, {});
    servers.push(parrainly, stock, tabled, bare);
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
        const apps = ["parrainly", "uncached", "stock", "stockRouteTable"] as const;
        const order = apps.map((_, i) => apps[(i + round) % apps.length]!);
        for (const app of order) {
          const server = app === "stock" ? stock : app === "stockRouteTable" ? tabled : parrainly;
          const target = app === "stock" || app === "stockRouteTable" ? theirs : ours;
          // Uncached: the same server, asked with a cookie the page cache does not know, so every
          // request renders (as a visitor with a vote, a toast or a draw result does).
          const headers: Record<string, string> = app === "uncached" ? { cookie: "bench=1" } : {};
          push(`${app}:${name}`, await load(server.port, target, seconds, server.pid, headers));
        }
      }
      push("bare", await load(bare.port, "/", seconds, bare.pid));
    }
    const after = { parrainly: rssMb(parrainly.pid), stock: rssMb(stock.pid) };

    const clientDir = path.join(root, "build", "client");
    const { js, perPage, css } = await pageBytes(
      { port: parrainly.port, clientDir },
      { port: stock.port, clientDir: path.join(stockDir, "build", "client") },
      slug,
    );

    const summary = (key: string) => summarizeLoads(runs[key]!);
    const result = {
      date: new Date().toISOString(),
      machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, loadAverage: os.loadavg()[0], node: process.version },
      seconds,
      rounds,
      connections: CONNECTIONS,
      nodeFlags: flags,
      pageBytes: sizes,
      home: {
        parrainly: summary("parrainly:home"),
        uncached: summary("uncached:home"),
        stock: summary("stock:home"),
        stockRouteTable: summary("stockRouteTable:home"),
      },
      platform: {
        parrainly: summary("parrainly:platform"),
        uncached: summary("uncached:platform"),
        stock: summary("stock:platform"),
        stockRouteTable: summary("stockRouteTable:platform"),
        slug,
      },
      bare: summary("bare"),
      rssMb: { idle, afterLoad: after, loadSecondsPerApp: rounds * 2 * (seconds + Math.min(2, seconds / 3)) },
      coldStart,
      jsGzBytes: { ...js, perVisitorPage: perPage },
      cssGzBytesHome: css,
    };
    fs.writeFileSync(options.jsonFile, `${JSON.stringify(result, null, 2)}\n`);

    printPagesTable(result);
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
