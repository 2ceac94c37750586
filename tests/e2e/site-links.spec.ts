import { expect, test, type Page } from "@playwright/test";
import { NO_JS_ONLY } from "./support";

/**
 * The site's links are Remix's `<Link>` (decision 405): a plain left click is a client navigation;
 * a modified click, a `target` or a link to an anchor of the page is the browser's.
 * "Same document" is a mark set on `window` before the click: a full page load clears it.
 */
const mark = (page: Page) => page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
const sameDocument = (page: Page) => page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument === true);

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
  await link.click();
  await expect(page).toHaveURL(/\/submit$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
});

test.describe("with JavaScript", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "a client navigation needs JavaScript");

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

  test("a modified click opens a new tab and leaves this page as it was", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    await mark(page);
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
    expect(await sameDocument(page)).toBe(true);
  });

  test("the skip link is the browser's: focus moves to the page's main region", async ({ page }) => {
    await page.goto("/tesla");
    await waitForHydration(page);
    await page.keyboard.press("Tab");
    await expect(page.locator("a[href='#main']")).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.locator("#main")).toBeFocused();
    await expect(page).toHaveURL(/\/tesla#main$/);
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
