import http from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";

/**
 * A real HTTP server serving good, broken and hostile sitemaps for the audit's tests. Reached as
 * `http://localhost:PORT` (listed in AUDIT_ALLOWED_HOSTS by the tests); robots.txt answers as
 * `robots` says, so one server per robots behaviour.
 */
export interface SitemapFixtures {
  origin: string;
  port: number;
  /** `host:port` for AUDIT_ALLOWED_HOSTS. */
  hostKey: string;
  close: () => Promise<void>;
}

const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';
const DECL = '<?xml version="1.0" encoding="UTF-8"?>';

function urlset(origin: string, urls: Array<{ loc: string; lastmod?: string; changefreq?: string; priority?: string }>) {
  const entries = urls.map((u) => {
    const fields = [`<loc>${u.loc.startsWith("http") || u.loc.startsWith("ftp") ? u.loc : `${origin}${u.loc}`}</loc>`];
    if (u.lastmod) fields.push(`<lastmod>${u.lastmod}</lastmod>`);
    if (u.changefreq) fields.push(`<changefreq>${u.changefreq}</changefreq>`);
    if (u.priority) fields.push(`<priority>${u.priority}</priority>`);
    return `  <url>${fields.join("")}</url>`;
  });
  return `${DECL}\n<urlset ${NS}>\n${entries.join("\n")}\n</urlset>\n`;
}

const good = (origin: string) =>
  urlset(origin, [
    { loc: "/", lastmod: "2026-01-02", changefreq: "daily", priority: "1.0" },
    { loc: "/a", lastmod: "2026-01-02T10:00:00+01:00", changefreq: "weekly", priority: "0.5" },
    { loc: "/b?x=1&amp;y=2", lastmod: "2025-12", priority: ".8" },
  ]);

