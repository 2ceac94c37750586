import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { signIn } from "./admin-support";
import { jsDisabled } from "./support";

/**
 * The sweep: every public page and every admin tab, at 320 px and 1280 px, in French and German,
 * in both projects (JS on and off): nothing scrolls sideways and no `{{placeholder}}` reaches the
 * text. axe runs with JS on, at 320 px, in French, in both themes (the light theme by its cookie),
 * which keeps the whole sweep around a minute on 2 cores.
 */
const PUBLIC_PAGES = [
  "/",
  "/platforms",
  "/platforms?q=zzzz",
  "/submit",
  "/suggest-platform",
  "/partnerships",
  "/privacy",
  "/terms",
  "/random",
  "/tesla",
  "/tesla/get-code",
  "/404",
  "/admin/login",
];
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

async function expectNoAxeViolations(page: Page, label: string) {
  const { violations } = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const summary = violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
  expect(summary, label).toEqual([]);
}

async function sweep(page: Page, path: string, withAxe: boolean) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    for (const language of LANGUAGES) {
      await setPreferences(page, { language, theme: "dark" });
      await page.goto(path);
      await expectFits(page, `${path} ${width}px ${language}`);
    }
  }
  if (!withAxe) return;
  await page.setViewportSize({ width: 320, height: 800 });
  for (const theme of ["dark", "light"]) {
    await setPreferences(page, { language: "fr", theme });
    await page.goto(path);
    await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
    await expectNoAxeViolations(page, `${path} ${theme}`);
  }
}

test.describe("sweep: public pages", () => {
  for (const path of PUBLIC_PAGES) {
    test(`${path}`, async ({ page }, testInfo) => {
      await sweep(page, path, !jsDisabled(testInfo));
    });
  }
});

// One test per tab (in parallel, each within the usual timeout), read from the admin's own
// navigation so tabs added later are swept too; slots beyond the last tab skip.
const ADMIN_TAB_SLOTS = 14;

test.describe("sweep: admin tabs", () => {
  for (let slot = 0; slot < ADMIN_TAB_SLOTS; slot++) {
    test(`admin tab #${slot + 1}`, async ({ page }, testInfo) => {
      test.setTimeout(90_000);
      await signIn(page);
      const tabs = await page
        .getByRole("navigation", { name: "Sections de l'administration" })
        .getByRole("link")
        .evaluateAll((links) => [...new Set(links.map((a) => new URL((a as HTMLAnchorElement).href).pathname))]);
      if (slot === 0) expect(tabs.length).toBeGreaterThanOrEqual(9);
      expect(tabs.length, "more admin tabs than ADMIN_TAB_SLOTS").toBeLessThanOrEqual(ADMIN_TAB_SLOTS);
      test.skip(slot >= tabs.length, "no tab in this slot");
      await sweep(page, tabs[slot]!, !jsDisabled(testInfo));
    });
  }
});
