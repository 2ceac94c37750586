import { expect, test, type Page } from "@playwright/test";
import { signIn } from "./admin-support";
import { expectLaidOut } from "./layout-rules";
import { KEY_PAGES, SWEPT_PAGES } from "./public-pages";
import { expectAccessible, hydrated, jsDisabled } from "./support";

/**
 * The sweep: every public page and every admin tab, at 320 px and 1280 px, in French and German,
 * in both projects (JS on and off): nothing scrolls sideways and no `{{placeholder}}` reaches the
 * text; with JS, on the French load, the layout rules (layout-rules.ts) and axe in both themes (the light
 * theme by its cookie). The layout check (layout.spec.ts) reads the sitemap's other pages.
 * Three loads a page with JS, two without (decision 309).
 */
const WIDTHS = [320, 1280] as const;
const LANGUAGES = ["fr", "de"] as const;

async function setPreferences(page: Page, preferences: { language: string; theme: string }) {
  const url = new URL(page.url() === "about:blank" ? test.info().project.use.baseURL! : page.url());
  await page
    .context()
    .addCookies(Object.entries(preferences).map(([name, value]) => ({ name, value, domain: url.hostname, path: "/" })));
}

/** Horizontal overflow and leaked placeholders, on the page as it is now. */
async function expectFits(page: Page, label: string) {
  const { scrollWidth, innerWidth, text } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
    text: document.body.innerText,
  }));
  expect(scrollWidth, `${label}: page wider than the window`).toBeLessThanOrEqual(innerWidth);
  expect(text.match(/.{0,30}\{\{.{0,30}/g), `${label}: placeholder in the text`).toBeNull();
}

/**
 * One load per language, read at 320 px and again once the window is 1280 px wide (media queries and
 * the page's own listeners answer a resize as they answer a load); axe at 320 px in French in the
 * dark theme on that same load, then once more in the light theme.
 */
async function sweep(page: Page, path: string, javaScript: boolean, { layout = false } = {}) {
  for (const language of LANGUAGES) {
    const [narrow, wide] = WIDTHS;
    // The layout rules (layout-rules.ts) on the French load with JS, once hydrated: the no-JS page
    // has the same CSS. The key pages' screenshots go to the test report.
    const laidOut = layout && javaScript && language === "fr";
    await page.setViewportSize({ width: narrow, height: 800 });
    await setPreferences(page, { language, theme: "dark" });
    await page.goto(path);
    await expectFits(page, `${path} ${narrow}px ${language}`);
    if (laidOut) await laidOutAt(page, path, narrow);
    if (javaScript && language === "fr") await expectAccessibleIn(page, path, "dark");
    await page.setViewportSize({ width: wide, height: 800 });
    // A frame and a task: what a script does about the new width (a media query's listener) is in.
    if (javaScript) await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
    await expectFits(page, `${path} ${wide}px ${language}`);
    if (laidOut) await laidOutAt(page, path, wide);
  }
  if (!javaScript) return;
  await page.setViewportSize({ width: WIDTHS[0], height: 800 });
  await setPreferences(page, { language: "fr", theme: "light" });
  await page.goto(path);
  await expectAccessibleIn(page, path, "light");
}

async function laidOutAt(page: Page, path: string, width: number) {
  if (width === WIDTHS[0]) await hydrated(page);
  await expectLaidOut(page, `${path} at ${width} px`);
  if (KEY_PAGES.has(path))
    await test.info().attach(`${path} ${width}px`, { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
}

async function expectAccessibleIn(page: Page, path: string, theme: "dark" | "light") {
  await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
  await expectAccessible(page, { label: `${path} ${theme}` });
}

test.describe("sweep: public pages", () => {
  for (const path of SWEPT_PAGES) {
    test(`${path}`, async ({ page }, testInfo) => {
      await sweep(page, path, !jsDisabled(testInfo), { layout: true });
    });
  }
});

// One test per tab (in parallel, each within the usual timeout), read from the admin's own
// navigation. As many slots as there are tabs today: a tab added fails the first slot until this
// grows, so it is never left unswept; a slot opened only to skip cost a sign-in and a page load.
const ADMIN_TAB_SLOTS = 10;

test.describe("sweep: admin tabs", () => {
  for (let slot = 0; slot < ADMIN_TAB_SLOTS; slot++) {
    test(`admin tab #${slot + 1}`, async ({ page }, testInfo) => {
      test.setTimeout(90_000);
      await signIn(page);
      const tabs = await page
        .getByRole("navigation", { name: "Sections de l'administration" })
        .getByRole("link")
        .evaluateAll((links) => [...new Set(links.map((a) => new URL((a as HTMLAnchorElement).href).pathname))]);
      expect(tabs.length, "admin tabs against ADMIN_TAB_SLOTS").toBe(ADMIN_TAB_SLOTS);
      await sweep(page, tabs[slot]!, !jsDisabled(testInfo), { layout: true });
    });
  }
});
