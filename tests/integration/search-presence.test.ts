import net from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openTestDb } from "../support/fixtures";
import { startSitemapFixtures, type SitemapFixtures } from "../support/sitemap-fixtures";
import { cookiesFrom, postForm, startServer, type RunningServer } from "../support/server";

/**
 * Over HTTP against the built server: the audit page and its JSON answer, our own sitemap audited
 * clean, languages on their own URLs, cache headers, analytics only after consent, ads.txt.
 */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let server: RunningServer;
let fixtures: SitemapFixtures;
let base: string;

beforeAll(async () => {
  fixtures = await startSitemapFixtures("ok");
  const port = await freePort();
  base = `http://localhost:${port}`;
  server = await startServer({
    PORT: String(port),
    SITE_URL: base,
    // Our own site and the fixture server; nothing else private is reachable.
    AUDIT_ALLOWED_HOSTS: `localhost:${port},${fixtures.hostKey}`,
    // Each test comes from its own address, so the per-address audit limit is tested, not hit.
    TRUST_PROXY: "1",
  });
});
let clientAddress = "";
let clients = 0;
beforeEach(() => {
  clientAddress = `203.0.113.${++clients}`;
});
afterAll(async () => {
  await server?.stop();
  await fixtures?.close();
});

const page = (path: string, init: RequestInit = {}) =>
  fetch(`${base}${path}`, {
    redirect: "manual",
    ...init,
    headers: { "X-Forwarded-For": clientAddress, ...(init.headers as Record<string, string> | undefined) },
  });
const checks = (html: string) =>
  [...html.matchAll(/data-testid="audit-check" data-check="([\w-]+)" data-status="(\w+)"/g)].map((m) => `${m[1]}:${m[2]}`);

describe("our own sitemap passes our own audit", () => {
  it("no error and no warning, as HTML (JS off) and as JSON", async () => {
    const url = encodeURIComponent(`${base}/sitemap.xml`);
    const response = await page(`/sitemap-audit?url=${url}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('data-testid="audit-overall" data-status="success"');
    const found = checks(html);
    expect(found.length).toBeGreaterThanOrEqual(20);
    expect(found.filter((c) => /:(warning|error)$/.test(c))).toEqual([]);

    const json = (await (await page(`/sitemap-audit.json?url=${url}`)).json()) as {
      status: string;
      checks: Array<{ id: string; status: string; message: string }>;
    };
    expect(json.status).toBe("success");
    expect(json.checks.filter((c) => c.status === "warning" || c.status === "error")).toEqual([]);
    expect(json.checks.find((c) => c.id === "url-count")!.message).toMatch(/URL listées\s: \d+/);
  });

  it("audited while another audit waits on a slow site, every render place taken: still clean", async () => {
    // The slow audit holds an audit slot for 3.1 s; this one the other. Were audits holding render
    // places (2), our /sitemap.xml would wait behind them and get the 503 after 1 s.
    const slow = page(`/sitemap-audit?url=${encodeURIComponent(`${fixtures.origin}/slower.xml`)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    clientAddress = `203.0.113.${++clients}`;
    const own = (await (await page(`/sitemap-audit.json?url=${encodeURIComponent(`${base}/sitemap.xml`)}`)).json()) as {
      checks: Array<{ id: string; status: string }>;
    };
    expect(own.checks.filter((c) => c.status === "warning" || c.status === "error")).toEqual([]);
    expect((await slow).status).toBe(200);
  });

  it("the sitemap lists every language version with the five alternates", async () => {
    const xml = await (await page("/sitemap.xml")).text();
    for (const loc of ["/tesla", "/tesla?lng=en", "/tesla?lng=de", "/tesla?lng=es"])
      expect(xml).toContain(`<loc>${base}${loc}</loc>`);
    const first = /<url>[^]*?<\/url>/.exec(xml)![0];
    for (const lang of ["fr", "en", "de", "es", "x-default"]) expect(first).toContain(`hreflang="${lang}"`);
  });
});

describe("the audit page", () => {
  it("shows the form with our sitemap and www checked by default; Accept: application/json gets JSON", async () => {
    const html = await (await page("/sitemap-audit")).text();
    expect(html).toContain(`value="${base}/sitemap.xml"`);
    expect(html).toMatch(/<input id="audit-www" type="checkbox"[^>]* name="www" checked=""/);
    const json = await page(`/sitemap-audit?url=${encodeURIComponent(`${fixtures.origin}/good.xml`)}&www=on`, {
      headers: { Accept: "application/json" },
    });
    expect(json.headers.get("content-type")).toMatch(/application\/json/);
    const body = (await json.json()) as { status: string; www: boolean; checks: Array<{ id: string; status: string }> };
    expect(body.www).toBe(true);
    // localhost has no www: the checkbox says the property uses it.
    expect(body.checks.find((c) => c.id === "www")!.status).toBe("error");
  });

  it("a report in the visitor's language, with the failing checks and their URLs", async () => {
    const response = await page(`/sitemap-audit?lng=en&url=${encodeURIComponent(`${fixtures.origin}/bad-values.xml`)}`);
    const html = await response.text();
    expect(html).toContain('data-testid="audit-overall" data-status="error"');
    expect(checks(html)).toEqual(expect.arrayContaining(["lastmod:error", "changefreq:error", "priority:error", "www:success"]));
    expect(html).toContain("Dates not in W3C format");
    expect(html).toContain(`${fixtures.origin}/ — 02/01/2026`);
  });

  it.each([
    ["a redirect to 127.0.0.2", "fixture:/redirect-loopback", 403],
    ["a redirect to the metadata address", "fixture:/redirect-metadata", 403],
    ["a name resolving to loopback", "http://localhost:1/sitemap.xml", 403],
    ["a private address", "http://10.0.0.1/sitemap.xml", 403],
    ["another scheme", "file:///etc/passwd", 400],
  ])("refuses %s with a 4xx and data-testid=audit-refused", async (_name, target, status) => {
    const url = target.replace(/^fixture:/, fixtures.origin);
    const response = await page(`/sitemap-audit?url=${encodeURIComponent(url)}`);
    expect(response.status).toBe(status);
    const html = await response.text();
    expect(html).toContain('data-testid="audit-refused"');
    expect(html).not.toContain('data-testid="audit-report"');
  });

  it("a fetch that fails: 'Erreur lors de l'audit' with the reason, in the visitor's language; JSON too", async () => {
    const url = encodeURIComponent(`${fixtures.origin}/loop/0`);
    const fr = await page(`/sitemap-audit?url=${url}`);
    expect(fr.status).toBe(502);
    const html = await fr.text();
    expect(html).toContain("Erreur lors de l&#x27;audit");
    expect(html).toContain("Trop de redirections");
    const de = await page(`/sitemap-audit?url=${url}&lng=de`);
    expect(await de.text()).toContain("Fehler bei der Prüfung");
    const json = await page(`/sitemap-audit.json?url=${url}`);
    expect(json.status).toBe(502);
    expect(await json.json()).toMatchObject({ error: "fetch-failed", reason: "too-many-redirects" });
    const refused = await page(`/sitemap-audit.json?url=${encodeURIComponent("http://169.254.169.254/")}`);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: "refused", reason: "private-address" });
  });
});

