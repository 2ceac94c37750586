import { expect, test } from "@playwright/test";
import { signIn } from "./admin-support";
import { createE2eCode, createE2ePlatform, e2eDb, expectAccessible, jsDisabled } from "./support";

// The offer and claim guide (admin edit, platform page, draw result) and the one-click failure
// reasons, with JavaScript on and off (the `js` and `no-js` projects run this file each).
test.describe.configure({ timeout: 90_000 });

async function addCode(platformId: number, code: string) {
  // Served often already, so a /random draw running in parallel (fewest serves first) never takes it.
  return createE2eCode(platformId, { code, times_served: 1000 });
}

test("the admin writes the offer in the platforms tab; /{slug} shows it, empty fields hidden", async ({ page }, testInfo) => {
  const p = await createE2ePlatform();
  await signIn(page, "/admin/platforms");
  await page.goto("/admin/platforms");
  // The list links to the platform's editor page, which holds the offer editor.
  await page
    .getByTestId(`platform-row-${p.slug}`)
    .getByRole("link", { name: `Modifier ${p.name}` })
    .click();
  await expect(page).toHaveURL(new RegExp(`/admin/platforms/${p.id}$`));
  const editorPage = page.getByTestId(`platform-editor-${p.slug}`);
  await editorPage.getByText("Offre et guide pour en profiter").click();
  const editor = editorPage.getByTestId(`offer-editor-${p.id}`);
  const french = editor.getByRole("group", { name: "Français (par défaut)" });
  await french.getByLabel("Ce que reçoit le nouveau client").fill("Un mois offert");
  await french.getByLabel("Étapes (une par ligne)").fill("Ouvrez le lien\nCréez votre compte");
  await editor.getByRole("group", { name: "Anglais" }).getByLabel("Ce que reçoit le nouveau client").fill("One free month");
  await editor.getByLabel("Vérifiée le").fill("2026-11-01");
  await expectAccessible(page);
  await editor.getByRole("button", { name: `Enregistrer l'offre ${p.name}` }).click();
  await expect(page.getByTestId("toast")).toContainText(`Offre ${p.name} enregistrée.`);
  await expect(page).toHaveURL(new RegExp(`/admin/platforms/${p.id}$`));
  const saved = await e2eDb().selectFrom("platform_offers").selectAll().where("platform_id", "=", p.id).executeTakeFirstOrThrow();
  expect(saved).toMatchObject({
    offer_referee: "Un mois offert",
    offer_referee_en: "One free month",
    offer_checked_on: "2026-11-01",
  });
  expect(saved.offer_steps).toBe("Ouvrez le lien\nCréez votre compte");

  await page.goto(`/${p.slug}`);
  const offer = page.getByTestId("platform-offer");
  await expect(offer.getByTestId("offer-referee")).toHaveText("Un mois offert");
  await expect(offer.getByTestId("offer-referrer")).toHaveCount(0);
  await expect(offer.getByTestId("offer-steps").getByRole("listitem")).toHaveText(["Ouvrez le lien", "Créez votre compte"]);
  await expect(offer.getByTestId("offer-checked")).toHaveText("Offre vérifiée le 01/11/2026.");
  await expectAccessible(page);
  if (!jsDisabled(testInfo)) {
    // With JS, a client navigation to the page in English shows the English text (French steps).
    await page.goto(`/${p.slug}?lng=en`);
    await expect(page.getByTestId("offer-referee")).toHaveText("One free month");
    await expect(page.getByTestId("offer-steps").getByRole("listitem")).toHaveText(["Ouvrez le lien", "Créez votre compte"]);
  }
});

