import { expect, test } from "@playwright/test";
import { signIn } from "./admin-support";
import { createE2ePlatform, e2eDb, expectAccessible, jsDisabled } from "./support";

test.describe.configure({ timeout: 90_000 });

/**
 * One paged admin list and one confirmation step, with JavaScript off and on: the pager's links
 * reach the next page and back with the filter kept; deleting asks first (a server step without
 * JavaScript, a dialog with it) and "Annuler" deletes nothing.
 */
test("codes tab: 120 codes in pages of 50, filtered; a deletion asks first", async ({ page }, testInfo) => {
  const platform = await createE2ePlatform();
  const base = Date.parse("2026-01-10T12:00:00Z");
  await e2eDb()
    .insertInto("referral_codes")
    .values(
      Array.from({ length: 120 }, (_, i) => ({
        platform_id: platform.id,
        code: `PG${String(i).padStart(3, "0")}`,
        is_active: i % 2,
        created_at: new Date(base + i * 60_000).toISOString(),
      })),
    )
    .execute();
  await signIn(page, `/admin/codes?platform=${platform.slug}`);
  const rows = page.locator('[data-testid^="code-row-"]');
  await expect(rows).toHaveCount(50);
  await expect(page.getByTestId("pager-total")).toHaveText("120 résultats en tout");
  await expectAccessible(page);

  await page.getByRole("link", { name: "Page suivante →" }).click();
  await expect(page).toHaveURL(/after=/);
  // Page 2 is shown once its own "previous" link is (page 1 has none): only then is "next" page 2's.
  await expect(page.getByRole("link", { name: "← Page précédente" })).toBeVisible();
  await expect(rows).toHaveCount(50);
  const second = page.url();
  await page.getByRole("link", { name: "Page suivante →" }).click();
  await expect(page).not.toHaveURL(second);
  await expect(rows).toHaveCount(20);
  await expect(page.getByRole("link", { name: "Page suivante →" })).toHaveCount(0);
  await page.getByRole("link", { name: "← Page précédente" }).click();
  await expect(rows).toHaveCount(50);

  // The paused filter: 60 codes, on two pages, the filter kept by the pager's link.
  await page.getByLabel("État").selectOption("paused");
  await page.getByRole("button", { name: "Afficher" }).click();
  await expect(page).toHaveURL(/state=paused/);
  await expect(page.getByTestId("pager-total")).toHaveText("60 résultats en tout");
  await page.getByRole("link", { name: "Page suivante →" }).click();
  await expect(page).toHaveURL(/state=paused.*after=|after=.*state=paused/);
  await expect(rows).toHaveCount(10);

  // Deleting asks first; cancelling keeps the code, confirming removes it and stays on this page.
  const row = page.getByTestId("code-row-PG010");
  await row.getByRole("button", { name: "Supprimer PG010" }).click();
  const question = page.getByRole("alertdialog");
  await expect(question).toContainText(/Supprimer le code PG010\s\?/);
  if (jsDisabled(testInfo)) await expect(page).toHaveURL(/delete=\d+/);
  await question.getByRole(jsDisabled(testInfo) ? "link" : "button", { name: "Annuler" }).click();
  await expect(page.getByRole("alertdialog")).toHaveCount(0);
  await expect(row).toBeVisible();
  await row.getByRole("button", { name: "Supprimer PG010" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Oui, supprimer" }).click();
  await expect(page.getByTestId("toast")).toHaveText(/Code supprimé/);
  await expect(page).toHaveURL(/state=paused/);
  await expect(page.getByTestId("code-row-PG010")).toHaveCount(0);
  await expect(rows).toHaveCount(9);
  expect(
    await e2eDb()
      .selectFrom("referral_codes")
      .select("id")
      .where("code", "=", "PG010")
      .where("platform_id", "=", platform.id)
      .executeTakeFirst(),
  ).toBeUndefined();
});
