import { expect, test } from "@playwright/test";
import { signIn } from "./admin-support";
import { createE2eCode, createE2ePlatform, e2eDb, expectAccessible, jsDisabled } from "./support";

test.describe.configure({ timeout: 90_000 });

/**
 * Destructive admin actions ask first, JavaScript off (the action answers with a step of its own,
 * `?delete=<id>`) and on (a dialog): "Annuler" keeps the row, "Oui, supprimer" posts `confirm=yes`.
 */
test("platforms tab: deleting a platform asks first, then removes it with its codes", async ({ page }, testInfo) => {
  const platform = await createE2ePlatform();
  const { id: codeId } = await createE2eCode(platform.id, { code: "GOESWITHIT" });
  await signIn(page, "/admin/platforms");
  const card = page.getByTestId(`platform-row-${platform.slug}`);
  const remove = card.getByRole("button", { name: `Supprimer ${platform.name}` });

  await remove.click();
  const question = page.getByRole("alertdialog");
  await expect(question).toContainText(`Supprimer la plateforme ${platform.name}`);
  if (jsDisabled(testInfo)) {
    await expect(page).toHaveURL(new RegExp(`delete=${platform.id}`));
    await expectAccessible(page);
  }
  await question.getByRole(jsDisabled(testInfo) ? "link" : "button", { name: "Annuler" }).click();
  await expect(page.getByRole("alertdialog")).toHaveCount(0);
  await expect(card).toBeVisible();
  expect(await e2eDb().selectFrom("platforms").select("id").where("id", "=", platform.id).executeTakeFirst()).toBeDefined();

  await remove.click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Oui, supprimer" }).click();
  await expect(page.getByTestId("toast")).toContainText(platform.name);
  await expect(card).toHaveCount(0);
  expect(await e2eDb().selectFrom("platforms").select("id").where("id", "=", platform.id).executeTakeFirst()).toBeUndefined();
  expect(await e2eDb().selectFrom("referral_codes").select("id").where("id", "=", codeId).executeTakeFirst()).toBeUndefined();
});

test("partnerships tab: deleting a partnership asks first", async ({ page }, testInfo) => {
  const name = `Partenaire ${Math.random().toString(36).slice(2, 8)}`;
  const { id } = await e2eDb()
    .insertInto("partnerships")
    .values({ name, url: "https://partner.example", is_active: 1, created_at: new Date().toISOString() } as never)
    .returning("id")
    .executeTakeFirstOrThrow();
  await signIn(page, "/admin/partnerships");
  const remove = page.getByRole("button", { name: `Supprimer ${name}` });

  await remove.click();
  const question = page.getByRole("alertdialog");
  await expect(question).toContainText(name);
  if (jsDisabled(testInfo)) await expect(page).toHaveURL(new RegExp(`delete=${id}`));
  await question.getByRole(jsDisabled(testInfo) ? "link" : "button", { name: "Annuler" }).click();
  await expect(page.getByRole("alertdialog")).toHaveCount(0);
  expect(await e2eDb().selectFrom("partnerships").select("id").where("id", "=", id).executeTakeFirst()).toBeDefined();

  await remove.click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Oui, supprimer" }).click();
  await expect(page.getByTestId("toast")).toContainText("Partenariat supprimé");
  expect(await e2eDb().selectFrom("partnerships").select("id").where("id", "=", id).executeTakeFirst()).toBeUndefined();
});
