import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postForm, startServer, type RunningServer } from "../support/server";
import { LANGUAGES, sitemapPaths, withLng } from "../support/site-pages";

/**
 * React 18.3.1's Node stream once sent a stray 0x00 byte wherever a multi-byte character straddled
 * the end of its 2,048-byte buffer (which page depended on byte offsets). Every public page, in each
 * language, asked for each way a visitor can choose one, must come out without any.
 */
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ SEED_DEMO: "1", SITE_URL: "https://parrainly.test" });
});
afterAll(async () => {
  await server?.stop();
});

/** Pages no sitemap lists (forms, results, audit, not found), beside every page the sitemap lists. */
const UNLISTED = ["/submit", "/suggest-platform", "/random", "/sitemap-audit", "/platforms?q=a", "/no-such-page-here"];

function nulCount(bytes: Uint8Array): number {
  let n = 0;
  for (const b of bytes) if (b === 0) n++;
  return n;
}

describe("no NUL byte in any page", () => {
  it("every public page x 4 languages x ?lng, cookie and Accept-Language, and the forms' error pages", async () => {
    const paths = [...(await sitemapPaths(server.url, "https://parrainly.test")), ...UNLISTED];
    expect(paths.length).toBeGreaterThan(20);
    const found: string[] = [];
    let pages = 0;
    const check = async (label: string, response: Response) => {
      const bytes = new Uint8Array(await response.arrayBuffer());
      pages++;
      const n = nulCount(bytes);
      if (n > 0) found.push(`${label}: ${n}`);
    };
    for (const path of paths) {
      for (const lng of LANGUAGES) {
        await check(`${path} ?lng=${lng}`, await fetch(`${server.url}${withLng(path, lng)}`));
        await check(`${path} cookie ${lng}`, await fetch(`${server.url}${path}`, { headers: { Cookie: `language=${lng}` } }));
        await check(
          `${path} Accept-Language ${lng}`,
          await fetch(`${server.url}${path}`, { headers: { "Accept-Language": lng } }),
        );
      }
    }
    for (const lng of LANGUAGES) {
      const cookie = `language=${lng}`;
      await check(`/submit empty ${lng}`, await postForm(`${server.url}/submit`, { intent: "submit" }, { cookie }));
      await check(
        `/suggest-platform empty ${lng}`,
        await postForm(`${server.url}/suggest-platform`, { intent: "suggest" }, { cookie }),
      );
    }
    expect(pages).toBeGreaterThan(300);
    expect(found).toEqual([]);
  }, 180_000);
});
