import { expect, test, type Page, type TestInfo } from "@playwright/test";
import { expectLaidOut } from "./layout-rules";
import { sitemapPaths } from "../support/site-pages";
import { KEY_PAGES, SWEPT_PAGES } from "./public-pages";
import { createE2eCode, createE2ePlatform, e2eDb, hydrated, jsDisabled } from "./support";

/**
 * The layout check: what the eye sees, at 320 px and 1280 px. A field or button far
 * taller than its text (the /platforms search input once drawn 192 px tall), anything wider than the
 * window, two controls or text blocks drawn over each other, a line of text touching the box beside
 * it. One load per page (read at 320 px, then again once the window is 1280 px wide), JS project
 * only: the no-JS page has the same CSS. The sweep (sweep.spec.ts) applies these rules to the pages it
 * reads; this file reads the others and a draw result. The key pages' screenshots go to the test report.
 */
const WIDTHS = [320, 1280] as const;
/**
 * The pages the sweep does not read (it reads SWEPT_PAGES with these same rules on its French load).
 * Every page of the sitemap but the platforms' own is in one list or the other: the first test fails on
 * a page added to the sitemap and to neither.
 */
const PAGES = ["/fairness", "/fairness/ledger", "/sitemap-audit"];

async function checkPage(page: Page, path: string, name: string, testInfo: TestInfo) {
  const [narrow, wide] = WIDTHS;
  await page.setViewportSize({ width: narrow, height: 800 });
  await page.goto(path);
  await hydrated(page);
  await expectLaidOut(page, `${name} at ${narrow} px`);
  if (KEY_PAGES.has(name))
    await testInfo.attach(`${name} ${narrow}px`, { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
  await page.setViewportSize({ width: wide, height: 800 });
  // A frame and a task: what a script does about the new width (a media query's listener) is in.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
  await expectLaidOut(page, `${name} at ${wide} px`);
  if (KEY_PAGES.has(name))
    await testInfo.attach(`${name} ${wide}px`, { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
}

test.describe("layout", () => {
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a hook destructures
  test.beforeEach(({}, testInfo) => test.skip(jsDisabled(testInfo), "the same CSS; one project is enough"));

  test("the list holds every page of the sitemap but the platforms' own", async ({ baseURL }) => {
    const slugs = (await e2eDb().selectFrom("platforms").select("slug").execute()).map((p) => p.slug);
    const platformPages = new Set(slugs.flatMap((slug) => [`/${slug}`, `/${slug}/get-code`]));
    const sitePages = (await sitemapPaths(baseURL!, baseURL!)).filter((p) => !platformPages.has(p));
    expect(sitePages.length).toBeGreaterThan(5);
    expect([...PAGES, ...SWEPT_PAGES]).toEqual(expect.arrayContaining(sitePages));
  });

  for (const path of PAGES) {
    test(path, async ({ page }, testInfo) => {
      await checkPage(page, path, path, testInfo);
    });
  }

  test("a draw result", async ({ page }, testInfo) => {
    const p = await createE2ePlatform();
    await createE2eCode(p.id, { code: "LAYOUT1", times_served: 1000 });
    const drawn = await page.request.post(`/${p.slug}/get-code`, { form: { intent: "draw" }, maxRedirects: 0 });
    expect(drawn.status()).toBe(303);
    await checkPage(page, drawn.headers().location!, "draw result", testInfo);
    await expect(page.getByTestId("drawn-code")).toHaveText("LAYOUT1");
  });
});
