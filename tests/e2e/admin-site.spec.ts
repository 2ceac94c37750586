import { expect, test, type Page } from "@playwright/test";
import { signIn } from "./admin-support";
import { createE2ePlatform, e2eDb, expectAccessible, jsDisabled } from "./support";

// Long flows on a shared 2-core machine; each step has its own 7 s expectation timeout.
test.describe.configure({ timeout: 90_000 });

const unique = (prefix: string) => `${prefix}-${Math.random().toString(36).slice(2, 8)}`;
const toast = (page: Page) => page.getByTestId("toast");

/** Deletes through the row's button; the question comes first (a dialog with JS, a server step without). */
async function deleteRow(page: Page, buttonName: string) {
  await page.getByRole("button", { name: buttonName }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Oui, supprimer" }).click();
}

test.describe("admin: partnerships tab", () => {
  test("create, reject, edit, move and delete a partnership", async ({ page }, testInfo) => {
    await signIn(page, "/admin/partnerships");
    await expect(page).toHaveURL(/\/admin\/partnerships$/);
    await expectAccessible(page);
    const create = page.getByRole("region", { name: "Ajouter un partenariat" });

    // Rejected: blank name and a javascript: link; nothing is written.
    const before = (await e2eDb().selectFrom("partnerships").select("id").execute()).length;
    await create.getByLabel("Nom", { exact: true }).fill("   ");
    await create.getByLabel("URL", { exact: true }).fill("javascript:alert(1)");
    await create.getByRole("button", { name: "Créer le partenariat" }).click();
    await expect(create.getByText("Le nom et l'URL sont obligatoires")).toBeVisible();
    await expect(create.getByText("L'URL doit commencer par http:// ou https://.")).toBeVisible();
    await expect(create.getByLabel("URL", { exact: true })).toHaveValue("javascript:alert(1)");
    if (jsDisabled(testInfo)) await expectAccessible(page);
    expect((await e2eDb().selectFrom("partnerships").select("id").execute()).length).toBeLessThanOrEqual(before + 1);

    const first = unique("Partner");
    const second = unique("Partner");
    for (const name of [first, second]) {
      await create.getByLabel("Nom", { exact: true }).fill(name);
      await create.getByLabel("URL", { exact: true }).fill(`https://${name.toLowerCase()}.example/`);
      await create.getByLabel("Affichage").selectOption("name");
      await create.getByRole("button", { name: "Créer le partenariat" }).click();
      await expect(toast(page)).toContainText("Partenariat créé");
      await expect(page.getByRole("heading", { name, exact: true })).toBeVisible();
    }
    const row = await e2eDb().selectFrom("partnerships").selectAll().where("name", "=", second).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ display_mode: "name", is_active: 1, url: `https://${second.toLowerCase()}.example/` });

    // Move the second one up: its place in the list goes down by one.
    await page.getByRole("button", { name: `Monter ${second}` }).click();
    await expect(toast(page)).toContainText("Ordre des partenariats mis à jour");
    const moved = await e2eDb()
      .selectFrom("partnerships")
      .select("display_order")
      .where("id", "=", row.id)
      .executeTakeFirstOrThrow();
    expect(moved.display_order).toBeLessThan(row.display_order);

    // Edit.
    const edited = `${second}-v2`;
    await page.getByText(`Modifier ${second}`).click();
    const editor = page.locator(`#update-${row.id}`);
    await editor.getByLabel("Nom", { exact: true }).fill(edited);
    await editor.getByLabel("Actif (visible sur le site)").uncheck();
    await editor.getByRole("button", { name: "Enregistrer" }).click();
    await expect(toast(page)).toContainText("Partenariat mis à jour");
    await expect(page.getByRole("heading", { name: edited, exact: true })).toBeVisible();
    expect(
      await e2eDb().selectFrom("partnerships").select(["name", "is_active"]).where("id", "=", row.id).executeTakeFirst(),
    ).toEqual({ name: edited, is_active: 0 });

    // Delete both.
    for (const name of [edited, first]) {
      await deleteRow(page, `Supprimer ${name}`);
      await expect(toast(page)).toContainText("Partenariat supprimé");
      await expect(page.getByRole("heading", { name, exact: true })).toHaveCount(0);
    }
  });
});

