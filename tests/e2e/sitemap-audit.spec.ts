import { expect, test, type Page } from "@playwright/test";
import { JS_ONLY, expectAccessible } from "./support";

test.describe("sitemap audit page", () => {
  test("audits our own sitemap from the form: every check passes, page accessible", async ({ page, baseURL }) => {
    await page.goto("/sitemap-audit");
    const url = page.getByLabel("Adresse du sitemap");
    await expect(url).toHaveValue(`${baseURL}/sitemap.xml`);
    const www = page.getByLabel("La propriété Search Console utilise www");
    await expect(www).toBeChecked();
    await expectAccessible(page);

    // localhost has no www: say so, as a site owner would.
    await www.uncheck();
    await page.getByRole("button", { name: "Lancer l'audit" }).click();
    await expect(page.getByTestId("audit-overall")).toHaveAttribute("data-status", "success");
    const checks = page.getByTestId("audit-check");
    expect(await checks.count()).toBeGreaterThanOrEqual(20);
    for (const id of ["http-status", "content-type", "response-time", "well-formed", "url-count", "robots-declared", "www"]) {
      await expect(page.locator(`[data-testid="audit-check"][data-check="${id}"]`)).toHaveAttribute("data-status", "success");
    }
    await expect(page).toHaveURL(/\/sitemap-audit\?url=.*sitemap\.xml$/);
    await expect(page.getByLabel("La propriété Search Console utilise www")).not.toBeChecked();
    await expectAccessible(page);
  });

  test("a private address is refused with a clear message", async ({ page }) => {
    await page.goto("/sitemap-audit");
    await page.getByLabel("Adresse du sitemap").fill("http://169.254.169.254/latest/meta-data/");
    await page.getByRole("button", { name: "Lancer l'audit" }).click();
    await expect(page.getByTestId("audit-refused")).toContainText("machine privée");
    await expect(page.getByTestId("audit-report")).toHaveCount(0);
    await expectAccessible(page);
  });

  test("with JavaScript, a pending state while the audit runs", JS_ONLY, async ({ page }) => {
    // JavaScript only: the pending state is JavaScript polish.
    await page.goto("/sitemap-audit");
    // The audit's data request is held until the pending state has been seen.
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/sitemap-audit\.data/, async (route) => {
      await released;
      await route.continue();
    });
    await page.getByLabel("La propriété Search Console utilise www").uncheck();
    await page.getByRole("button", { name: "Lancer l'audit" }).click();
    await expect(page.getByTestId("audit-pending")).toBeVisible();
    await expect(page.getByRole("button", { name: "Audit en cours…" })).toBeDisabled();
    release();
    await expect(page.getByTestId("audit-overall")).toHaveAttribute("data-status", "success");
    await expect(page.getByTestId("audit-pending")).toHaveCount(0);
  });
});

test.describe("sitemap audit on a phone", () => {
  test.use({ viewport: { width: 320, height: 640 } });

  /** Nothing on the page is wider than the phone: the report can be read without scrolling sideways. */
  async function expectFits(page: Page, label: string) {
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    expect(scrollWidth, label).toBeLessThanOrEqual(innerWidth);
  }

  test("a report, a refusal and a failure with long URLs fit a 320 px screen", async ({ page, baseURL }) => {
    const long = "a-very-long-path-segment-without-any-break".repeat(6);
    const cases: Array<[string, string]> = [
      [`${baseURL}/sitemap.xml`, "audit-overall"],
      [`${baseURL}/${long}.xml`, "audit-overall"],
      [`http://169.254.169.254/${long}`, "audit-refused"],
    ];
    for (const [url, testId] of cases) {
      await page.goto(`/sitemap-audit?url=${encodeURIComponent(url)}&www=on`);
      await expect(page.getByTestId(testId)).toBeVisible();
      await expectFits(page, url);
    }
    await expectAccessible(page);
  });
});
