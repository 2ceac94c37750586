import { expect, test, type Page } from "@playwright/test";
import { NO_JS_ONLY } from "./support";

/**
 * The site's links are plain `<a href data-discover>` (SiteLink, decision 263): one listener for the
 * whole document hands a plain left click to Remix's router; everything else is the browser's.
 * "Same document" is a mark set on `window` before the click: a full page load clears it.
 */
const mark = (page: Page) => page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
const sameDocument = (page: Page) => page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument === true);

/** Puts a link at the top of the page: `href`, text, id and the attributes given (none of React's). */
async function addLink(page: Page, id: string, href: string, attributes: Record<string, string>) {
  await page.evaluate(
    ({ id, href, attributes }) => {
      const a = document.createElement("a");
      a.href = href;
      a.id = id;
      a.textContent = id;
      for (const [name, value] of Object.entries(attributes)) a.setAttribute(name, value);
      document.body.prepend(a);
    },
    { id, href, attributes },
  );
}

/** Resolves once React has hydrated the header (its links and forms work from then on): its navigation's wrapper is React's. */
async function waitForHydration(page: Page) {
  await page.waitForFunction(() => {
    const el = document.querySelector("#main-nav");
    return !!el && Object.keys(el).some((k) => k.startsWith("__reactFiber"));
  });
}

test("without JavaScript the header's links are plain links, and they work", NO_JS_ONLY, async ({ page }) => {
  // Without JavaScript only: the no-JS case.
  await page.goto("/");
  const link = page.locator("header nav[aria-label] a[href='/submit']").last();
  await expect(link).toHaveAttribute("data-discover", "true");
  await link.click();
  await expect(page).toHaveURL(/\/submit$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
});

test.describe("with JavaScript", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the listener needs JavaScript");

  test("a plain click on a site link is a client navigation; back and forth work", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    await mark(page);
    await page.locator("header nav a[href='/submit']").last().click();
    await expect(page).toHaveURL(/\/submit$/);
    await expect(page.locator("input[name='code']")).toBeVisible();
    expect(await sameDocument(page)).toBe(true);
    // A link in the page itself (the home page's hero) and the browser's back button.
    await page.goBack();
    await expect(page.getByTestId("hero-draw")).toBeVisible();
    // The main button leads to choosing a platform, not to a random brand's code.
    await page.getByTestId("hero-draw").click();
    await expect(page).toHaveURL(/\/platforms$/);
    await expect(page.getByTestId("platform-list")).toBeVisible();
    expect(await sameDocument(page)).toBe(true);
  });

  test("a link to the page itself replaces the history entry, as Remix's <Link> does", async ({ page }) => {
    await page.goto("/privacy");
    await waitForHydration(page);
    const before = await page.evaluate(() => history.length);
    await mark(page);
    await page.locator("#site-footer a[href='/privacy']").click();
    await expect(page).toHaveURL(/\/privacy$/);
    expect(await page.evaluate(() => history.length)).toBe(before);
    expect(await sameDocument(page)).toBe(true);
  });

  test("modified clicks, target, download, data-reload and unmarked links are left to the browser", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);

    // Ctrl-click: a new tab, this page stays.
    const opened = page.context().waitForEvent("page");
    await page
      .locator("header nav a[href='/platforms']")
      .last()
      .click({ modifiers: ["Control"] });
    const tab = await opened;
    // The new tab starts on about:blank (the headless shell reports it loaded), then loads the link.
    await tab.waitForURL((url) => url.pathname === "/platforms");
    await tab.close();
    await expect(page).toHaveURL(/\/$/);

    // Links the listener must not take: each one, clicked, loads a new document.
    const cases: Array<{ attrs: Record<string, string>; href: string; expected: RegExp }> = [
      { attrs: { "data-discover": "true", "data-reload": "" }, href: "/terms", expected: /\/terms$/ },
      // A target other than this frame (`_top` is this window here, so the test stays in one tab).
      { attrs: { "data-discover": "true", target: "_top" }, href: "/privacy", expected: /\/privacy$/ },
      // Not marked: a feed, a JSON file, a text file are no pages of the router.
      { attrs: {}, href: "/fairness", expected: /\/fairness$/ },
    ];
    for (const c of cases) {
      await page.goto("/");
      await waitForHydration(page);
      await addLink(page, "test-link", c.href, c.attrs);
      await mark(page);
      await Promise.all([page.waitForEvent("load"), page.locator("#test-link").click()]);
      await expect(page).toHaveURL(c.expected);
      expect(await sameDocument(page), JSON.stringify(c)).toBe(false);
    }

    // download: the browser downloads, nothing navigates.
    await page.goto("/");
    await waitForHydration(page);
    await addLink(page, "test-download", "/robots.txt", { download: "robots.txt", "data-discover": "true" });
    const download = page.waitForEvent("download");
    await page.locator("#test-download").click();
    expect((await download).suggestedFilename()).toBe("robots.txt");
    await expect(page).toHaveURL(/\/$/);
  });

  test("the skip link is the browser's: focus moves to the page's main region", async ({ page }) => {
    await page.goto("/tesla");
    await waitForHydration(page);
    await page.keyboard.press("Tab");
    await expect(page.locator("a[href='#main']")).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.locator("#main")).toBeFocused();
    await expect(page).toHaveURL(/\/tesla#main$/);
    // The same for a marked link to an anchor of the page: the router would scroll, not move focus.
    await page.goto("/tesla");
    await waitForHydration(page);
    await addLink(page, "test-anchor", "#main", { "data-discover": "true" });
    await page.locator("#test-anchor").click();
    await expect(page.locator("#main")).toBeFocused();
  });

  test("the header's links are visible on keyboard focus (focus-visible)", async ({ page }) => {
    await page.goto("/platforms");
    await waitForHydration(page);
    const link = page.locator("header nav a[href='/submit']").last();
    await link.focus();
    await expect(link).toBeFocused();
    // Keyboard focus shows an outline (the site's :focus-visible style), as on any link.
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Tab");
    const outline = await link.evaluate((el) => getComputedStyle(el).outlineStyle);
    expect(outline).not.toBe("none");
  });
});
