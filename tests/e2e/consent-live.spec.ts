import { expect, test, type Page } from "@playwright/test";
import { signIn } from "./admin-support";
import { hydrated, jsDisabled } from "./support";

// Sets a tag manager id, a site-wide setting: runs in its own project after all others
// (playwright.config.ts), so no parallel test sees the consent banner appear.
test.describe.configure({ mode: "serial" });

/** Every console error and page error while `run` goes on (a hydration mismatch is one). */
async function errorsDuring(page: Page, run: () => Promise<void>): Promise<string[]> {
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(e.message));
  await run();
  return errors;
}

const fiber = (page: Page, testId: string) =>
  page.getByTestId(testId).evaluate((el) => Object.keys(el).some((k) => k.startsWith("__reactFiber")));

test("the consent parts load their code only where a page shows them, and hydrate in place", async ({
  browser,
  baseURL,
}, testInfo) => {
  test.skip(jsDisabled(testInfo), "what the browser loads needs JavaScript");
  test.setTimeout(90_000);
  const admin = await browser.newPage();
  const save = (value: string) =>
    admin.request.post("/admin/settings", {
      form: { intent: "save", key: "gtm_id", value },
      headers: { Origin: baseURL! },
      maxRedirects: 0,
    });
  const visitor = await browser.newContext({ locale: "fr-FR" });
  const page = await visitor.newPage();
  const consentCode: string[] = [];
  page.on("request", (r) => {
    if (/\/assets\/(analytics-tags-[\w-]+\.js|locales-[\w-]+\.fr\.consent\.js)$/.test(r.url())) consentCode.push(r.url());
  });
  // GTM itself is not for tests: its script is answered with nothing.
  await page.route(/googletagmanager\.com/, (route) => route.fulfill({ status: 200, contentType: "text/javascript", body: "" }));
  try {
    // Nothing configured: no banner, and neither its code nor its texts are fetched.
    await page.goto("/privacy");
    await hydrated(page);
    await expect(page.getByTestId("consent-banner")).toHaveCount(0);
    expect(consentCode).toEqual([]);

    await signIn(admin, "/admin/settings");
    expect((await save("GTM-E2E1234")).status()).toBe(303);

    // Configured: the banner is the server's; its code and texts come, and it hydrates where it is.
    const errors = await errorsDuring(page, async () => {
      await expect(async () => {
        await page.goto("/privacy");
        await expect(page.getByTestId("consent-banner")).toBeVisible({ timeout: 1_000 });
      }).toPass();
      const box = await page.getByTestId("consent-accept").boundingBox();
      await hydrated(page);
      await expect.poll(() => fiber(page, "consent-banner")).toBe(true);
      expect(await page.getByTestId("consent-accept").boundingBox()).toEqual(box);
      expect(consentCode.some((u) => u.includes("analytics-tags-"))).toBe(true);
      expect(consentCode.some((u) => u.endsWith(".fr.consent.js"))).toBe(true);
      await expect(page.getByTestId("consent-banner")).toContainText("Accepter");

      // Yes: a full page with the tags in its head (with the page's nonce), and the "manage" form hydrated.
      await page.getByTestId("consent-accept").click();
      await expect(page.getByTestId("consent-manage")).toBeVisible();
      await hydrated(page);
      await expect.poll(() => fiber(page, "consent-manage")).toBe(true);
      const tag = page.locator('head script[src*="googletagmanager.com/gtm.js?id=GTM-E2E1234"]');
      await expect(tag).toHaveCount(1);
      expect(await tag.evaluate((el) => (el as HTMLScriptElement).nonce)).not.toBe("");
    });
    expect(errors).toEqual([]);

    // Its code unreachable (a flaky network, a deploy that replaced it): the server's banner stays and
    // works as it does without JavaScript; the page is not replaced by an error page.
    const offline = await browser.newContext({ locale: "fr-FR" });
    try {
      const cut = await offline.newPage();
      await cut.route(/\/assets\/analytics-tags-[\w-]+\.js$/, (route) => route.abort("failed"));
      await cut.route(/googletagmanager\.com/, (route) =>
        route.fulfill({ status: 200, contentType: "text/javascript", body: "" }),
      );
      const failed = cut.waitForEvent("requestfailed", (r) => r.url().includes("/analytics-tags-"));
      await cut.goto("/privacy");
      const heading = await cut.getByRole("heading", { level: 1 }).textContent();
      await failed;
      await hydrated(cut);
      await expect(cut.getByRole("heading", { level: 1 })).toHaveText(heading!);
      await cut.getByTestId("consent-accept").click();
      await expect(cut.getByTestId("consent-manage")).toBeVisible();
      await expect(cut.getByRole("heading", { level: 1 })).toHaveText(heading!);
    } finally {
      await offline.close();
    }
  } finally {
    expect((await save("")).status()).toBe(303);
    await visitor.close();
    await admin.close();
  }
});
