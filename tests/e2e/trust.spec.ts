import { expect, test } from "@playwright/test";
import { signIn } from "./admin-support";
import { createE2eCode, createE2ePlatform, e2eDb, expectAccessible, jsDisabled } from "./support";

// Several pages per test, each checked with axe, on a machine shared with other suites.
test.describe.configure({ timeout: 90_000 });

async function addCode(platformId: number, code: string, timesServed = 0) {
  return createE2eCode(platformId, { code, times_served: timesServed });
}

test.describe("did this code work?", () => {
  test("on a platform's result page: answer 'failed', then the page shows the answer", async ({ page }) => {
    const p = await createE2ePlatform();
    // Served often already, so a /random draw running in parallel (fewest serves first) never takes it.
    const { id } = await addCode(p.id, "ASKME1", 1000);
    await page.goto(`/${p.slug}/get-code`);
    await page.getByRole("button", { name: "Lancer le tirage au sort" }).click();
    await expect(page.getByTestId("drawn-code")).toHaveText("ASKME1", { timeout: 10_000 });
    const report = page.getByTestId("draw-report");
    await expect(report.getByRole("heading", { name: "Ce code a-t-il fonctionné ?" })).toBeVisible();
    await expect(page.getByTestId("last-worked")).toHaveText("Personne n'a encore signalé que ce code fonctionne.");
    await expectAccessible(page);

    const resultUrl = page.url();
    await report.getByRole("button", { name: "Code expiré ou refusé" }).click();
    await expect(page.getByTestId("report-thanks")).toContainText("Vous avez indiqué que ce code n'a pas fonctionné.");
    await expect(page.getByTestId("toast")).toContainText("Merci pour votre réponse !");
    expect(page.url()).toBe(resultUrl);
    await expect(page.getByTestId("report-failed")).toHaveCount(0);
    await expectAccessible(page, { exclude: ['[data-testid="toast"]'] });
    const rows = await e2eDb().selectFrom("code_reports").select(["outcome", "reason"]).where("code_id", "=", id).execute();
    expect(rows).toEqual([{ outcome: "failed", reason: "expired" }]);

    // A reload neither asks again nor stores anything more.
    await page.reload();
    await expect(page.getByTestId("report-thanks")).toBeVisible();
    expect(await e2eDb().selectFrom("code_reports").select("id").where("code_id", "=", id).execute()).toHaveLength(1);
  });

  test("on /random: answer 'worked'", async ({ page }) => {
    const p = await createE2ePlatform();
    await addCode(p.id, "RANDOK");
    await page.goto("/random");
    await page.getByRole("button", { name: "Lancer le tirage au sort" }).click();
    const drawn = page.getByTestId("drawn-code");
    await expect(drawn).toBeVisible({ timeout: 10_000 });
    const requestId = Number(/draw=(\d+)\./.exec(page.url())![1]);
    await page.getByRole("button", { name: "Oui, il a fonctionné" }).click();
    await expect(page.getByTestId("report-thanks")).toContainText("Vous avez indiqué que ce code a fonctionné.");
    await expect(page).toHaveURL(/\/random\?draw=\d+\./);
    await expect(page.getByTestId("last-worked")).toContainText("Dernier succès signalé :");
    const rows = await e2eDb().selectFrom("code_reports").select("outcome").where("random_request_id", "=", requestId).execute();
    expect(rows).toEqual([{ outcome: "worked" }]);
    await expectAccessible(page, { exclude: ['[data-testid="toast"]'] });
  });

  test("the platform page shows the 90-day figure from 5 answers, and links to /fairness", async ({ page }) => {
    const p = await createE2ePlatform();
    const { id } = await addCode(p.id, "FIGUR1", 1000);
    const now = new Date().toISOString();
    for (const outcome of ["worked", "worked", "worked", "worked", "failed"] as const) {
      const draw = await e2eDb()
        .insertInto("random_requests")
        .values({ platform_id: p.id, served_code_id: id, served_code: "FIGUR1", created_at: now })
        .returning("id")
        .executeTakeFirstOrThrow();
      await e2eDb()
        .insertInto("code_reports")
        .values({ random_request_id: draw.id, code_id: id, platform_id: p.id, outcome, ip_hash: `h${draw.id}`, created_at: now })
        .execute();
    }
    await page.goto(`/${p.slug}`);
    await expect(page.getByTestId("answer-figure")).toHaveText("Ça a marché pour 80 % des 5 réponses (90 derniers jours)");
    await expectAccessible(page);
    await page.getByTestId("fairness-link").click();
    await expect(page).toHaveURL(new RegExp(`/fairness\\?platform=${p.slug}$`));
    await expect(page.getByRole("heading", { level: 1, name: "Comment le prochain code est choisi" })).toBeVisible();
    const card = page.locator(`[data-slug="${p.slug}"]`);
    await expect(card.getByTestId("fairness-in-rotation")).toHaveText("1");
    await expect(card.getByRole("img")).toBeVisible();
    await expectAccessible(page);
  });
});

