import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AuditFetchError,
  AuditRefusal,
  auditSitemap,
  withAuditSlot,
  type AuditOptions,
} from "~/features/sitemap-audit/audit.server";
import type { AuditReport, CheckId } from "~/features/sitemap-audit/checks";
import { startSitemapFixtures, type SitemapFixtures } from "../support/sitemap-fixtures";

/** The audit over real HTTP against local fixture servers (one per robots.txt behaviour). */
let main: SitemapFixtures;
let robots404: SitemapFixtures;
let robots500: SitemapFixtures;
let allowed: Set<string>;

beforeAll(async () => {
  [main, robots404, robots500] = await Promise.all([
    startSitemapFixtures("ok"),
    startSitemapFixtures("404"),
    startSitemapFixtures("500"),
  ]);
  allowed = new Set([main.hostKey, robots404.hostKey, robots500.hostKey]);
});
afterAll(async () => {
  await Promise.all([main?.close(), robots404?.close(), robots500?.close()]);
});

const audit = (url: string, options: Partial<AuditOptions> & { www?: boolean } = {}) =>
  auditSitemap(url, options.www ?? false, { allowedHosts: allowed, ...options });
const at = (path: string, options: Partial<AuditOptions> & { www?: boolean } = {}) => audit(`${main.origin}${path}`, options);

function status(report: AuditReport, id: CheckId) {
  const check = report.checks.find((c) => c.id === id);
  expect(check, `check ${id}`).toBeDefined();
  return check!.status;
}
function examples(report: AuditReport, id: CheckId) {
  return report.checks.find((c) => c.id === id)?.examples ?? [];
}
/** Every check that is not success or skipped, for readable failures. */
const problems = (report: AuditReport) =>
  report.checks.filter((c) => c.status === "warning" || c.status === "error").map((c) => `${c.id}:${c.status}:${c.message.key}`);

describe("sitemap audit: a good sitemap", () => {
  it("passes every check, and every contract check id is present", async () => {
    const report = await at("/good.xml");
    expect(problems(report)).toEqual([]);
    expect(report.status).toBe("success");
    const ids = report.checks.map((c) => c.id);
    for (const id of [
      "http-status",
      "content-type",
      "response-time",
      "size",
      "xml-declaration",
      "namespace",
      "well-formed",
      "url-count",
      "same-host",
      "lastmod",
      "changefreq",
      "priority",
      "robots-declared",
      "robots-allowed",
      "www",
      "sitemap-index",
      "encoding",
      "duplicates",
    ] as const)
      expect(ids).toContain(id);
    expect(report.checks.find((c) => c.id === "url-count")!.message.values).toMatchObject({ count: 3 });
  });

  it("gzip, as a .gz file or as Content-Encoding, is read through", async () => {
    for (const path of ["/sitemap.xml.gz", "/gzip-encoding.xml"]) {
      const report = await at(path);
      expect(status(report, "compression")).toBe("success");
      expect(report.checks.find((c) => c.id === "compression")!.message.key).toBe("compression.gzip");
      expect(status(report, "url-count")).toBe("success");
      expect(status(report, "well-formed")).toBe("success");
      // Not declared in robots.txt: the only remark.
      expect(problems(report)).toEqual(["robots-declared:warning:robots-declared.missing"]);
    }
  });

  it("a redirect on the same host is followed; the www checkbox is checked against where it ends", async () => {
    const report = await at("/redirect-ok");
    expect(report.finalUrl).toBe(`${main.origin}/good.xml`);
    expect(report.checks.find((c) => c.id === "http-status")!.message.key).toBe("http-status.okRedirected");
    expect(status(report, "www")).toBe("success");
    const withWww = await at("/redirect-ok", { www: true });
    expect(status(withWww, "www")).toBe("error");
    expect(withWww.status).toBe("error");
  });
});

