import { expect, test } from "@playwright/test";
import { expectAccessible, hydrated, jsDisabled } from "./support";

test.describe("layout, languages, theme", () => {
  test("home renders in French by default with header, footer and platforms", async ({ page }) => {
    await page.goto("/");
    await expect(page.locator("html")).toHaveAttribute("lang", "fr");
    await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
    await expect(page).toHaveTitle(/\| Parrainly$/);
    const header = page.locator("header");
    await expect(header.getByRole("link", { name: "Suggérer une plateforme" })).toBeVisible();
    await expect(header.getByRole("link", { name: "Voir tout" })).toBeVisible();
    await expect(page.locator("footer").getByRole("link", { name: "Confidentialité" })).toHaveAttribute("href", "/privacy");
    await expect(page.locator("footer")).toContainText("© 2025");
    for (const name of ["Tesla", "Revolut", "Trade Republic", "iGraal", "N26", "Holy"]) {
      await expect(page.locator("main").getByRole("heading", { name: new RegExp(`^\\W*${name}$`) })).toBeVisible();
    }
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute("href", /^http:\/\/localhost:\d+\/?$/);
    await expect(page.locator('meta[property="og:image"]')).toHaveAttribute("content", /og-default\.png$/);
    await expectAccessible(page);
  });

  for (const [lng, text] of [
    ["en", "Suggest a platform"],
    ["de", "Plattform vorschlagen"],
    ["es", "Sugerir una plataforma"],
  ] as const) {
    test(`?lng=${lng} switches the language and the cookie keeps it`, async ({ page }) => {
      await page.goto(`/?lng=${lng}`);
      await expect(page.locator("html")).toHaveAttribute("lang", lng);
      await expect(page.locator("header").getByRole("link", { name: text })).toBeVisible();
      await page.goto("/");
      await expect(page.locator("html")).toHaveAttribute("lang", lng);
      await expectAccessible(page);
    });
  }

  test("the language menu works (with and without JS): open, pick; no OK button", async ({ page }, testInfo) => {
    await page.goto("/");
    await expect(page.getByRole("button", { name: "OK", exact: true })).toHaveCount(0);
    await page.getByLabel("Langue : Français").click();
    await page.locator("header").getByRole("button", { name: "Deutsch" }).click();
    await expect(page.locator("html")).toHaveAttribute("lang", "de");
    // The chosen language's own URL (decision 220).
    await expect(page).toHaveURL(/\/\?lng=de$/);
    await expect(page.locator("header").getByRole("link", { name: "Plattform vorschlagen" })).toBeVisible();
    await expect(page.getByLabel("Sprache: Deutsch")).toBeVisible();
    if (!jsDisabled(testInfo)) expect(await page.evaluate(() => localStorage.getItem("language"))).toBe("de");
  });

  test("the language menu never navigates while the keyboard walks it: only a pressed language does", async ({
    page,
  }, testInfo) => {
    await page.goto("/platforms");
    // Remix's router records its history entry when the page hydrates (a same-document navigation
    // to the same URL), which may come after `load`: only what the keys do is counted.
    if (!jsDisabled(testInfo)) await hydrated(page);
    const summary = page.getByLabel("Langue : Français");
    await summary.focus();
    let navigations = 0;
    page.on("framenavigated", (frame) => {
      if (frame === page.mainFrame()) navigations++;
    });
    const requests: string[] = [];
    page.on("request", (request) => {
      if (request.method() === "POST" || request.url().includes(".data")) requests.push(request.url());
    });
    // Open, then Français → English → Deutsch → Español, one key at a time (WCAG 3.2.2).
    await page.keyboard.press("Enter");
    for (let i = 0; i < 4; i++) await page.keyboard.press("Tab");
    await expect(page.locator("header").getByRole("button", { name: "Español" })).toBeFocused();
    await page.waitForTimeout(500);
    expect(navigations).toBe(0);
    expect(requests).toEqual([]);
    await expect(page.locator("html")).toHaveAttribute("lang", "fr");
    await expect(page).toHaveURL(/\/platforms$/);
    await page.keyboard.press("Enter");
    await expect(page.locator("html")).toHaveAttribute("lang", "es");
    await expect(page).toHaveURL(/\/platforms\?lng=es$/);
  });

  for (const width of [320, 390]) {
    test(`the header is one row on a ${width} px phone`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
      await page.goto("/");
      const box = (await page.locator("header").boundingBox())!;
      // One row of 2.5rem controls and its padding (two rows measured 92 px).
      expect(box.height).toBeLessThanOrEqual(66);
      // The drawer's, the language menu's and the theme's controls side by side.
      const tops = await page
        .locator("header summary:visible, header button:visible")
        .evaluateAll((els) => els.map((el) => el.getBoundingClientRect().top));
      expect(tops.length).toBeGreaterThanOrEqual(2);
      expect(Math.max(...tops) - Math.min(...tops), JSON.stringify(tops)).toBeLessThan(12);
    });
  }

  test("the theme toggle switches to light and back, and the cookie keeps it", async ({ page }, testInfo) => {
    await page.goto("/");
    if (!jsDisabled(testInfo)) {
      // The POST is held back: a reload before it returns must already show the new theme.
      await page.route("**/preferences*", async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        await route.continue().catch(() => {});
      });
    }
    await page.getByRole("button", { name: "Passer au thème clair" }).click();
    await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
    if (!jsDisabled(testInfo)) {
      expect(await page.evaluate(() => localStorage.getItem("theme"))).toBe("light");
      expect(await page.evaluate(() => document.cookie)).toContain("theme=light");
      await page.unrouteAll({ behavior: "ignoreErrors" });
    }
    await page.reload();
    await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
    await expectAccessible(page);
    await page.getByRole("button", { name: "Passer au thème sombre" }).click();
    await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  });

  test("the mobile drawer opens and closes", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto("/");
    const drawerLink = page.locator("details nav").getByRole("link", { name: "Conditions d'utilisation" });
    await expect(drawerLink).toBeHidden();
    await page.locator("details:has(nav) > summary").click();
    await expect(drawerLink).toBeVisible();
    await page.locator("details:has(nav) > summary").click();
    await expect(drawerLink).toBeHidden();
    await expectAccessible(page);
  });

  test("a link in the mobile drawer opens its page with the drawer closed", async ({ page }, testInfo) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto("/");
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    await page.locator("details:has(nav) > summary").click();
    await page.locator("details nav").getByRole("link", { name: "Conditions d'utilisation" }).click();
    await expect(page).toHaveURL(/\/terms$/);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Conditions");
    await expect(page.locator("details:has(nav)")).not.toHaveAttribute("open", /.*/);
    // With JavaScript the router took the click (the drawer's links are Remix's <Link>).
    const sameDocument = await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument);
    expect(sameDocument).toBe(jsDisabled(testInfo) ? undefined : true);
  });

  test("unknown routes answer 404 with the not-found page", async ({ page }) => {
    const response = await page.goto("/this/does/not/exist");
    expect(response?.status()).toBe(404);
    await expect(page.getByTestId("not-found")).toBeVisible();
    await expect(page.getByRole("link", { name: "Retour à l'accueil" })).toHaveAttribute("href", "/");
    await expectAccessible(page);
  });

  test("keyboard: the skip link is first and focus is visible", async ({ page }) => {
    await page.goto("/");
    await page.keyboard.press("Tab");
    const focused = page.locator(":focus");
    await expect(focused).toHaveText("Aller au contenu");
    const outline = await focused.evaluate((el) => getComputedStyle(el).outlineStyle);
    expect(outline).not.toBe("none");
  });
});
