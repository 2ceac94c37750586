// npm run bench -- --only audit (or tsx scripts/bench-audit.ts) — peak memory of the sitemap audit.
// Generates a 50,000-URL sitemap of about 10 MB in a temporary folder, serves it (plain, then gzip)
// from a local HTTP server in this process, audits it, and prints the resident set size before and
// at its peak (sampled every 5 ms). Prints figures; fails only on an error.
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { auditSitemap } from "~/features/sitemap-audit/audit.server";

const URLS = 50_000;
const TARGET_BYTES = 10 * 1024 * 1024;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "parrainly-bench-audit-"));
const plainFile = path.join(tmp, "sitemap.xml");
const gzipFile = path.join(tmp, "sitemap.xml.gz");
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

async function generate(origin: string) {
  const head = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n';
  const tail = "</urlset>\n";
  const sample = (i: number, pad: string) =>
    `<url><loc>${origin}/p/${String(i).padStart(5, "0")}-${pad}</loc><lastmod>2026-01-02T10:00:00+00:00</lastmod><changefreq>daily</changefreq><priority>0.8</priority></url>\n`;
  // Pad each path so the file lands near the target size.
  const padLength = Math.max(0, Math.floor((TARGET_BYTES - head.length - tail.length) / URLS) - sample(0, "").length);
  const pad = "x".repeat(padLength);
  const out = fs.createWriteStream(plainFile);
  out.write(head);
  for (let i = 0; i < URLS; i++) {
    if (!out.write(sample(i, pad))) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
  }
  out.end(tail);
  await new Promise<void>((resolve) => out.once("finish", () => resolve()));
  await pipeline(fs.createReadStream(plainFile), createGzip(), fs.createWriteStream(gzipFile));
}

const server = http.createServer((req, res) => {
  if (req.url === "/robots.txt") return void res.writeHead(404).end();
  const file = req.url === "/sitemap.xml.gz" ? gzipFile : plainFile;
  res.writeHead(200, { "Content-Type": req.url?.endsWith(".gz") ? "application/gzip" : "application/xml" });
  fs.createReadStream(file).pipe(res);
});

async function measure(url: string, allowed: Set<string>) {
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  const started = performance.now();
  const report = await auditSitemap(url, false, { allowedHosts: allowed, timeoutMs: 120_000 });
  const ms = performance.now() - started;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  const count = report.checks.find((c) => c.id === "url-count")?.message.values?.count;
  return { before, peak, ms, count, status: report.status };
}

try {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  await generate(origin);
  const allowed = new Set([`127.0.0.1:${port}`]);
  const rows = [];
  for (const [name, file, url] of [
    ["plain XML", plainFile, `${origin}/sitemap.xml`],
    ["gzip", gzipFile, `${origin}/sitemap.xml.gz`],
  ] as const) {
    const r = await measure(url, allowed);
    rows.push({
      run: `audit ${name}`,
      "file MB": mb(fs.statSync(file).size),
      URLs: r.count ?? "?",
      "time s": (r.ms / 1000).toFixed(2),
      "RSS before MB": mb(r.before),
      "RSS peak MB": mb(r.peak),
      "peak - before MB": mb(r.peak - r.before),
      status: r.status,
    });
  }
  console.log(`Sitemap audit memory: ${URLS.toLocaleString("en")} URLs, Node ${process.version}`);
  console.table(rows);
  console.log(`Process peak RSS over the whole run (getrusage): ${mb(process.resourceUsage().maxRSS * 1024)} MB`);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  server.close();
  fs.rmSync(tmp, { recursive: true, force: true });
}
