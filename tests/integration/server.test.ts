import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postForm, startServer, type RunningServer } from "../support/server";

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

describe("the built server over HTTP", () => {
  it("/healthz and /healthz/live answer ok", async () => {
    for (const path of ["/healthz", "/healthz/live"]) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe("ok");
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
  });

  it("serves the home page in French with security headers", async () => {
    const res = await fetch(server.url);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toMatch(/<html lang="fr" data-theme="dark"/);
    // The whole stylesheet is inlined (decision 178): nothing holds back the first paint.
    const inlined = /<style id="site-css">([^<]+)<\/style>/.exec(html)?.[1] ?? "";
    expect(inlined.length).toBeGreaterThan(10_000);
    expect(inlined).toContain(":root[data-theme=light]");
    // The stylesheet's own bytes, read once at start, stand in for React's placeholder (decision 240).
    expect(inlined).toBe(fs.readFileSync(path.join(process.cwd(), "build", "site.css"), "utf8"));
    expect(html).not.toContain("<!--site-css-->");
    expect(html).not.toMatch(/rel="stylesheet"/);
    expect(res.headers.get("content-security-policy")).toContain("script-src 'self' 'nonce-");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const nonce = /nonce-([^']+)'/.exec(res.headers.get("content-security-policy")!)![1];
    expect(html).toContain(`nonce="${nonce}"`);
    // Static files are served before the per-request work (nonce, policy), with the fixed headers.
    const preloads = [...html.matchAll(/<link rel="modulepreload"([^>]*)>/g)].map((m) => m[1]!);
    expect(preloads.length).toBeGreaterThan(3);
    for (const attributes of preloads) expect(attributes).toMatch(/^ href="\/assets\/[^"]+\.js"/);
    const asset = await fetch(`${server.url}${/ href="(\/assets\/[^"]+\.js)"/.exec(preloads[0]!)![1]}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get("x-content-type-options")).toBe("nosniff");
    expect(asset.headers.get("content-security-policy")).toBeNull();
  });

  it("a page is French unless ?lng asks otherwise; the cookie sends a bare URL to its language (decision 220)", async () => {
    const de = await fetch(server.url, { headers: { "Accept-Language": "de-DE,de;q=0.9" } });
    expect(await de.text()).toMatch(/<html lang="fr"/);
    const es = await fetch(`${server.url}/?lng=es`, { headers: { "Accept-Language": "de-DE" } });
    expect(await es.text()).toMatch(/<html lang="es"/);
    expect(es.headers.get("set-cookie")).toMatch(/^language=es;/);
    const cookie = await fetch(server.url, { headers: { "Accept-Language": "de-DE", Cookie: "language=en" } });
    expect(cookie.url).toMatch(/\/\?lng=en$/);
    expect(await cookie.text()).toMatch(/<html lang="en"/);
  });

  it("/preferences sets the cookies and redirects (303) back, only to local paths", async () => {
    const lang = await postForm(`${server.url}/preferences`, {
      intent: "set-language",
      language: "en",
      redirectTo: "/submit?lng=de",
    });
    expect(lang.status).toBe(303);
    expect(lang.headers.get("location")).toBe("/submit?lng=en");
    expect(lang.headers.get("set-cookie")).toMatch(/^language=en;/);
    const theme = await postForm(`${server.url}/preferences`, {
      intent: "set-theme",
      theme: "light",
      redirectTo: "//evil.example",
    });
    expect(theme.status).toBe(303);
    expect(theme.headers.get("location")).toBe("/");
    expect(theme.headers.get("set-cookie")).toMatch(/^theme=light;/);
    const page = await fetch(server.url, { headers: { Cookie: "theme=light" } });
    expect(await page.text()).toMatch(/data-theme="light"/);
    const bad = await postForm(`${server.url}/preferences`, { intent: "set-language", language: "xx" });
    expect(bad.status).toBe(400);
  });

  it("unknown paths answer 404 with the not-found page, no stack trace", async () => {
    const res = await fetch(`${server.url}/no/such/page`);
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain('data-testid="not-found"');
    expect(html).not.toMatch(/at .*\.js:\d+/);
  });

  it("hashed assets are cached for a year, precompressed when accepted", async () => {
    const html = await (await fetch(server.url)).text();
    const asset = /\/assets\/entry\.client-[^"]+\.js/.exec(html)?.[0] ?? /\/assets\/[^"]+\.js/.exec(html)![0];
    const res = await fetch(`${server.url}${asset}`, { headers: { "Accept-Encoding": "br" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("max-age=31536000");
    expect(res.headers.get("cache-control")).toContain("immutable");
  });

  it("pushes a change of enable_theme_toggle to open pages (server-sent events)", async () => {
    const controller = new AbortController();
    const res = await fetch(`${server.url}/events/settings`, { signal: controller.signal });
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    controller.abort();
  });

  it("refuses to start in production without SESSION_SECRET", async () => {
    await expect(startServer({ SESSION_SECRET: "" })).rejects.toThrow(/SESSION_SECRET is required/);
  });

  it("says it serves the production build, as `npm start` runs it (NODE_ENV unset)", async () => {
    expect(server.output()).toMatch(/listening on http:\/\/localhost:\d+ \(production build, React production\)/);
    const other = await startServer({ NODE_ENV: "development" });
    try {
      expect(other.output()).toContain("(production build, React production)");
      expect(other.output()).not.toMatch(/\(development/);
    } finally {
      await other.stop();
    }
  });

  it("closes the database and exits on SIGTERM", async () => {
    const other = await startServer();
    await other.stop();
    expect(other.output()).toContain("database closed");
  });
});