describe("audit limits", () => {
  it("each address gets 10 audits a minute, then a 429 with Retry-After", async () => {
    const url = encodeURIComponent("http://10.0.0.1/sitemap.xml");
    for (let i = 0; i < 10; i++) expect((await page(`/sitemap-audit.json?url=${url}`)).status).toBe(403);
    const limited = await page(`/sitemap-audit.json?url=${url}`);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    const html = await page(`/sitemap-audit?url=${url}`);
    expect(html.status).toBe(429);
    clientAddress = "203.0.113.251";
    expect((await page(`/sitemap-audit.json?url=${url}`)).status).toBe(403);
  });
});

describe("languages, canonical and caches", () => {
  it("each language on its own URL with a self-referencing canonical and hreflang alternates", async () => {
    for (const [query, lang, canonical] of [
      ["", "fr", `${base}/partnerships`],
      ["?lng=en", "en", `${base}/partnerships?lng=en`],
      ["?lng=de", "de", `${base}/partnerships?lng=de`],
      ["?lng=es", "es", `${base}/partnerships?lng=es`],
    ] as const) {
      const html = await (await page(`/partnerships${query}`)).text();
      expect(html).toContain(`<html lang="${lang}"`);
      expect(html).toContain(`<link rel="canonical" href="${canonical}"/>`);
      for (const [hreflang, href] of [
        ["fr", `${base}/partnerships`],
        ["en", `${base}/partnerships?lng=en`],
        ["de", `${base}/partnerships?lng=de`],
        ["es", `${base}/partnerships?lng=es`],
        ["x-default", `${base}/partnerships`],
      ])
        expect(html.toLowerCase()).toContain(`<link rel="alternate" hreflang="${hreflang}" href="${href}"/>`.toLowerCase());
    }
  });

  it("an error page names no canonical and no alternates (they would name the home page), and is not indexed", async () => {
    const response = await page("/no-such-page?lng=en");
    expect(response.status).toBe(404);
    const html = await response.text();
    expect(html).not.toMatch(/rel="(canonical|alternate)"/);
    expect(html).toContain('<meta name="robots" content="noindex, nofollow"/>');
  });

  it("HTML that depends on cookies says so to caches", async () => {
    for (const path of ["/", "/tesla", "/sitemap-audit", "/no-such-page"]) {
      const response = await page(path);
      expect(response.headers.get("vary"), path).toMatch(/Cookie/);
      expect(response.headers.get("cache-control"), path).toMatch(/private/);
    }
  });

  it("Organization on home, BreadcrumbList on platform and draw pages", async () => {
    expect(await (await page("/")).text()).toContain('"@type":"Organization"');
    for (const path of ["/tesla", "/tesla/get-code"])
      expect(await (await page(path)).text(), path).toContain('"@type":"BreadcrumbList"');
  });
});

