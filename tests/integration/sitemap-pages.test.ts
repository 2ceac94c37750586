import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openRawDb, type RawDb } from "../support/fixtures";
import { ROOT } from "../support/paths";
import { startServer, type RunningServer } from "../support/server";

/** Sitemap, feeds and breadcrumbs: complete, and each language names its own URLs (decisions 220, 221). */
let server: RunningServer;
let raw: RawDb;
const SITE = "https://parrainly.test";
beforeAll(async () => {
  server = await startServer({ SEED_DEMO: "1", SITE_URL: SITE });
  raw = openRawDb(server.dbFile);
});
afterAll(async () => {
  await raw?.close();
  await server?.stop();
});

const LANGUAGES = ["fr", "en", "de", "es"] as const;
const inLanguage = (url: string, lng: string) => (lng === "fr" ? url : `${url}${url.includes("?") ? "&" : "?"}lng=${lng}`);
const decode = (s: string) => s.replaceAll("&amp;", "&");

/** The URL of every page route the router has, from the files themselves (`{slug}` for a platform). */
function routePatterns(): string[] {
  return fs
    .readdirSync(path.join(ROOT, "app/routes"))
    .filter((f) => f.endsWith(".tsx"))
    .map((f) => f.replace(/\.tsx$/, ""))
    .filter((id) => !/^\$$/.test(id)) // the not-found page
    .map(
      (id) =>
        "/" +
        id
          .split(/\.(?![^[]*\])/)
          .filter((s) => s !== "_index")
          .map((s) =>
            s
              .replace(/_$/, "")
              .replace(/^\$slug$/, "{slug}")
              .replace(/\[(.*?)\]/g, "$1"),
          )
          .join("/"),
    )
    .filter((pattern) => !/\$/.test(pattern)); // other parameters (a token, an id): private pages
}

async function isIndexablePage(url: string): Promise<boolean> {
  const res = await fetch(url, { redirect: "manual" });
  if (res.status !== 200 || !res.headers.get("content-type")?.startsWith("text/html")) return false;
  return !/<meta name="robots" content="noindex/.test(await res.text());
}

describe("sitemap: every indexable page, from the route list", () => {
  it("lists every page route that answers an indexable page, and nothing else; /platforms included", async () => {
    const xml = await (await fetch(`${server.url}/sitemap.xml`)).text();
    const locs = new Set([...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => decode(m[1]!)));
    const slug = (await raw.all<{ slug: string }>("select slug from platforms where is_active = 1 order by slug"))[0]!.slug;
    const missing: string[] = [];
    const listedButNot: string[] = [];
    for (const pattern of routePatterns()) {
      const pagePath = pattern.replace("{slug}", slug);
      const indexable = await isIndexablePage(`${server.url}${pagePath}`);
      for (const lng of LANGUAGES) {
        const loc = inLanguage(`${SITE}${pagePath}`, lng);
        if (indexable && !locs.has(loc)) missing.push(loc);
        if (!indexable && locs.has(loc)) listedButNot.push(loc);
      }
    }
    expect(missing).toEqual([]);
    expect(listedButNot).toEqual([]);
    for (const lng of LANGUAGES) expect(locs).toContain(inLanguage(`${SITE}/platforms`, lng));
  });
});

describe("Atom feed: one per language", () => {
  it("each language's feed names itself (rel=self, <id>) and links its own pages; the home page points at it", async () => {
    for (const lng of LANGUAGES) {
      const self = inLanguage(`${SITE}/feeds/platforms.atom`, lng);
      const res = await fetch(`${server.url}${inLanguage("/feeds/platforms.atom", lng)}`, {
        headers: { "Accept-Language": "de", Cookie: "language=es" },
      });
      expect(res.status).toBe(200);
      const xml = await res.text();
      expect(xml).toContain(`xml:lang="${lng}"`);
      expect(decode(/<link rel="self" type="application\/atom\+xml" href="([^"]+)"/.exec(xml)![1]!)).toBe(self);
      expect(decode(/<feed[^>]*>\s*<id>([^<]+)<\/id>/.exec(xml)![1]!)).toBe(self);
      expect(decode(/<link rel="alternate" type="text\/html" href="([^"]+)"\/>\s*<updated>/.exec(xml)![1]!)).toBe(
        inLanguage(`${SITE}/`, lng),
      );
      const entryLinks = [...xml.matchAll(/<entry>[^]*?<link rel="alternate" type="text\/html" href="([^"]+)"/g)].map((m) =>
        decode(m[1]!),
      );
      expect(entryLinks.length).toBeGreaterThan(3);
      for (const link of entryLinks)
        expect(link).toMatch(lng === "fr" ? /^https:\/\/parrainly\.test\/[\w-]+$/ : new RegExp(`\\?lng=${lng}$`));
      const ids = [...xml.matchAll(/<entry>\s*<id>([^<]+)<\/id>/g)].map((m) => m[1]!);
      for (const id of ids) expect(id.endsWith(`:${lng}`)).toBe(lng !== "fr");
      const home = await (await fetch(`${server.url}${inLanguage("/", lng)}`)).text();
      expect(decode(/<link rel="alternate" type="application\/atom\+xml"[^>]*href="([^"]+)"/.exec(home)![1]!)).toBe(self);
    }
  });
});

describe("BreadcrumbList: in the page's language", () => {
  it("every crumb is the page language's URL, the home crumb always SITE_URL/", async () => {
    const slug = (await raw.all<{ slug: string }>("select slug from platforms where is_active = 1 order by slug"))[0]!.slug;
    const pages = [
      "/platforms",
      "/partnerships",
      "/suggest-platform",
      "/privacy",
      "/terms",
      "/sitemap-audit",
      `/${slug}`,
      `/${slug}/get-code`,
    ];
    for (const page of pages) {
      for (const lng of LANGUAGES) {
        const html = await (await fetch(`${server.url}${inLanguage(page, lng)}`)).text();
        type Block = { "@type": string; itemListElement?: Array<{ item: string; name: string; position: number }> };
        // A script holds one block or an array of them (a platform with an offer: the crumbs and the guide).
        const blocks = [...html.matchAll(/<script type="application\/ld\+json">([^<]+)<\/script>/g)].flatMap(
          (m) => JSON.parse(m[1]!) as Block | Block[],
        );
        const crumbs = blocks.find((b) => b["@type"] === "BreadcrumbList")?.itemListElement;
        expect(crumbs, `${page} ${lng}`).toBeDefined();
        expect(crumbs![0]!.item).toBe(inLanguage(`${SITE}/`, lng));
        expect(crumbs!.at(-1)!.item).toBe(inLanguage(`${SITE}${page}`, lng));
        for (const crumb of crumbs!) expect(crumb.item).toBe(inLanguage(crumb.item.replace(/\?lng=\w+$/, ""), lng));
      }
    }
    // The home crumb's name is the page's language's word for it.
    const names = await Promise.all(
      LANGUAGES.map(async (lng) => {
        const html = await (await fetch(`${server.url}${inLanguage("/platforms", lng)}`)).text();
        return /"position":1,"name":"([^"]+)"/.exec(html)?.[1];
      }),
    );
    expect(new Set(names).size).toBe(4);
  });
});