test.describe("the owner's private link", () => {
  test("submit → private link kept until saved → owner page: pause, resume, delete", async ({ page, context }, testInfo) => {
    const p = await createE2ePlatform();
    await page.goto(`/submit?platform=${p.slug}`);
    await page.getByLabel("Code ou lien de parrainage").fill("MINE4242");
    await page.getByRole("button", { name: "Ajouter mon code" }).click();
    const link = page.getByTestId("owner-link");
    await expect(link).toBeVisible();
    await expect(page.getByText("il n'y a ni compte ni e-mail")).toBeVisible();
    const href = (await link.getAttribute("href"))!;
    expect(href).toMatch(/\/my-code\/[\w-]{43}$/);
    if (!jsDisabled(testInfo)) {
      await context.grantPermissions(["clipboard-read", "clipboard-write"]);
      await page.getByTestId("copy-owner-link").click();
      await expect(page.getByTestId("copy-owner-link")).toHaveText("Lien copié !");
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(href);
    }
    await expectAccessible(page, { exclude: ['[data-testid="toast"]'] });
    // Kept until the sharer says it is saved, then gone.
    await page.reload();
    await expect(page.getByTestId("owner-link")).toHaveAttribute("href", href);
    await page.getByTestId("owner-link-saved").click();
    await expect(page.getByTestId("owner-link")).toHaveCount(0);
    await page.goto("/submit?thanks=1");
    await expect(page.getByTestId("owner-link")).toHaveCount(0);

    const path = new URL(href).pathname;
    await page.goto(path);
    await expect(page.getByTestId("owned-code")).toHaveText("MINE4242");
    await expect(page.getByTestId("owned-status")).toHaveText("Dans la rotation");
    await expect(page.getByTestId("owned-place")).toContainText("Au prochain tirage");
    await expectAccessible(page);

    await page.getByTestId("owner-pause").click();
    await expect(page.getByTestId("owned-status")).toHaveText("En pause (par vous)");
    await expect(page.getByTestId("toast")).toContainText("Votre code est en pause.");
    await expect(page.getByTestId("owned-place")).toHaveText("hors rotation");
    await page.getByTestId("owner-resume").click();
    await expect(page.getByTestId("owned-status")).toHaveText("Dans la rotation");
    await expectAccessible(page, { exclude: ['[data-testid="toast"]'] });

    // Deleting asks first (a dialog with JS, a step of its own without): "Annuler" keeps the code.
    await page.getByTestId("owner-delete").click();
    const question = page.getByTestId("owner-delete-confirm");
    await expect(question).toContainText(/Supprimer ce code définitivement\s\?/);
    if (jsDisabled(testInfo)) await expect(page).toHaveURL(/\?delete=\d+$/);
    await question.getByRole(jsDisabled(testInfo) ? "link" : "button", { name: "Annuler" }).click();
    await expect(page.getByTestId("owner-delete-confirm")).toBeHidden();
    await expect(page.getByTestId("owned-code")).toHaveText("MINE4242");
    await page.getByTestId("owner-delete").click();
    await page
      .getByTestId("owner-delete-confirm")
      .getByRole("button", { name: "Je veux supprimer ce code définitivement" })
      .click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId("toast")).toContainText("Votre code a été supprimé.");
    expect(await e2eDb().selectFrom("referral_codes").select("id").where("platform_id", "=", p.id).execute()).toHaveLength(0);
    const gone = await page.goto(path);
    expect(gone?.status()).toBe(404);
    await expect(page.getByTestId("not-found")).toBeVisible();
  });
});

test.describe("admin", () => {
  test("the codes tab lists a code paused after failed answers, with its answers, and restores it", async ({ page }) => {
    const p = await createE2ePlatform();
    const code = `PAUSED${Math.random().toString(36).slice(2, 6).toUpperCase()}`;
    const now = new Date().toISOString();
    const { id } = await createE2eCode(p.id, { code, is_active: 0, paused_reason: "reports", paused_at: now, created_at: now });
    for (const ip of ["a", "b", "c"]) {
      const draw = await e2eDb()
        .insertInto("random_requests")
        .values({ platform_id: p.id, served_code_id: id, served_code: code, created_at: now })
        .returning("id")
        .executeTakeFirstOrThrow();
      await e2eDb()
        .insertInto("code_reports")
        .values({
          random_request_id: draw.id,
          code_id: id,
          platform_id: p.id,
          outcome: "failed",
          ip_hash: `${ip}${draw.id}`,
          created_at: now,
        })
        .execute();
    }
    await signIn(page, `/admin/codes?platform=${p.slug}`);
    const paused = page.getByTestId(`paused-${code}`);
    await expect(paused).toBeVisible();
    await expect(paused.getByRole("cell", { name: "échec" })).toHaveCount(3);
    await expect(page.getByTestId(`code-row-${code}`).getByTestId("paused-reason")).toHaveText("en pause après des échecs");
    await expectAccessible(page);
    await paused.getByRole("button", { name: `Rétablir ${code}` }).click();
    await expect(page.getByTestId("toast")).toContainText("Code rétabli");
    await expect(page.getByTestId(`paused-${code}`)).toHaveCount(0);
    const row = await e2eDb().selectFrom("referral_codes").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ is_active: 1, paused_reason: null });
  });
});
