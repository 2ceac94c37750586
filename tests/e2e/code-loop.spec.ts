import { expect, test } from "@playwright/test";
import { JS_ONLY, createE2eCode, createE2ePlatform, e2eDb, expectAccessible, hydrated, jsDisabled } from "./support";

async function addCodes(platformId: number, codes: string[], timesServed = 0) {
  for (const code of codes) {
    await createE2eCode(platformId, { code, times_served: timesServed });
  }
}

// Several pages per test, each checked with axe, on a machine shared with other suites.
test.describe.configure({ timeout: 90_000 });

test.describe("platform landing and draw", () => {
  test("landing → draw → result, with the code and its link; another code returns to ready", async ({
    page,
    context,
  }, testInfo) => {
    const p = await createE2ePlatform();
    // Served often already, so the /random test running in parallel (fewest serves first) never takes them.
    await addCodes(p.id, ["LOOPA1", "LOOPB2"], 1000);
    await page.goto(`/${p.slug}`);
    await expect(page.getByRole("heading", { level: 1, name: p.name })).toBeVisible();
    await expect(page.getByTestId("available-count")).toHaveText("2 codes disponibles");
    await expect(page.getByRole("link", { name: `Partager mon code ${p.name}` })).toHaveAttribute(
      "href",
      `/submit?platform=${p.slug}`,
    );
    await expectAccessible(page);

    await page.getByRole("link", { name: `Obtenir un code ${p.name}` }).click();
    await expect(page).toHaveURL(new RegExp(`/${p.slug}/get-code$`));
    await expectAccessible(page);
    if (!jsDisabled(testInfo)) await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    // The form posts to the draw page's action once, and nowhere else: without JS the page itself,
    // with JS Remix's own request for it (`.data`).
    const posts: string[] = [];
    page.on("request", (request) => void (request.method() === "POST" && posts.push(new URL(request.url()).pathname)));
    const action = jsDisabled(testInfo) ? `/${p.slug}/get-code` : `/${p.slug}/get-code.data`;
    const answer = page.waitForResponse((response) => new URL(response.url()).pathname === action);
    await page.getByRole("button", { name: "Lancer le tirage au sort" }).click();
    const answered = await answer;
    if (!jsDisabled(testInfo)) {
      // Remix's single-fetch redirect to the result.
      expect(answered.status()).toBe(202);
      // The slot machine spins, its skip control on the spinning code.
      await expect(page.getByTestId("draw-skip")).toBeVisible();
    } else {
      expect(answered.status()).toBe(303);
    }
    const drawn = page.getByTestId("drawn-code");
    await expect(drawn).toHaveText(/^LOOP(A1|B2)$/, { timeout: 10_000 });
    const code = (await drawn.textContent())!;
    const link = page.getByTestId("referral-link");
    await expect(link).toHaveAttribute("href", `https://${p.slug}.example/r/${code}`);
    await expect(link).toHaveAttribute("target", "_blank");
    await expect(link).toHaveAttribute("rel", "noopener noreferrer");
    await expect(page).toHaveURL(/\?draw=\d+\./);
    expect(posts).toEqual([action]);
    await expectAccessible(page);

    if (jsDisabled(testInfo)) {
      await expect(page.getByRole("textbox", { name: "Code à copier" })).toHaveValue(code);
    } else {
      const copy = page.getByTestId("copy-code");
      await copy.click();
      await expect(copy).toHaveText("Copié !");
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
      await expect(copy).toHaveText("Copier le code", { timeout: 3500 });
    }

    // A reload shows the same code and does not draw again.
    await page.reload();
    await expect(drawn).toHaveText(code);
    const served = await e2eDb().selectFrom("referral_codes").select("times_served").where("platform_id", "=", p.id).execute();
    expect(served.reduce((a, r) => a + r.times_served, 0)).toBe(2001);

    await page.getByRole("link", { name: "Obtenir un autre code" }).click();
    await expect(page.getByRole("button", { name: "Lancer le tirage au sort" })).toBeVisible();
  });

  test("reduced motion skips the animation", JS_ONLY, async ({ page }) => {
    // JavaScript only: the animation needs JavaScript.
    const p = await createE2ePlatform();
    await addCodes(p.id, ["CALM01"]);
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.goto(`/${p.slug}/get-code`);
    await page.getByRole("button", { name: "Lancer le tirage au sort" }).click();
    await expect(page.getByTestId("drawn-code")).toHaveText("CALM01", { timeout: 2000 });
    await expect(page.getByTestId("draw-skip")).toHaveCount(0);
  });

  for (const how of ["tap", "key"] as const) {
    test(
      `one ${how} skips the slot machine: the code and Copy within 2 s of the click, and nothing moves`,
      JS_ONLY,
      async ({ page }) => {
        // JavaScript only: the animation needs JavaScript.
        const p = await createE2ePlatform();
        await addCodes(p.id, [`SKIP${how.toUpperCase()}1`]);
        await e2eDb()
          .insertInto("platform_offers")
          .values({ platform_id: p.id, offer_steps: "Ouvrez le lien", updated_at: new Date().toISOString() } as never)
          .execute();
        await page.goto(`/${p.slug}/get-code`);
        await hydrated(page);
        const clickedAt = Date.now();
        await page.getByRole("button", { name: "Lancer le tirage au sort" }).click();
        const skip = page.getByTestId("draw-skip");
        await expect(skip).toBeVisible();
        // The claim guide below is laid out during the spin already (measured on the tap's run; the
        // key's run measures only the time).
        const guide = page.getByTestId("claim-guide");
        const during = how === "tap" ? { guide: await guide.boundingBox(), code: await skip.boundingBox() } : null;
        if (how === "tap") await skip.click();
        else await page.keyboard.press("x");
        await expect(page.getByTestId("copy-code")).toBeVisible();
        await expect(page.getByTestId("drawn-code")).toBeVisible();
        if (how === "key") expect(Date.now() - clickedAt).toBeLessThan(2000);
        await expect(page.getByTestId("drawn-code")).toHaveText(`SKIP${how.toUpperCase()}1`);
        await expect(skip).toHaveCount(0);
        if (during) {
          expect(await guide.boundingBox()).toEqual(during.guide);
          expect((await page.getByTestId("drawn-code").boundingBox())!.y).toBe(during.code!.y);
        }
        await expect(page.getByRole("heading", { name: "Votre code" })).toBeFocused();
      },
    );
  }

  test("no eligible code: said once, the draw disabled, 'share yours' leads to /submit with the platform chosen", async ({
    page,
  }) => {
    const p = await createE2ePlatform();
    await page.goto(`/${p.slug}/get-code`);
    await expect(page.getByTestId("no-code")).toHaveText("Aucun code disponible pour cette plateforme");
    await expect(page.getByText(/aucun code disponible/i)).toHaveCount(1);
    await expect(page.getByRole("button", { name: "Lancer le tirage au sort" })).toBeDisabled();
    await expectAccessible(page);
    await page.getByTestId("share-yours").click();
    await expect(page).toHaveURL(`/submit?platform=${p.slug}`);
    await expect(page.getByLabel("Plateforme")).toHaveValue(p.slug);
  });

  test("/random shows the platform's name", async ({ page }) => {
    const p = await createE2ePlatform();
    await addCodes(p.id, ["RAND01"]);
    await page.goto("/random");
    await page.getByRole("button", { name: "Lancer le tirage au sort" }).click();
    await expect(page.getByTestId("drawn-code")).toBeVisible({ timeout: 10_000 });
    await expect(page.getByTestId("drawn-platform")).toContainText("Plateforme : ");
    await expect(page.getByRole("link", { name: "Retour à l'accueil" }).last()).toHaveAttribute("href", "/");
    await expectAccessible(page);
  });

  test("unknown platform: the 404 page says so", async ({ page }) => {
    const res = await page.goto("/plateforme-qui-n-existe-pas");
    expect(res?.status()).toBe(404);
    await expect(page.getByTestId("not-found")).toContainText("Plateforme introuvable");
  });
});

