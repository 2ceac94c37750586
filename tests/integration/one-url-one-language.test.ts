import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postForm, startServer, type RunningServer } from "../support/server";

/** Decision 220: no URL answers in two languages, whoever asks. */
let server: RunningServer;
beforeAll(async () => {
  // The page cache on, as in production: it must not give one visitor's language to another.
  server = await startServer({ SEED_DEMO: "1", SITE_URL: "https://parrainly.test", PAGE_CACHE_MS: "60000" });
});
afterAll(async () => {
  await server?.stop();
});

const lang = (html: string) => /<html lang="(\w+)"/.exec(html)?.[1];
const canonical = (html: string) => /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1]?.replaceAll("&amp;", "&");
const offer = (html: string) => /data-testid="language-offer"><a href="([^"]+)" lang="(\w+)"/.exec(html)?.slice(1);

describe("one URL, one language", () => {
  it("the bare URL is French with its own canonical whatever the browser asks, and offers the browser's language", async () => {
    for (const [accept, offered] of [
      ["en-US,en;q=0.9", "en"],
      ["de-DE,de;q=0.9,fr;q=0.5", "de"],
      ["es", "es"],
    ] as const) {
      const res = await fetch(`${server.url}/platforms`, { headers: { "Accept-Language": accept } });
      expect(res.status).toBe(200);
      expect(res.headers.get("vary")).toMatch(/Cookie/);
      expect(res.headers.get("vary")).toMatch(/Accept-Language/);
      const html = await res.text();
      expect(lang(html)).toBe("fr");
      expect(canonical(html)).toBe("https://parrainly.test/platforms");
      // The offer is in the offered language's words, to the same page in that language.
      expect(offer(html)).toEqual([`/platforms?lng=${offered}`, offered]);
    }
    // A French browser, or none (a crawler), is offered nothing.
    for (const headers of [{ "Accept-Language": "fr-FR" }, {}] as Array<Record<string, string>>) {
      const html = await (await fetch(`${server.url}/platforms`, { headers })).text();
      expect(lang(html)).toBe("fr");
      expect(offer(html)).toBeUndefined();
    }
  });

  it("a visitor who chose a language (cookie) is sent from the bare URL to that language's URL", async () => {
    for (const path of ["/", "/platforms?q=a", "/no-such-page"]) {
      const res = await fetch(`${server.url}${path}`, { headers: { Cookie: "language=de" }, redirect: "manual" });
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe(`${path}${path.includes("?") ? "&" : "?"}lng=de`);
      expect(res.headers.get("vary")).toMatch(/Cookie/);
    }
    // French chosen: the bare URL itself, no offer.
    const fr = await fetch(`${server.url}/`, { headers: { Cookie: "language=fr", "Accept-Language": "en" }, redirect: "manual" });
    expect(fr.status).toBe(200);
    const html = await fr.text();
    expect(lang(html)).toBe("fr");
    expect(offer(html)).toBeUndefined();
  });

  it("?lng= wins over cookie and browser, and every sitemap URL is the language and canonical it says", async () => {
    const xml = await (await fetch(`${server.url}/sitemap.xml`)).text();
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!.replaceAll("&amp;", "&"));
    expect(locs.length).toBeGreaterThan(40);
    for (const loc of locs) {
      const expected = /[?&]lng=(\w+)$/.exec(loc)?.[1] ?? "fr";
      const path = loc.replace("https://parrainly.test", "");
      const html = await (await fetch(`${server.url}${path}`, { headers: { "Accept-Language": "en-US,en;q=0.9" } })).text();
      expect([loc, lang(html)]).toEqual([loc, expected]);
      expect(canonical(html)).toBe(loc);
    }
  });

  it("the language form sends to the chosen language's URL", async () => {
    const en = await postForm(`${server.url}/preferences`, {
      intent: "set-language",
      language: "en",
      redirectTo: "/submit?lng=de",
    });
    expect(en.status).toBe(303);
    expect(en.headers.get("location")).toBe("/submit?lng=en");
    expect(en.headers.get("set-cookie")).toMatch(/^language=en;/);
    const fr = await postForm(`${server.url}/preferences`, {
      intent: "set-language",
      language: "fr",
      redirectTo: "/fairness?lng=es",
    });
    expect(fr.headers.get("location")).toBe("/fairness");
  });
});

describe("a form's answer", () => {
  it("is rendered, not redirected, in the language of the visitor who sent it", async () => {
    const res = await postForm(`${server.url}/submit`, { intent: "submit" }, { cookie: "language=de" });
    expect(res.status).toBe(400);
    expect(lang(await res.text())).toBe("de");
  });
});
