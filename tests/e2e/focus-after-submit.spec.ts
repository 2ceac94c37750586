import { expect, test, type Page } from "@playwright/test";
import { uniqueWord } from "../support/fixtures";
import { createE2eCode, createE2ePlatform, e2eDb, expectAccessible, hydrated } from "./support";

/**
 * With JavaScript, a form's answer replaces what had the focus (a button now disabled, a form): the
 * focus goes to the answer and it is read out, as a page load (without JS) starts at the top.
 */
test.describe.configure({ timeout: 90_000 });
// Without JS every answer is a new page, read from the top. Skipped by an option, not in a hook that
// would open a page first.
test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "without JS every answer is a new page, read from the top");

/** The page's live region reads this text (politely) after the change. */
async function expectAnnounced(page: Page, text: string | RegExp) {
  await expect(page.locator("#live-announcer")).toHaveText(text);
}

test("a draw: the focus goes to the drawn code's heading and the code is announced; the answer to 'did it work?' gets it next", async ({
  page,
}) => {
  const p = await createE2ePlatform();
  await createE2eCode(p.id, { code: "FOCUS1", times_served: 1000 });
  await page.goto(`/${p.slug}/get-code`);
  await hydrated(page);
  await page.getByRole("button", { name: "Lancer le tirage au sort" }).click();
  await expect(page.getByTestId("drawn-code")).toHaveText("FOCUS1", { timeout: 10_000 });
  await expect(page.getByRole("heading", { name: "Votre code" })).toBeFocused();
  await expectAnnounced(page, "Code tiré : FOCUS1");

  await page.getByTestId("report-worked").click();
  await expect(page.getByTestId("report-thanks")).toBeFocused();
  await expect(page.getByTestId("report-thanks")).toHaveAttribute("role", "status");
  // The toast that comes with the answer fades in (0.2 s): axe reads its contrast once it is shown.
  await expect(page.getByTestId("toast")).toHaveCSS("opacity", "1");
  await expectAccessible(page);
});

test("a draw that finds nothing: the focus goes to the message saying so", async ({ page }) => {
  const p = await createE2ePlatform();
  const code = "FOCUSGONE";
  await createE2eCode(p.id, { code });
  await page.goto(`/${p.slug}/get-code`);
  await hydrated(page);
  // Gone between the page and the click: the page's action draws nothing and says why.
  await e2eDb().deleteFrom("referral_codes").where("platform_id", "=", p.id).execute();
  await page.getByRole("button", { name: "Lancer le tirage au sort" }).click();
  await expect(page.getByTestId("no-code")).toBeFocused();
});

test("a vote: the focus goes to the updated count, a live region", async ({ page }) => {
  const name = `Focus ${uniqueWord("v")}`;
  await e2eDb()
    .insertInto("platform_suggestions")
    .values({
      name,
      normalized_name: name.toLowerCase(),
      description: null,
      website_url: null,
      votes_count: 4,
      created_at: new Date().toISOString(),
    } as never)
    .execute();
  await page.goto("/suggest-platform");
  await hydrated(page);
  const item = page.getByTestId("suggestion").filter({ hasText: name });
  await item.getByRole("button", { name: `Voter pour ${name}` }).click();
  const count = item.getByTestId("votes");
  await expect(count).toBeFocused();
  await expect(count).toHaveAttribute("aria-live", "polite");
  await expect(item.getByTestId("votes-count")).toHaveText("5");
  await expect(page.getByTestId("toast")).toContainText("Merci pour votre vote !");
  await expect(count).toBeFocused();
});

test("an empty submit: the focus goes to the first field to correct, its message with it", async ({ page }) => {
  await page.goto("/submit");
  await hydrated(page);
  await page.getByRole("button", { name: "Ajouter mon code" }).click();
  const platform = page.locator("#submit-code-platform");
  await expect(platform).toBeFocused();
  await expect(platform).toHaveAttribute("aria-invalid", "true");

  await page.goto("/suggest-platform");

  await hydrated(page);
  await page.getByRole("button", { name: "Envoyer la suggestion" }).click();
  const nameField = page.getByLabel("Nom de la plateforme");
  await expect(nameField).toBeFocused();
  await expect(nameField).toHaveAttribute("aria-invalid", "true");
  // Its aria-describedby names only what is in the page: the message, the similar-names box.
  const ids = (await nameField.getAttribute("aria-describedby"))!.split(" ");
  for (const id of ids) await expect(page.locator(`[id="${id}"]`)).toHaveCount(1);
});
