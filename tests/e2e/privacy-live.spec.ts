import crypto from "node:crypto";
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { signIn } from "./admin-support";
import { createE2eCode, createE2ePlatform, hydrated, jsDisabled } from "./support";

// Sets the captcha's site key and a tag manager id, site-wide settings: runs in the live project,
// alone and after the others (playwright.config.ts). Decision 323.
test.describe.configure({ mode: "serial" });
test.use({ actionTimeout: 10_000, navigationTimeout: 15_000 });

/** Google's hosts: the tag manager, analytics, the captcha and their static files. */
const GOOGLE = /(^|\.)(google\.com|googletagmanager\.com|google-analytics\.com|gstatic\.com|doubleclick\.net|recaptcha\.net)$/;

/**
 * Every request the browser sends to one of Google's hosts, read from its request log. Other
 * hosts are left out: partners' logos set by other tests (an admin's choice, images) load from theirs.
 */
function thirdParty(context: BrowserContext, baseURL: string): string[] {
  const seen: string[] = [];
  const own = new URL(baseURL).host;
  context.on("request", (r) => {
    if (r.url().startsWith("data:")) return;
    const host = new URL(r.url()).hostname;
    if (new URL(r.url()).host !== own && GOOGLE.test(host)) seen.push(r.url());
  });
  return seen;
}

/** A page, loaded and (with JS) hydrated, so any script it would load has had its chance. */
async function visit(page: Page, path: string, withJs: boolean) {
  const res = await page.goto(path);
  expect(res?.status(), path).toBe(200);
  if (withJs) await hydrated(page);
  await page.waitForLoadState("load");
}

test("consent refused: no request leaves for Google from any page, the share form's captcha included; consent given: none from an owner page or a draw result", async ({
  browser,
  baseURL,
}, testInfo) => {
  test.setTimeout(120_000);
  const withJs = !jsDisabled(testInfo);
  const admin = await browser.newPage();
  const save = (key: string, value: string) =>
    admin.request.post("/admin/settings", {
      form: { intent: "save", key, value },
      headers: { Origin: baseURL! },
      maxRedirects: 0,
    });
  await signIn(admin, "/admin/settings");
  const platform = await createE2ePlatform();
  const token = crypto.randomBytes(32).toString("base64url");
  await createE2eCode(platform.id, { owner_token_hash: crypto.createHash("sha256").update(token).digest("base64url") });
  expect((await save("google_recaptcha_site_key", "e2e-site-key")).status()).toBe(303);
  expect((await save("gtm_id", "GTM-E2EPRIV")).status()).toBe(303);
  const refused = await browser.newContext({ locale: "fr-FR" });
  const given = await browser.newContext({ locale: "fr-FR" });
  try {
    // Nothing of Google's is answered for real: whatever is asked is logged, then answered empty.
    for (const context of [refused, given]) {
      await context.route(/^https?:\/\/(?!localhost)/, (route) =>
        route.fulfill({ status: 200, contentType: "text/javascript", body: "" }),
      );
    }
    const refusedLog = thirdParty(refused, baseURL!);
    const page = await refused.newPage();
    await expect(async () => {
      await page.goto("/privacy");
      await expect(page.getByTestId("consent-refuse")).toBeVisible({ timeout: 1_000 });
    }).toPass();
    await page.getByTestId("consent-refuse").click();
    await expect(page.getByTestId("consent-manage")).toBeVisible();
    for (const path of [
      "/",
      "/submit",
      `/${platform.slug}`,
      `/${platform.slug}/get-code`,
      "/privacy",
      "/suggest-platform",
      `/my-code/${token}`,
    ]) {
      await visit(page, path, withJs);
    }
    await expect(page.getByTestId("captcha-off")).toHaveCount(0);
    await page.goto("/submit");
    await expect(page.getByTestId("captcha-off")).toBeVisible();
    expect(refusedLog).toEqual([]);

    // Consent given: the tags load on a public page...
    const givenLog = thirdParty(given, baseURL!);
    const visitor = await given.newPage();
    await expect(async () => {
      await visitor.goto("/privacy");
      await expect(visitor.getByTestId("consent-accept")).toBeVisible({ timeout: 1_000 });
    }).toPass();
    await visitor.getByTestId("consent-accept").click();
    await expect(visitor.getByTestId("consent-manage")).toBeVisible();
    await expect.poll(() => givenLog.some((u) => u.includes("googletagmanager.com/gtm.js?id=GTM-E2EPRIV"))).toBe(true);
    // ...and never on a code's owner page or a draw result, reached from a page that loaded them.
    givenLog.length = 0;
    await visit(visitor, `/my-code/${token}`, withJs);
    await visit(visitor, `/${platform.slug}/get-code`, withJs);
    const draw = await visitor.request.post(`/${platform.slug}/get-code`, {
      form: { intent: "draw" },
      headers: { Origin: baseURL! },
      maxRedirects: 0,
    });
    expect(draw.status()).toBe(303);
    await visit(visitor, draw.headers().location!, withJs);
    expect(givenLog).toEqual([]);
    if (withJs) {
      // A click from a tagged page to a private page is a full load, which the server renders without tags.
      await visit(visitor, "/", withJs);
      givenLog.length = 0;
      await visitor.locator('a[href="/submit"]:visible').first().click();
      await expect(visitor).toHaveURL(/\/submit$/);
      await visitor.waitForLoadState("load");
      expect(await visitor.locator("script[src*='googletagmanager']").count()).toBe(0);
      // Only the captcha this visitor accepted: no tag.
      expect(givenLog.filter((u) => !u.startsWith("https://www.google.com/recaptcha/"))).toEqual([]);
    }
  } finally {
    expect((await save("google_recaptcha_site_key", "")).status()).toBe(303);
    expect((await save("gtm_id", "")).status()).toBe(303);
    await refused.close();
    await given.close();
    await admin.close();
  }
});
