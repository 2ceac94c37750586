import { expect, test, type Page } from "@playwright/test";
import { signIn } from "./admin-support";
import { expectLaidOut } from "./layout-rules";
import {
  JS_ONLY,
  createE2eCode,
  createE2ePlatform,
  e2eDb,
  expectAccessible,
  holdPageScript,
  hydrated,
  jsDisabled,
} from "./support";

/** The catalog tabs as an admin uses them, with JavaScript on and off. */

const now = () => new Date().toISOString();
const unique = () => Math.random().toString(36).slice(2, 8);
const toast = (page: Page) => page.getByTestId("toast").locator("p");

// Long flows with an accessibility check per page, on a small shared machine.
test.describe.configure({ timeout: 90_000 });

async function addCode(platformId: number, code: string) {
  return createE2eCode(platformId, { code, expires_at: new Date(Date.now() + 30 * 86_400_000).toISOString(), created_at: now() });
}

test("codes tab: pick a platform, toggle, edit (with a refused link), delete", async ({ page }) => {
  const platform = await createE2ePlatform({ code_pattern: "^[A-Z0-9]{4,}$" });
  const code = `C${unique().toUpperCase()}`;
  await addCode(platform.id, code);
  await signIn(page, "/admin/codes");
  await expect(page).toHaveURL(/\/admin\/codes/);
  await expect(page.getByRole("link", { name: "Codes", exact: true })).toHaveAttribute("aria-current", "page");

  await page.getByLabel("Plateforme").selectOption(platform.slug);
  await page.getByRole("button", { name: "Afficher" }).click();
  const row = page.getByTestId(`code-row-${code}`);
  await expect(row).toBeVisible();
  await expect(page.getByRole("columnheader", { name: "Pseudo" })).toBeVisible();
  await expectAccessible(page);

  await row.getByRole("button", { name: `Désactiver ${code}` }).click();
  await expect(toast(page)).toHaveText(/Code désactivé/);
  await expect(row.getByText("Inactif")).toBeVisible();

  await row.getByText("Modifier").click();
  await row.getByLabel("Pseudo").fill(`https://elsewhere.example/r/${code}`);
  await row.getByRole("button", { name: "Enregistrer" }).click();
  await expect(row.getByText("Ce lien n'appartient pas à cette plateforme.")).toBeVisible();
  await expect(row.getByLabel("Pseudo")).toHaveValue(`https://elsewhere.example/r/${code}`);

  await row.getByLabel("Pseudo").fill(`https://${platform.slug}.example/r/${code}x`);
  await row.getByRole("button", { name: "Enregistrer" }).click();
  await expect(toast(page)).toHaveText(/Code modifié/);
  const edited = page.getByTestId(`code-row-${code}X`);
  await expect(edited).toBeVisible();
  await expect(edited.getByRole("link", { name: `https://${platform.slug}.example/r/${code}x` })).toBeVisible();

  await edited.getByRole("button", { name: `Supprimer ${code}X` }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Oui, supprimer" }).click();
  await expect(toast(page)).toHaveText(/Code supprimé/);
  await expect(page.getByTestId("codes-empty")).toBeVisible();
});

test("platforms tab: toggle, refused pattern, edit, logo upload and removal", async ({ page }) => {
  const platform = await createE2ePlatform();
  await signIn(page, "/admin/platforms");
  await expect(page.getByRole("link", { name: "Plateformes", exact: true })).toHaveAttribute("aria-current", "page");
  const card = page.getByTestId(`platform-row-${platform.slug}`);
  await expect(card).toBeVisible();
  await expectAccessible(page);

  await card.getByRole("button", { name: `Désactiver ${platform.name}` }).click();
  await expect(toast(page)).toHaveText(`Plateforme ${platform.name} désactivée`);
  await expect(card.getByText("Inactif", { exact: true })).toBeVisible();

  // Each platform's editor has a page of its own; an edit stays there.
  await card.getByRole("link", { name: `Modifier ${platform.name}` }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/platforms/${platform.id}$`));
  const editor = page.getByTestId(`platform-editor-${platform.slug}`);
  await expect(editor).toBeVisible();
  await expectAccessible(page);
  // The sweep walks the tabs, not this page: laid out at 320 px without sideways scroll here.
  await page.setViewportSize({ width: 320, height: 800 });
  await expectLaidOut(page, "platform editor, 320 px");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  await page.setViewportSize({ width: 1280, height: 720 });
  await editor.getByLabel("Format du code (expression régulière)").fill("([A-Z");
  await editor.getByRole("button", { name: "Enregistrer", exact: true }).click();
  await expect(editor.getByText("Ce format n'est pas une expression régulière valide.")).toBeVisible();
  await editor.getByLabel("Format du code (expression régulière)").fill("^[A-Z]{5}$");
  await editor.getByLabel("Nom").fill(`${platform.name} bis`);
  await editor.getByRole("button", { name: "Enregistrer", exact: true }).click();
  await expect(toast(page)).toHaveText(`Plateforme ${platform.name} bis mise à jour`);
  await expect(page).toHaveURL(new RegExp(`/admin/platforms/${platform.id}$`));
  await expect(editor.getByLabel("Nom")).toHaveValue(`${platform.name} bis`);

  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(16)]);
  await editor
    .getByLabel(`Fichier du Logo clair de ${platform.name} bis`)
    .setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: png });
  await editor.getByRole("button", { name: "Envoyer" }).first().click();
  await expect(toast(page)).toHaveText(`Logo de ${platform.name} bis enregistré`);
  await expect(editor.getByRole("img", { name: `Logo clair de ${platform.name} bis` })).toBeVisible();

  await editor
    .getByLabel(`Fichier du Logo sombre de ${platform.name} bis`)
    .setInputFiles({ name: "fake.png", mimeType: "image/png", buffer: Buffer.from("plain text") });
  await editor.getByRole("button", { name: "Envoyer" }).nth(1).click();
  await expect(editor.getByText("Format non accepté : PNG, JPEG ou WebP uniquement.")).toBeVisible();

  await editor.getByRole("button", { name: `Retirer le logo Logo clair ${platform.name} bis` }).click();
  await expect(toast(page)).toHaveText(`Logo de ${platform.name} bis supprimé`);
  await expect(page).toHaveURL(new RegExp(`/admin/platforms/${platform.id}$`));
  await expect(editor.getByText("Aucun logo personnalisé")).toHaveCount(2);

  // Back on the list, the row shows the new name.
  await page.getByRole("link", { name: "← Toutes les plateformes" }).click();
  await expect(card.getByRole("heading", { name: `${platform.name} bis` })).toBeVisible();
});

test("create platform: required fields, slug derived from the name, pages named in the toast", async ({ page }, testInfo) => {
  await signIn(page, "/admin/platforms/new");
  await expect(page.getByRole("link", { name: "Créer une plateforme" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("link", { name: "Plateformes", exact: true })).not.toHaveAttribute("aria-current", "page");
  await expectAccessible(page);

  const name = `Énergie Verte ${unique()}`;
  const slug = name
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-");
  await page.getByLabel("Nom").fill(name);
  if (!jsDisabled(testInfo)) await expect(page.getByLabel("Slug (adresse de la page)")).toHaveValue(slug);
  // Spaces pass the browser's `required`, the server still refuses them.
  await page.getByLabel("Description").fill("   ");
  await page.getByRole("button", { name: "Créer la plateforme" }).click();
  await expect(page.getByTestId("required-error")).toHaveText("Veuillez remplir tous les champs obligatoires");
  await expect(page.getByLabel("Nom")).toHaveValue(name);
  await expectAccessible(page);

  await page.getByLabel("Description").fill("Électricité verte, parrainage récompensé.");
  await page.getByLabel("Emoji").fill("⚡");
  await page.getByLabel("Dégradé").selectOption({ label: "Vert/Émeraude" });
  await page.getByRole("button", { name: "Créer la plateforme" }).click();
  await expect(toast(page)).toHaveText(`Plateforme créée : /${slug} et /${slug}/get-code`);
  await expect(page.getByTestId(`platform-row-${slug}`)).toBeVisible();
  const row = await e2eDb().selectFrom("platforms").selectAll().where("slug", "=", slug).executeTakeFirstOrThrow();
  expect(row).toMatchObject({ emoji_icon: "⚡", gradient_from: "#15803d", display_order: 10, is_active: 1 });

  await page.goto("/admin/platforms/new");
  await page.getByLabel("Nom").fill(name);
  await page.getByLabel("Slug (adresse de la page)").fill(slug);
  await page.getByLabel("Description").fill("Doublon");
  await page.getByRole("button", { name: "Créer la plateforme" }).click();
  await expect(page.getByText("Ce slug existe déjà. Veuillez en choisir un autre.")).toBeVisible();
});

test(
  "create platform with JS: a name typed before the page's script ran is kept, and its slug derived",
  JS_ONLY,
  async ({ page }) => {
    // JavaScript only: hydration needs JavaScript.
    await signIn(page, "/admin/platforms");
    // The page's script is held back until the admin has typed, as on a slow connection.
    const typed = await holdPageScript(page);
    await page.goto("/admin/platforms/new", { waitUntil: "commit" });
    const id = unique();
    const name = `Énergie Lente ${id}`;
    await page.getByLabel("Nom").fill(name);
    typed();
    await hydrated(page);
    await expect(page.getByLabel("Slug (adresse de la page)")).toHaveValue(`energie-lente-${id}`);
    // A keystroke elsewhere renders the form again: the name stays what was typed (it was emptied).
    await page.getByLabel("Slug (adresse de la page)").fill("energie-lente");
    await expect(page.getByLabel("Nom")).toHaveValue(name);
    await page.getByLabel("Nom").press("End");
    await page.getByLabel("Nom").pressSequentially("s");
    await expect(page.getByLabel("Nom")).toHaveValue(`${name}s`);
    // The slug the admin chose no longer follows the name.
    await expect(page.getByLabel("Slug (adresse de la page)")).toHaveValue("energie-lente");
  },
);

test("deletions tab: approve removes the code, reject then delete from history", async ({ page }) => {
  const platform = await createE2ePlatform();
  const doomed = `D${unique().toUpperCase()}`;
  const kept = `K${unique().toUpperCase()}`;
  const doomedCode = await addCode(platform.id, doomed);
  await e2eDb()
    .insertInto("deletion_requests")
    .values([
      { code: doomed, platform_id: platform.id, reason: "Doublon", created_at: now() },
      { code: kept, platform_id: platform.id, reason: null, created_at: now() },
    ])
    .execute();
  await signIn(page, "/admin/deletions");
  await expect(page.getByTestId(`deletion-row-${doomed}`)).toContainText(platform.name);
  await expectAccessible(page);

  await page.getByRole("button", { name: `Approuver ${doomed}` }).click();
  await expect(toast(page)).toHaveText("Code supprimé avec succès");
  await expect(page.getByTestId(`deletion-row-${doomed}`)).toContainText("Approuvée");
  expect(
    await e2eDb().selectFrom("referral_codes").select("id").where("id", "=", doomedCode.id).executeTakeFirst(),
  ).toBeUndefined();

  await page.getByRole("button", { name: `Rejeter ${kept}` }).click();
  await expect(toast(page)).toHaveText("Demande rejetée");
  await page.getByRole("button", { name: `Retirer de l'historique ${kept}` }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Oui, supprimer" }).click();
  await expect(toast(page)).toHaveText("Demande supprimée");
  await expect(page.getByTestId(`deletion-row-${kept}`)).toHaveCount(0);
});

test("suggestions tab: approve through the prefilled form, reject after confirming", async ({ page }) => {
  const name = `Banque ${unique()}`;
  const other = `Boutique ${unique()}`;
  const suggest = (n: string) =>
    e2eDb()
      .insertInto("platform_suggestions")
      .values({
        name: n,
        normalized_name: n.toLowerCase(),
        description: "Une suggestion",
        website_url: `https://www.${n.split(" ")[1]}.example/`,
        created_at: now(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
  const approved = await suggest(name);
  const rejected = await suggest(other);
  await signIn(page, "/admin/suggestions");
  await expectAccessible(page);

  await page.getByRole("button", { name: `Approuver ${name}` }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/platforms/new\\?suggestion=${approved.id}$`));
  await expect(page.getByLabel("Nom")).toHaveValue(name);
  await expect(page.getByLabel("Format du code (expression régulière)")).toHaveValue("^[A-Z0-9]{8,}$");
  await expectAccessible(page);
  await page.getByRole("button", { name: "Créer la plateforme" }).click();
  await expect(toast(page)).toHaveText(/^Plateforme créée\s!/);
  await expect(page.getByTestId(`suggestion-row-${approved.id}`)).toContainText("Approuvée");
  await expect(page.getByTestId(`suggestion-row-${approved.id}`).getByRole("button")).toHaveCount(0);
  const platform = await e2eDb().selectFrom("platforms").select("is_active").where("name", "=", name).executeTakeFirstOrThrow();
  expect(platform.is_active).toBe(0);

  // Without JS a confirmation step rendered by the server, with JS an alert dialog: both post the same form.
  await page.getByRole("button", { name: `Rejeter ${other}` }).click();
  await expect(page.getByTestId("reject-confirm")).toContainText(other);
  await expectAccessible(page);
  await page.getByRole("button", { name: "Oui, rejeter" }).click();
  await expect(toast(page)).toHaveText("Suggestion rejetée");
  await expect(page.getByTestId(`suggestion-row-${rejected.id}`)).toContainText("Rejetée");
});