test.describe("submit", () => {
  test("preselected platform, a URL becomes its code, then the thank-you step", async ({ page }, testInfo) => {
    const p = await createE2ePlatform();
    await page.goto(`/submit?platform=${p.slug}`);
    await expect(page.getByLabel("Plateforme")).toHaveValue(p.slug);
    await expectAccessible(page);

    await page.getByRole("button", { name: "Ajouter mon code" }).click();
    await expect(page.getByText("Veuillez saisir un code ou une URL")).toBeVisible();

    await page.getByLabel("Code ou lien de parrainage").fill(`https://${p.slug}.example/r/share42`);
    await page.getByRole("button", { name: "Ajouter mon code" }).click();
    // A step of the page, with JS as without (post, redirect, get): no dialog a key could close. It
    // names the code, and the form is gone until the sharer says their private link is saved.
    const thanks = page.getByTestId("thank-you");
    await expect(thanks).toBeVisible();
    await expect(page).toHaveURL(/\/submit\?thanks=1$/);
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(thanks.getByTestId("thanks-code")).toHaveText(
      `Le code SHARE42 est ajouté à ${p.name} : il entre dans la rotation.`,
    );
    await expect(page.getByLabel("Code ou lien de parrainage")).toHaveCount(0);
    await expect(page.getByTestId("toast")).toContainText("Code ajouté avec succès !");
    await expect(page.getByTestId("share-whatsapp")).toHaveAttribute("href", /^https:\/\/wa\.me\/\?text=/);
    await expectAccessible(page, { exclude: ['[data-testid="toast"]'] });
    if (!jsDisabled(testInfo)) {
      await expect(page.getByRole("heading", { name: "Merci pour votre partage !" })).toBeFocused();
      // Escape closes nothing: the link stays.
      await page.keyboard.press("Escape");
      await expect(page.getByTestId("owner-link")).toBeVisible();
    }
    // A reload keeps the step and the link.
    await page.reload();
    await expect(page.getByTestId("owner-link")).toBeVisible();
    await page.getByTestId("owner-link-saved").click();
    await expect(page).toHaveURL(/\/submit$/);
    await expect(page.getByTestId("thank-you")).toHaveCount(0);
    await expect(page.getByLabel("Code ou lien de parrainage")).toHaveValue("");
    await expect(page.getByTestId("toast")).toContainText("Vous pouvez partager un autre code.");
    const row = await e2eDb().selectFrom("referral_codes").selectAll().where("platform_id", "=", p.id).executeTakeFirstOrThrow();
    expect(row.code).toBe("SHARE42");
    expect(row.referral_url).toBe(`https://${p.slug}.example/r/share42`);
  });

  test("a foreign link is refused with the message and the input kept", async ({ page }) => {
    const p = await createE2ePlatform();
    await page.goto(`/submit?platform=${p.slug}`);
    await page.getByLabel("Code ou lien de parrainage").fill("https://evil.example/r/abc123");
    await page.getByRole("button", { name: "Ajouter mon code" }).click();
    await expect(page.getByText("Ce lien n'appartient pas à la plateforme choisie.")).toBeVisible();
    await expect(page.getByLabel("Code ou lien de parrainage")).toHaveValue("https://evil.example/r/abc123");
    const rows = await e2eDb().selectFrom("referral_codes").select("id").where("platform_id", "=", p.id).execute();
    expect(rows).toHaveLength(0);
  });

  test("duplicate → yes, with a reason: a deletion request", async ({ page }) => {
    const p = await createE2ePlatform();
    await addCodes(p.id, ["TWICE1"]);
    await page.goto(`/submit?platform=${p.slug}`);
    await page.getByLabel("Code ou lien de parrainage").fill("twice1");
    await page.getByRole("button", { name: "Ajouter mon code" }).click();
    const step = page.getByTestId("duplicate-step");
    await expect(step).toContainText("Ce code existe déjà dans notre base de données.");
    await expect(step.getByTestId("duplicate-own-code")).toHaveText(
      "C'est votre propre code\u00a0? Il est déjà en rotation\u00a0: rien à faire.",
    );
    // The reason box comes only after yes (the specification's order).
    await expect(page.getByLabel("Raison (facultatif)")).toHaveCount(0);
    await expectAccessible(page);
    await step.getByRole("button", { name: "Oui, demander sa suppression" }).click();
    await expect(step).toHaveAttribute("data-stage", "reason");
    await expect(
      e2eDb().selectFrom("deletion_requests").select("id").where("platform_id", "=", p.id).execute(),
    ).resolves.toHaveLength(0);
    await page.getByLabel("Raison (facultatif)").fill("Il ne fonctionne plus");
    await page.getByRole("button", { name: "Oui, envoyer une demande de suppression" }).click();
    await expect(page.getByTestId("toast")).toContainText("Demande de suppression envoyée !");
    const request = await e2eDb()
      .selectFrom("deletion_requests")
      .selectAll()
      .where("platform_id", "=", p.id)
      .executeTakeFirstOrThrow();
    expect(request).toMatchObject({ code: "TWICE1", reason: "Il ne fonctionne plus", status: "pending" });
  });

  test("duplicate → no: 'Code non ajouté', nothing written", async ({ page }) => {
    const p = await createE2ePlatform();
    await addCodes(p.id, ["TWICE2"]);
    await page.goto(`/submit?platform=${p.slug}`);
    await page.getByLabel("Code ou lien de parrainage").fill("TWICE2");
    await page.getByRole("button", { name: "Ajouter mon code" }).click();
    // "Don't add it" is the primary action, first; the deletion request is a quiet secondary one.
    const step = page.getByTestId("duplicate-step");
    await expect(step.getByRole("button").first()).toHaveText("Non, ne pas l'ajouter");
    const keep = await step.getByTestId("duplicate-keep").evaluate((el) => getComputedStyle(el).backgroundColor);
    const request = step.getByTestId("duplicate-yes");
    await expect(request).toHaveCSS("background-color", "rgba(0, 0, 0, 0)");
    expect(keep).not.toBe("rgba(0, 0, 0, 0)");
    await page.getByRole("button", { name: "Non, ne pas l'ajouter" }).click();
    await expect(page.getByTestId("toast")).toContainText("Code non ajouté");
    const deletions = await e2eDb().selectFrom("deletion_requests").select("id").where("platform_id", "=", p.id).execute();
    expect(deletions).toHaveLength(0);
    const codes = await e2eDb().selectFrom("referral_codes").select("id").where("platform_id", "=", p.id).execute();
    expect(codes).toHaveLength(1);
  });
});
