/**
 * Lighthouse (mobile settings, Debian's Chromium) on the built server with a fresh demo database:
 * prints performance, accessibility, best practices and SEO for the home page, a platform page, its
 * draw page and /submit. Goal: ≥ 98 performance and 100 for the rest. Prints, never fails on a score.
 *
 *   npm run build && npm run lighthouse            # or: npm run lighthouse -- --only /submit,/platforms
 *
 * In production Fly's edge proxy compresses responses the app sends uncompressed (HTML; the build's
 * assets are precompressed already). The pages are measured as visitors get them: through a small
 * local proxy that does the same (gzip when the browser accepts it, for text without a
 * Content-Encoding). `--direct` measures the server alone.
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
import { startBuiltServer } from "./spawn-server.mjs";

const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"];
const DEFAULT_PATHS = ["/", "/tesla", "/tesla/get-code", "/submit"];

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

async function main() {
  const only = argValue("--only");
  const paths = only ? only.split(",") : DEFAULT_PATHS;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "parrainly-lighthouse-"));
  const server = await startBuiltServer(`file:${path.join(dir, "lighthouse.db")}`, dir, { SEED_DEMO: "1" });
  const proxy = process.argv.includes("--direct") ? null : await startCompressingProxy(server.port);
  const serverUrl = `http://localhost:${proxy ? proxy.address().port : server.port}`;
  console.log(proxy ? "Through a compressing proxy, as behind Fly's edge (--direct: the server alone)" : "The server alone");
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  const rows = [];
  try {
    for (const pagePath of paths) {
      // Default config: mobile form factor, simulated slow 4G and a 4x slower CPU.
      const result = await lighthouse(`${serverUrl}${pagePath}`, {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        onlyCategories: [...CATEGORIES],
      });
      const lhr = result?.lhr;
      if (process.env.LH_DUMP)
        fs.writeFileSync(`${process.env.LH_DUMP}${pagePath.replace(/\//g, "_")}.json`, JSON.stringify(lhr));
      const row = { page: pagePath };
      for (const category of CATEGORIES) {
        const score = lhr?.categories[category]?.score;
        row[category] = typeof score === "number" ? String(Math.round(score * 100)) : "n/a";
      }
      const lcp = lhr?.audits["largest-contentful-paint"];
      row.LCP = lcp?.displayValue ?? (lcp?.errorMessage ? "error" : "n/a");
      rows.push(row);
      const failing = Object.values(lhr?.audits ?? {})
        .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode !== "informative" && a.scoreDisplayMode !== "manual")
        .map((a) => a.id);
      if (failing.length) console.log(`${pagePath}: below 100 on ${failing.slice(0, 12).join(", ")}`);
    }
  } finally {
    await chrome.kill();
    proxy?.close();
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  console.table(rows);
  console.log("Goal: performance ≥ 98, accessibility, best practices and SEO 100 (mobile settings).");
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