describe("sitemap audit: each check's failure", () => {
  const cases: Array<[string, CheckId, "warning" | "error"]> = [
    ["/status-404.xml", "http-status", "error"],
    ["/slow.xml", "response-time", "warning"],
    ["/html", "content-type", "error"],
    ["/html", "root-element", "error"],
    ["/text-plain.xml", "content-type", "error"],
    ["/corrupt.xml.gz", "compression", "error"],
    ["/bom.xml", "encoding", "warning"],
    ["/latin1.xml", "encoding", "error"],
    ["/invalid-utf8.xml", "encoding", "error"],
    ["/leading-space.xml", "xml-declaration", "error"],
    ["/no-decl.xml", "xml-declaration", "warning"],
    ["/malformed.xml", "well-formed", "error"],
    ["/other-root.xml", "root-element", "error"],
    ["/wrong-ns.xml", "namespace", "error"],
    ["/many-urls.xml", "url-count", "error"],
    ["/empty-urlset.xml", "url-count", "warning"],
    ["/bad-loc.xml", "loc", "error"],
    ["/other-host.xml", "same-host", "error"],
    ["/duplicates.xml", "duplicates", "warning"],
    ["/bad-values.xml", "lastmod", "error"],
    ["/future.xml", "lastmod", "warning"],
    ["/bad-values.xml", "changefreq", "error"],
    ["/bad-values.xml", "priority", "error"],
    ["/robots-urls.xml", "robots-urls", "warning"],
    ["/blocked/sitemap.xml", "robots-allowed", "error"],
    ["/text-plain.xml", "robots-declared", "warning"],
  ];
  it.each(cases)("%s → %s is %s", async (path, id, expected) => {
    const report = await at(path);
    expect(status(report, id)).toBe(expected);
    expect(report.status === "error" || expected === "warning").toBe(true);
  });

  it("a response over 3000 ms is an error", async () => {
    const report = await at("/slower.xml");
    expect(status(report, "response-time")).toBe("error");
  });

  it("offending URLs are listed, at most 20", async () => {
    const other = await at("/other-host.xml");
    expect(examples(other, "same-host")).toEqual(["https://elsewhere.example/page", `https://localhost:${main.port}/tls`]);
    const values = await at("/bad-values.xml");
    expect(examples(values, "lastmod")).toEqual([`${main.origin}/ — 02/01/2026`, `${main.origin}/b — 2026-02-30`]);
    expect(examples(values, "priority")).toEqual([`${main.origin}/ — 1.5`]);
    const many = await at("/many-urls.xml");
    expect(many.checks.find((c) => c.id === "url-count")!.message.values).toMatchObject({ count: 50_001 });
  });

  it("an endless body stops at the cap (size error), a gzip bomb stops at the decompressed cap", async () => {
    const endless = await at("/endless.xml", { maxBytes: 2 * 1024 * 1024 });
    expect(status(endless, "size")).toBe("error");
    expect(status(endless, "well-formed")).toBe("skipped");
    const bomb = await at("/bomb.xml.gz", { maxBytes: 1024 * 1024 });
    expect(status(bomb, "size")).toBe("error");
    expect(status(bomb, "compression")).toBe("success");
  });

  it("a body that never ends slowly hits the whole-audit deadline: a fetch failure", async () => {
    const started = Date.now();
    await expect(at("/drip.xml", { timeoutMs: 1500 })).rejects.toMatchObject({ reason: "timeout" });
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it("more than 5 redirects is a fetch failure", async () => {
    await expect(at("/loop/0")).rejects.toBeInstanceOf(AuditFetchError);
    await expect(at("/loop/0")).rejects.toMatchObject({ reason: "too-many-redirects" });
  });
});

describe("sitemap audit: index", () => {
  it("audits the children, one summary line each, and refuses a private child without fetching it", async () => {
    const report = await at("/index.xml");
    expect(status(report, "sitemap-index")).toBe("error");
    const lines = Object.fromEntries(
      report.children.map((c) => [new URL(c.url).pathname + (c.url.includes("127.0.0.2") ? "@127.0.0.2" : ""), c]),
    );
    expect(lines["/good.xml"]).toMatchObject({ status: "success", urls: 3, failing: [] });
    expect(lines["/sitemap.xml.gz"]).toMatchObject({ status: "success", urls: 3 });
    expect(lines["/bad-values.xml"]!.status).toBe("error");
    expect(lines["/bad-values.xml"]!.failing).toEqual(expect.arrayContaining(["lastmod", "changefreq", "priority"]));
    expect(lines["/status-404.xml"]).toMatchObject({ status: "error", failing: ["http-status"] });
    expect(lines["/nested-index.xml"]!.failing).toContain("sitemap-index");
    expect(lines["/good.xml@127.0.0.2"]).toMatchObject({ status: "error", failure: { key: "refusal.private-address" } });
  });

  it("more than 50 children: the first 50 are audited, and the index says so", async () => {
    const report = await at("/big-index.xml");
    expect(report.children).toHaveLength(50);
    expect(report.children.every((c) => c.status === "success")).toBe(true);
    expect(status(report, "sitemap-index")).toBe("warning");
    expect(report.checks.find((c) => c.id === "sitemap-index")!.message).toMatchObject({
      key: "sitemap-index.capped",
      values: { count: 55, audited: 50 },
    });
  });

  it("a clean index is clean", async () => {
    const report = await at("/good-index.xml");
    expect(report.children).toHaveLength(2);
    expect(status(report, "sitemap-index")).toBe("success");
    expect(problems(report)).toEqual(["robots-declared:warning:robots-declared.missing"]);
  });
});

describe("sitemap audit: robots.txt (RFC 9309)", () => {
  it("404: everything allowed, nothing declared", async () => {
    const report = await audit(`${robots404.origin}/good.xml`);
    expect(status(report, "robots-allowed")).toBe("success");
    expect(status(report, "robots-declared")).toBe("warning");
    expect(status(report, "robots-urls")).toBe("skipped");
  });
  it("500: everything disallowed", async () => {
    const report = await audit(`${robots500.origin}/good.xml`);
    expect(status(report, "robots-allowed")).toBe("error");
    expect(report.status).toBe("error");
  });
});

describe("sitemap audit: hostile URLs are refused before any request", () => {
  const refused: Array<[string, string]> = [
    ["redirect to 127.0.0.2", "/redirect-loopback"],
    ["redirect to 169.254.169.254", "/redirect-metadata"],
    ["redirect to an IPv4-mapped IPv6 loopback", "/redirect-mapped"],
    ["redirect to file:", "/redirect-file"],
  ];
  it.each(refused)("%s", async (_name, path) => {
    await expect(at(path)).rejects.toBeInstanceOf(AuditRefusal);
  });

  it("a name resolving to loopback (localhost on a port not allowed), loopback and metadata literals, Fly names, other schemes", async () => {
    const cases: Array<[string, string]> = [
      ["http://localhost:1/sitemap.xml", "private-address"],
      [`http://127.0.0.1:${main.port}/good.xml`, "private-address"],
      ["http://169.254.169.254/latest/meta-data/", "private-address"],
      ["http://[::1]/", "private-address"],
      ["http://[::ffff:10.0.0.1]/", "private-address"],
      ["http://[fdaa::3]/", "private-address"],
      ["http://0x7f.1/", "private-address"],
      ["http://2130706433/", "private-address"],
      ["http://my-app.internal/sitemap.xml", "private-name"],
      ["http://my-app.flycast./sitemap.xml", "private-name"],
      ["ftp://example.com/sitemap.xml", "scheme"],
      ["file:///etc/passwd", "scheme"],
      ["javascript:alert(1)", "scheme"],
      ["http://user:pw@example.com/", "credentials"],
      ["not a url", "invalid-url"],
    ];
    for (const [url, reason] of cases) {
      await expect(audit(url), url).rejects.toMatchObject({ reason });
    }
  });
});

describe("at most two audits at once", () => {
  it("a third waits for a free slot", async () => {
    let running = 0;
    let peak = 0;
    const task = () =>
      withAuditSlot(async () => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 50));
        running--;
      });
    await Promise.all([task(), task(), task(), task(), task()]);
    expect(peak).toBe(2);
  });
});
