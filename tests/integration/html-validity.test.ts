import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { htmlErrors } from "../support/html-validity";
import { postForm, startServer, type RunningServer } from "../support/server";
import { LANGUAGES, sitemapPaths, withLng } from "../support/site-pages";

/** Every public page, in each language and in the states a visitor meets, is valid HTML with valid ARIA. */
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ SEED_DEMO: "1", SITE_URL: "https://parrainly.test" });
});
afterAll(async () => {
  await server?.stop();
});

describe("html-validate: 0 errors", () => {
  it("over every page of the sitemap in 4 languages, and the pages' other states", async () => {
    const paths = [
      ...(await sitemapPaths(server.url, "https://parrainly.test")),
      "/platforms?q=zzzz",
      "/no-such-page-here",
      `/sitemap-audit?url=${encodeURIComponent("http://127.0.0.1/sitemap.xml")}`,
    ];
    expect(paths.length).toBeGreaterThan(20);
    const errors: string[] = [];
    let pages = 0;
    const check = async (label: string, response: Response) => {
      pages++;
      for (const error of await htmlErrors(await response.text(), label)) errors.push(`${label}: ${error}`);
    };
    for (const path of paths) {
      for (const lng of LANGUAGES) await check(withLng(path, lng), await fetch(`${server.url}${withLng(path, lng)}`));
    }
    // The French page offering the browser's language.
    await check("/ offering English", await fetch(server.url, { headers: { "Accept-Language": "en-US" } }));
    for (const lng of LANGUAGES) {
      const cookie = `language=${lng}`;
      // Forms sent empty: every message next to its field, every aria-describedby naming an id in the page.
      await check(`/submit empty ${lng}`, await postForm(`${server.url}/submit`, { intent: "submit" }, { cookie }));
      await check(
        `/suggest-platform empty ${lng}`,
        await postForm(`${server.url}/suggest-platform`, { intent: "suggest" }, { cookie }),
      );
      // A draw's result page.
      const drawn = await postForm(`${server.url}/random`, { intent: "draw" }, { cookie });
      const location = drawn.headers.get("location");
      if (location) await check(`draw result ${lng}`, await fetch(`${server.url}${location}`, { headers: { Cookie: cookie } }));
    }
    expect(pages).toBeGreaterThan(100);
    expect(errors).toEqual([]);
  }, 120_000);
});
