import { expect, test, type Page } from "@playwright/test";
import { signIn } from "./admin-support";
import { jsDisabled } from "./support";

// Flips a site-wide setting: runs in its own project after all others (playwright.config.ts),
// so no parallel test sees the theme toggle vanish.
test.describe.configure({ mode: "serial" });

/** Saves enable_theme_toggle as the admin's settings form does, for `admin` (signed in before use). */
function saveThemeToggle(admin: Page, baseURL: string) {
  return (value: "true" | "false") =>
    admin.request.post("/admin/settings", {
      form: { intent: "save", key: "enable_theme_toggle", value },
      headers: { Origin: baseURL },
      maxRedirects: 0,
    });
}

test("a change of enable_theme_toggle reaches an open page live", async ({ page, context, baseURL }, testInfo) => {
  test.skip(jsDisabled(testInfo), "live updates need JavaScript");
  test.setTimeout(90_000);
  const admin = await context.newPage();
  const save = saveThemeToggle(admin, baseURL!);
  try {
    const streamOpened = page.waitForRequest((r) => r.url().endsWith("/events/settings"));
    await page.goto("/");
    await streamOpened;
    const toggle = page.getByRole("button", { name: /^Passer au thème (clair|sombre)$/ });
    await expect(toggle).toBeVisible();

    await signIn(admin, "/admin/settings");
    const form = admin.getByTestId("setting-enable_theme_toggle");
    await form.getByRole("combobox").selectOption("false");
    await form.getByRole("button").click();
    await expect(admin.getByTestId("toast")).toContainText("Paramètres sauvegardés");
    await expect(toggle).toHaveCount(0);

    await admin.getByTestId("setting-enable_theme_toggle").getByRole("combobox").selectOption("true");
    await admin.getByTestId("setting-enable_theme_toggle").getByRole("button").click();
    await expect(toggle).toBeVisible();
  } finally {
    expect((await save("true")).status()).toBe(303);
  }
});

/** Makes the page say it is hidden or shown, as a browser does when its tab goes to the background. */
async function setVisibility(page: Page, state: "hidden" | "visible") {
  await page.evaluate((next) => {
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => next });
    Object.defineProperty(document, "hidden", { configurable: true, get: () => next === "hidden" });
    document.dispatchEvent(new Event("visibilitychange"));
  }, state);
}

test("a hidden page holds no stream, and learns what changed when it is shown again", async ({
  page,
  context,
  baseURL,
}, testInfo) => {
  test.skip(jsDisabled(testInfo), "live updates need JavaScript");
  test.setTimeout(90_000);
  const admin = await context.newPage();
  const save = saveThemeToggle(admin, baseURL!);
  const isStream = (r: { url: () => string }) => r.url().endsWith("/events/settings");
  try {
    await signIn(admin, "/admin/settings");
    const streamOpened = page.waitForRequest(isStream);
    await page.goto("/");
    // A stream the server refused (204: no place left for this address) would never close: say so.
    expect((await (await streamOpened).response())?.status()).toBe(200);
    const toggle = page.getByRole("button", { name: /^Passer au thème (clair|sombre)$/ });
    await expect(toggle).toBeVisible();

    // Hidden: the page closes its stream (the browser reports the request as cancelled).
    const streamClosed = page.waitForEvent("requestfailed", isStream);
    await setVisibility(page, "hidden");
    await streamClosed;

    // A change meanwhile does not reach it…
    expect((await save("false")).status()).toBe(303);
    await page.waitForTimeout(500);
    await expect(toggle).toBeVisible();

    // …until it is shown again: a new stream, whose first event is the current value.
    const reopened = page.waitForRequest(isStream);
    await setVisibility(page, "visible");
    await reopened;
    await expect(toggle).toHaveCount(0);
  } finally {
    expect((await save("true")).status()).toBe(303);
  }
});