describe("analytics and ads: nothing unless configured, and then only after consent", () => {
  const GOOGLE = /googletagmanager|googlesyndication|google-analytics/;

  it("with nothing set: no banner, no tag, CSP unchanged, no ads.txt", async () => {
    const response = await page("/", { headers: { Cookie: "consent=granted" } });
    const html = await response.text();
    expect(html).not.toMatch(GOOGLE);
    expect(html).not.toContain("consent-banner");
    expect(response.headers.get("content-security-policy")).not.toMatch(GOOGLE);
    expect((await page("/ads.txt")).status).toBe(404);
  });

  it("when set: banner without JS, nothing loaded before consent, tags and widened CSP after; ads.txt", async () => {
    const db = openTestDb(server.dbFile);
    const settings: Record<string, string> = {
      gtm_id: "GTM-ABC123",
      ga4_id: "G-XYZ789",
      adsense_account_id: "ca-pub-1234567890123456",
      adsense_head:
        '<script async src="https://pagead2.googlesyndication.com/pagead/js/adsbygoogle.js?client=ca-pub-1234567890123456"></script>',
      adsense_body:
        '<ins class="adsbygoogle" data-ad-client="ca-pub-1234567890123456" data-ad-slot="42" onload="alert(1)"></ins><script>alert(2)</script>',
    };
    for (const [key, value] of Object.entries(settings))
      await db.updateTable("settings").set({ value }).where("key", "=", key).execute();
    await db.destroy();
    // The settings are cached in the server: a save through the admin clears it; here, a restart.
    await server.stop();
    server = await startServer({
      DATABASE_FILE: server.dbFile,
      PORT: new URL(base).port,
      SITE_URL: base,
      AUDIT_ALLOWED_HOSTS: `localhost:${new URL(base).port}`,
      TRUST_PROXY: "1",
    });

    const before = await page("/tesla");
    const html = await before.text();
    expect(html).toContain('data-testid="consent-banner"');
    expect(html).not.toMatch(GOOGLE);
    expect(before.headers.get("content-security-policy")).not.toMatch(GOOGLE);

    const refused = await postForm(`${base}/preferences`, { intent: "set-consent", consent: "denied", redirectTo: "/tesla" });
    expect(refused.status).toBe(303);
    const deniedHtml = await (await page("/tesla", { headers: { Cookie: cookiesFrom(refused) } })).text();
    expect(deniedHtml).not.toMatch(GOOGLE);
    expect(deniedHtml).not.toContain('data-testid="consent-banner"');
    expect(deniedHtml).toContain('data-testid="consent-manage"');

    const accepted = await postForm(`${base}/preferences`, { intent: "set-consent", consent: "granted", redirectTo: "/tesla" });
    expect(accepted.headers.get("location")).toBe("/tesla");
    const after = await page("/tesla", { headers: { Cookie: cookiesFrom(accepted) } });
    const tags = await after.text();
    expect(tags).toContain('src="https://www.googletagmanager.com/gtm.js?id=GTM-ABC123"');
    expect(tags).toContain('src="https://www.googletagmanager.com/gtag/js?id=G-XYZ789"');
    expect(tags).toContain("adsbygoogle.js?client=ca-pub-1234567890123456");
    expect(tags).toContain('data-ad-slot="42"');
    // The admin's snippet is read, never pasted: its handlers and scripts do not reach the page.
    expect(tags).not.toContain("alert(");
    const csp = after.headers.get("content-security-policy")!;
    expect(csp).toMatch(/script-src [^;]*https:\/\/www\.googletagmanager\.com/);
    expect(csp).toMatch(/script-src [^;]*https:\/\/pagead2\.googlesyndication\.com/);
    expect(csp).toMatch(/connect-src [^;]*google-analytics\.com/);
    expect(after.headers.get("content-security-policy")?.match(/default-src/g)).toHaveLength(1);

    expect(await (await page("/ads.txt")).text()).toBe("google.com, pub-1234567890123456, DIRECT, f08c47fec0942fa0\n");
  });
});