test("the draw result shows the claim guide; a failure reason is one click", async ({ page }) => {
  const p = await createE2ePlatform();
  const { id } = await addCode(p.id, "REASON1");
  await e2eDb()
    .insertInto("platform_offers")
    .values({
      platform_id: p.id,
      offer_referee: "Dix euros",
      offer_steps: "Ouvrez le lien",
      updated_at: new Date().toISOString(),
    } as never)
    .execute();
  await page.goto(`/${p.slug}/get-code`);
  await expect(page.getByTestId("platform-offer")).toContainText("Dix euros");
  await page.getByRole("button", { name: "Lancer le tirage au sort" }).click();
  await expect(page.getByTestId("drawn-code")).toHaveText("REASON1", { timeout: 10_000 });
  const guide = page.getByTestId("claim-guide");
  await expect(guide.getByRole("heading", { name: "Comment obtenir votre récompense" })).toBeVisible();
  await expect(guide.getByTestId("offer-steps").getByRole("listitem")).toHaveText(["Ouvrez le lien"]);
  const report = page.getByTestId("draw-report");
  await expect(report.getByRole("group", { name: "Non, il n'a pas fonctionné. Pourquoi ?" })).toBeVisible();
  await expectAccessible(page);

  await report.getByRole("button", { name: "Limite de parrainages atteinte" }).click();
  await expect(page.getByTestId("report-thanks")).toContainText("Vous avez indiqué que ce code n'a pas fonctionné.");
  await expect(page.getByTestId("report-reason-limit-reached")).toHaveCount(0);
  // Another code, right beside the answer, leading back to the draw.
  await expect(page.getByTestId("try-another")).toHaveText("Essayer un autre code");
  await expect(page.getByTestId("try-another")).toHaveAttribute("href", `/${p.slug}/get-code`);
  const rows = await e2eDb().selectFrom("code_reports").select(["outcome", "reason"]).where("code_id", "=", id).execute();
  expect(rows).toEqual([{ outcome: "failed", reason: "limit-reached" }]);
  // The guide stays under the result after the answer.
  await expect(page.getByTestId("claim-guide")).toBeVisible();
  await expectAccessible(page, { exclude: ['[data-testid="toast"]'] });
});

test("at 320 px the reason buttons wrap without sideways scroll", async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 800 });
  const p = await createE2ePlatform();
  await addCode(p.id, "NARROW1");
  await page.goto(`/${p.slug}/get-code`);
  await page.getByRole("button", { name: "Lancer le tirage au sort" }).click();
  await expect(page.getByTestId("report-reason-conditions-not-met")).toBeVisible({ timeout: 10_000 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

test("the offer leads: the home and /platforms cards, the hero and the draw result say what the new customer gets", async ({
  page,
}) => {
  const p = await createE2ePlatform({ show_in_homepage: 1, display_order: 900 });
  const bare = await createE2ePlatform({ show_in_homepage: 1, display_order: 900 });
  await addCode(p.id, "LEAD1");
  await e2eDb()
    .insertInto("platform_offers")
    .values({
      platform_id: p.id,
      offer_referee: "Vingt euros offerts",
      offer_referee_en: "Twenty euros free",
      updated_at: new Date().toISOString(),
    } as never)
    .execute();
  await page.goto("/");
  const slide = page.getByTestId("platform-slide").filter({ has: page.locator(`a[href="/${p.slug}"]`) });
  await expect(slide.getByTestId("offer-lead")).toHaveText("Ce que vous recevez : Vingt euros offerts");
  const bareSlide = page.getByTestId("platform-slide").filter({ has: page.locator(`a[href="/${bare.slug}"]`) });
  await expect(bareSlide).toHaveCount(1);
  await expect(bareSlide.getByTestId("offer-lead")).toHaveCount(0);

  await page.goto(`/${p.slug}`);
  await expect(page.locator("#platform-heading").locator("..").getByTestId("offer-lead")).toContainText("Vingt euros offerts");
  await page.goto(`/${p.slug}/get-code`);
  await page.getByRole("button", { name: "Lancer le tirage au sort" }).click();
  await expect(page.getByTestId("drawn-code")).toHaveText("LEAD1", { timeout: 10_000 });
  await expect(page.getByTestId("draw-result").getByTestId("offer-lead")).toContainText("Vingt euros offerts");
  await expectAccessible(page, { exclude: ['[data-testid="toast"]'] });
  // Last: the English page sets the language cookie.
  await page.goto(`/platforms?q=${encodeURIComponent(p.name)}&lng=en`);
  await expect(page.locator(`[data-slug="${p.slug}"]`).getByTestId("offer-lead")).toHaveText("What you get: Twenty euros free");
});
