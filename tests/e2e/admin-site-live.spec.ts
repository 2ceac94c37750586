import { expect, test } from "@playwright/test";
import { signIn } from "./admin-support";
import { jsDisabled } from "./support";

// Flips a site-wide setting: runs in its own project after all others (playwright.config.ts),
// so no parallel test sees the theme toggle vanish.
test.describe.configure({ mode: "serial" });

test("a change of enable_theme_toggle reaches an open page live", async ({ page, context, baseURL }, testInfo) => {
  test.skip(jsDisabled(testInfo), "live updates need JavaScript");
  test.setTimeout(90_000);
  const admin = await context.newPage();
  const save = (value: "true" | "false") =>
    admin.request.post("/admin/settings", {
      form: { intent: "save", key: "enable_theme_toggle", value },
      headers: { Origin: baseURL! },
      maxRedirects: 0,
    });
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