test.describe("admin: requests tab", () => {
  test("shows the draw log with a per-day chart, filterable by platform", async ({ page }) => {
    const platform = await createE2ePlatform();
    const now = Date.now();
    await e2eDb()
      .insertInto("random_requests")
      .values(
        [0, 1, 2].map((i) => ({
          platform_id: platform.id,
          served_code_id: null,
          served_code: `LOG${platform.id}X${i}`,
          created_at: new Date(now - i * 1000).toISOString(),
        })),
      )
      .execute();
    await signIn(page, "/admin/requests");
    await expect(page.getByTestId("draws-chart")).toBeVisible();
    const region = page.getByRole("region", { name: "Liste des dernières demandes (défilante)" });
    await expect(region).toBeVisible();
    await region.focus();
    await expect(region).toBeFocused();
    expect(await region.evaluate((el) => getComputedStyle(el).maxHeight)).toBe("600px");
    await expectAccessible(page);

    await page.getByLabel("Plateforme").selectOption(platform.slug);
    await page.getByRole("button", { name: "Filtrer" }).click();
    await expect(page).toHaveURL(new RegExp(`platform=${platform.slug}`));
    await expect(page.getByTestId("draw-row")).toHaveCount(3);
    await expect(page.getByTestId("draws-table")).toContainText(`LOG${platform.id}X0`);
    await expect(page.getByRole("heading", { name: `Tirages par jour pour ${platform.name} (30 derniers jours)` })).toBeVisible();
    await expect(page.locator('[data-testid="draws-chart"] rect').last()).toHaveAttribute("data-count", "3");
    await expectAccessible(page);
  });
});

test.describe("admin: scores tab", () => {
  test("edit a score, see a rejection, delete it", async ({ page }) => {
    const name = unique("S").slice(0, 12);
    const { id } = await e2eDb()
      .insertInto("game_scores")
      .values({ player_name: name, score: 40, device_type: "mobile", created_at: new Date().toISOString() })
      .returning("id")
      .executeTakeFirstOrThrow();
    await signIn(page, "/admin/scores");
    await expectAccessible(page);
    const nameField = page.getByLabel(`Pseudo du score n° ${id}`, { exact: true });
    const scoreField = page.getByLabel(`Points du score n° ${id}`, { exact: true });

    await nameField.fill("   ");
    await page.getByRole("button", { name: `Enregistrer le score de ${name}` }).click();
    await expect(page.getByText("Le pseudo doit contenir de 1 à 20 caractères.")).toBeVisible();
    expect(
      await e2eDb().selectFrom("game_scores").select(["player_name", "score"]).where("id", "=", id).executeTakeFirst(),
    ).toEqual({ player_name: name, score: 40 });

    const renamed = `${name}b`;
    await nameField.fill(renamed);
    await scoreField.fill("990");
    await page.getByRole("button", { name: `Enregistrer le score de ${name}` }).click();
    await expect(toast(page)).toContainText("Score modifié");
    await expect(page.getByLabel(`Pseudo du score n° ${id}`, { exact: true })).toHaveValue(renamed);
    expect(
      await e2eDb().selectFrom("game_scores").select(["player_name", "score"]).where("id", "=", id).executeTakeFirst(),
    ).toEqual({ player_name: renamed, score: 990 });

    await deleteRow(page, `Supprimer le score de ${renamed}`);
    await expect(toast(page)).toContainText("Score supprimé");
    await expect(page.getByLabel(`Pseudo du score n° ${id}`, { exact: true })).toHaveCount(0);
  });
});

test.describe("admin: settings tab", () => {
  test("saves a setting, refuses a bad value next to its field", async ({ page }) => {
    await signIn(page, "/admin/settings");
    await expectAccessible(page);
    const tracker = page.getByTestId("setting-price_tracker_url");
    await tracker.getByRole("textbox").fill("javascript:alert(1)");
    await tracker.getByRole("button").click();
    await expect(tracker.getByText("L'adresse doit commencer par http:// ou https://.")).toBeVisible();
    await expect(tracker.getByRole("textbox")).toHaveValue("javascript:alert(1)");
    expect(
      (await e2eDb().selectFrom("settings").select("value").where("key", "=", "price_tracker_url").executeTakeFirst())?.value,
    ).toMatch(/^https?:\/\//);

    const provider = page.getByTestId("setting-default_ai_provider");
    await provider.getByRole("combobox").selectOption("openai");
    await provider.getByRole("button").click();
    await expect(toast(page)).toContainText("Paramètres sauvegardés");
    await page.getByTestId("setting-default_ai_provider").getByRole("combobox").selectOption("anthropic");
    await page.getByTestId("setting-default_ai_provider").getByRole("button").click();
    await expect(toast(page)).toContainText("Paramètres sauvegardés");
    await expect(page.getByTestId("setting-default_ai_provider").getByRole("combobox")).toHaveValue("anthropic");
  });
});