export async function startSitemapFixtures(robots: "ok" | "404" | "500" = "ok"): Promise<SitemapFixtures> {
  let origin = "";
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, fn: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };
  const xml = (res: http.ServerResponse, body: string | Buffer, type = "application/xml; charset=utf-8", extra = {}) => {
    res.writeHead(200, { "Content-Type": type, ...extra });
    res.end(body);
  };

  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const port = (server.address() as AddressInfo).port;
    switch (path) {
      case "/robots.txt":
        if (robots === "404") return void res.writeHead(404).end("not here");
        if (robots === "500") return void res.writeHead(500).end("broken");
        res.writeHead(200, { "Content-Type": "text/plain" });
        return void res.end(
          `User-agent: *\nDisallow: /private/\nDisallow: /blocked/\n\nSitemap: ${origin}/good.xml\nSitemap: ${origin}/index.xml\n`,
        );
      case "/good.xml":
      case "/blocked/sitemap.xml":
        return xml(res, good(origin));
      case "/robots-urls.xml":
        return xml(res, urlset(origin, [{ loc: "/" }, { loc: "/private/secret" }]));
      case "/status-404.xml":
        return void res.writeHead(404, { "Content-Type": "text/html" }).end("<p>nope</p>");
      case "/slow.xml":
        return later(1200, () => xml(res, good(origin)));
      case "/slower.xml":
        return later(3100, () => xml(res, good(origin)));
      case "/html":
        return xml(
          res,
          "<!DOCTYPE html><html><head><title>Home</title></head><body><p>Hi</p></body></html>",
          "text/html; charset=utf-8",
        );
      case "/text-plain.xml":
        return xml(res, good(origin), "text/plain");
      case "/sitemap.xml.gz":
        return xml(res, gzipSync(good(origin)), "application/gzip");
      case "/gzip-encoding.xml":
        return xml(res, gzipSync(good(origin)), "application/xml", { "Content-Encoding": "gzip" });
      case "/corrupt.xml.gz":
        return xml(
          res,
          Buffer.concat([Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]), Buffer.alloc(200, 0x55)]),
          "application/gzip",
        );
      case "/bomb.xml.gz": {
        // 4 MB of the same line: small on the wire, over a small test cap once gunzipped.
        const line = `<url><loc>${origin}/x</loc></url>\n`;
        const body = `${DECL}<urlset ${NS}>${line.repeat(Math.ceil((4 * 1024 * 1024) / line.length))}</urlset>`;
        return xml(res, gzipSync(body), "application/gzip");
      }
      case "/endless.xml": {
        res.writeHead(200, { "Content-Type": "application/xml" });
        res.write(`${DECL}<urlset ${NS}>`);
        const chunk = `<url><loc>${origin}/endless</loc></url>`.repeat(500);
        const pump = () => {
          while (res.write(chunk));
          res.once("drain", pump);
        };
        res.on("close", () => res.removeAllListeners("drain"));
        return pump();
      }
      case "/drip.xml": {
        res.writeHead(200, { "Content-Type": "application/xml" });
        res.write(`${DECL}<urlset ${NS}>`);
        const drip = setInterval(() => res.write(" "), 100);
        res.on("close", () => clearInterval(drip));
        return;
      }
      case "/bom.xml":
        return xml(res, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(good(origin))]));
      case "/leading-space.xml":
        return xml(res, `\n  ${good(origin)}`);
      case "/latin1.xml":
        return xml(res, good(origin).replace('encoding="UTF-8"', 'encoding="ISO-8859-1"'));
      case "/invalid-utf8.xml":
        return xml(
          res,
          Buffer.concat([
            Buffer.from(good(origin).replace("</urlset>", "")),
            Buffer.from([0xc3, 0x28]),
            Buffer.from("</urlset>"),
          ]),
        );
      case "/no-decl.xml":
        return xml(res, good(origin).replace(DECL, ""));
      case "/malformed.xml":
        return xml(res, `${DECL}<urlset ${NS}><url><loc>${origin}/</loc></url><url><loc>${origin}/a</url></urlset>`);
      case "/wrong-ns.xml":
        return xml(
          res,
          good(origin).replace("http://www.sitemaps.org/schemas/sitemap/0.9", "http://www.google.com/schemas/sitemap/0.84"),
        );
      case "/other-root.xml":
        return xml(res, `${DECL}<rss version="2.0"><channel></channel></rss>`);
      case "/many-urls.xml": {
        res.writeHead(200, { "Content-Type": "application/xml" });
        res.write(`${DECL}<urlset ${NS}>`);
        for (let i = 0; i <= 50_000; i += 1000) {
          let part = "";
          for (let j = i; j < Math.min(i + 1000, 50_001); j++) part += `<url><loc>${origin}/p/${j}</loc></url>`;
          res.write(part);
        }
        return void res.end("</urlset>");
      }
      case "/empty-urlset.xml":
        return xml(res, `${DECL}<urlset ${NS}></urlset>`);
      case "/other-host.xml":
        return xml(
          res,
          urlset(origin, [{ loc: "/" }, { loc: "https://elsewhere.example/page" }, { loc: `https://localhost:${port}/tls` }]),
        );
      case "/bad-loc.xml":
        return xml(res, urlset(origin, [{ loc: "/" }, { loc: "ftp://files.example/x" }, { loc: "http://" }]));
      case "/duplicates.xml":
        return xml(res, urlset(origin, [{ loc: "/" }, { loc: "/a" }, { loc: "/" }]));
      case "/bad-values.xml":
        return xml(
          res,
          urlset(origin, [
            { loc: "/", lastmod: "02/01/2026", changefreq: "sometimes", priority: "1.5" },
            { loc: "/a", lastmod: "2999-01-01" },
            { loc: "/b", lastmod: "2026-02-30" },
          ]),
        );
      case "/future.xml":
        return xml(res, urlset(origin, [{ loc: "/", lastmod: "2999-01-01" }]));
      case "/index.xml":
        return xml(
          res,
          `${DECL}<sitemapindex ${NS}>` +
            ["/good.xml", "/sitemap.xml.gz", "/bad-values.xml", "/status-404.xml", "/nested-index.xml"]
              .map((p) => `<sitemap><loc>${origin}${p}</loc><lastmod>2026-01-01</lastmod></sitemap>`)
              .join("") +
            `<sitemap><loc>http://127.0.0.2:${port}/good.xml</loc></sitemap></sitemapindex>`,
        );
      case "/nested-index.xml":
        return xml(res, `${DECL}<sitemapindex ${NS}><sitemap><loc>${origin}/good.xml</loc></sitemap></sitemapindex>`);
      case "/good-index.xml":
        return xml(
          res,
          `${DECL}<sitemapindex ${NS}><sitemap><loc>${origin}/good.xml</loc></sitemap><sitemap><loc>${origin}/sitemap.xml.gz</loc></sitemap></sitemapindex>`,
        );
      case "/big-index.xml":
        return xml(
          res,
          `${DECL}<sitemapindex ${NS}>` +
            Array.from({ length: 55 }, (_, i) => `<sitemap><loc>${origin}/good.xml?part=${i}</loc></sitemap>`).join("") +
            "</sitemapindex>",
        );
      case "/redirect-ok":
        return void res.writeHead(301, { Location: "/good.xml" }).end();
      case "/redirect-loopback":
        return void res.writeHead(302, { Location: `http://127.0.0.2:${port}/good.xml` }).end();
      case "/redirect-metadata":
        return void res.writeHead(302, { Location: "http://169.254.169.254/latest/meta-data/" }).end();
      case "/redirect-mapped":
        return void res.writeHead(302, { Location: `http://[::ffff:127.0.0.1]:${port}/good.xml` }).end();
      case "/redirect-file":
        return void res.writeHead(302, { Location: "file:///etc/passwd" }).end();
      default: {
        const hop = /^\/loop\/(\d+)$/.exec(path);
        if (hop) return void res.writeHead(302, { Location: `/loop/${Number(hop[1]) + 1}` }).end();
        return void res.writeHead(404).end("not found");
      }
    }
  });
  await new Promise<void>((resolve) => server.listen(0, resolve));
  const port = (server.address() as AddressInfo).port;
  origin = `http://localhost:${port}`;
  return {
    origin,
    port,
    hostKey: `localhost:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
