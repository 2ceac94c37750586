import { expect, test, type Page } from "@playwright/test";
import { signIn } from "./admin-support";
import { JS_ONLY, e2eDb, expectAccessible, holdPageScript, hydrated, jsDisabled } from "./support";

/**
 * The admin assistant in the browser, JavaScript on and off. The server talks to the fake AI
 * provider started by playwright.config.ts, whose answers follow keywords in the message
 * (tests/support/fake-ai.ts, keywordBrain).
 */

async function ask(page: Page, message: string) {
  await page.getByLabel("Votre message").fill(message);
  await page.getByRole("button", { name: "Envoyer" }).click();
}

test("the admin opens on the assistant: counters above, the assistant first among the tabs", async ({ page }) => {
  await signIn(page);
  await expect(page).toHaveURL(/\/admin\/assistant$/);
  await expect(page.getByTestId("stat-activeCodes")).toBeVisible();
  const tabs = page.getByRole("navigation", { name: "Sections de l'administration" }).getByRole("link");
  await expect(tabs.first()).toHaveText("Assistant IA");
  await expect(tabs.first()).toHaveAttribute("aria-current", "page");
  await expect(page.getByTestId("assistant-greeting")).toContainText("Bonjour");
  const panel = page.getByTestId("assistant-panel");
  expect(await panel.evaluate((el) => el.getBoundingClientRect().height)).toBe(600);
  await expect(page.getByTestId("assistant-budget")).toContainText("Jetons utilisés aujourd'hui (UTC)");
  await expectAccessible(page);
});

test(
  "with JS, a page whose translations arrive late never shows a raw key: the old page waits for them",
  JS_ONLY,
  async ({ page }) => {
    // JavaScript only: client-side navigation only.
    // The assistant's translation chunks (one per language) answer 1.5 s late, as on a slow phone.
    await page.route(/\/assets\/assistant-[\w-]{8}\.js$/, async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue();
    });
    await signIn(page, "/admin/assistant");
    const tabs = page.getByRole("navigation", { name: "Sections de l'administration" }).getByRole("link");
    await expect(tabs.first()).toHaveText("Assistant IA");
    await expect(page.getByTestId("assistant-greeting")).toContainText("Bonjour");
  },
);

test("a provider picked before the page's script ran stays picked once it has", JS_ONLY, async ({ page }) => {
  // JavaScript only: hydration needs JavaScript.
  await signIn(page, "/admin/assistant");
  // The page's script is held back until the admin has chosen, as on a slow connection.
  const chosen = await holdPageScript(page);
  await page.goto("/admin/assistant", { waitUntil: "commit" });
  const provider = page.getByLabel("Fournisseur");
  await expect(provider).toHaveValue("anthropic");
  await provider.selectOption("openai");
  chosen();
  await hydrated(page);
  // React selects its state's option each time it renders a controlled select (the first time just
  // after hydration): that state was the server's choice, anthropic.
  await expect(provider).toHaveValue("openai");
  // A render after hydration (a keystroke in the message) keeps it too.
  await page.getByLabel("Votre message").fill("Bonjour");
  await expect(provider).toHaveValue("openai");
});

test("a question answered from the live database, with the tool call shown", async ({ page }, testInfo) => {
  // Two exchanges (one streamed slowly on purpose) and, without JS, a second browser for the axe check:
  // 25-30 s of work on a slow 2-core machine, all of it needed, past the default 30 s budget.
  test.setTimeout(60_000);
  await signIn(page, "/admin/assistant");
  // One admin for both projects, which may run this test at the same moment: the server refuses the
  // same new message posted twice at once (a double submit), so each project asks its own.
  await ask(page, `[tool] [slow] Quelles plateformes ont des codes ? (${testInfo.project.name})`);
  if (!jsDisabled(testInfo)) {
    // While the answer is written: the button is disabled, the tool call and the first words are on screen.
    await expect(page.getByTestId("assistant-send")).toBeDisabled();
    const live = page.getByTestId("assistant-live");
    await expect(live.locator('[data-testid="tool-call"][data-tool="list_platforms"]')).toBeVisible();
    await expect(live).toContainText("plateformes");
    await expect(page).toHaveURL(/\/admin\/assistant$/);
  }
  await expect(page).toHaveURL(/\/admin\/assistant\/\d+$/);
  const answer = page.getByTestId("assistant-message").last();
  await expect(answer).toContainText("plateformes actives");
  await expect(answer).toContainText("Voilà ce que dit la base en ce moment.");
  const call = answer.locator('[data-testid="tool-call"][data-tool="list_platforms"]');
  await expect(call).toContainText("lignes :");
  await call.locator("summary").click();
  await expect(call).toContainText('"active_only": true');
  await expect(page.getByTestId("assistant-send")).toBeEnabled();
  await expect(page.getByTestId("user-message").last()).toContainText("Quelles plateformes ont des codes ?");
  await expect(page.getByTestId("assistant-live")).toHaveCount(0);
  // Listed, and a follow-up lands in the same conversation.
  const url = page.url();
  // (Other tests start conversations at the same time: find this one by its title, not its place.)
  const id = /\/admin\/assistant\/(\d+)$/.exec(url)![1];
  await expect(
    page.getByTestId("conversation-item").filter({ has: page.locator(`a[href="/admin/assistant/${id}"]`) }),
  ).toContainText("Quelles plateformes");
  await ask(page, "Et maintenant ?");
  await expect(page.getByTestId("assistant-message")).toHaveCount(2);
  await expect(page.getByTestId("assistant-message").last()).toContainText("Réponse : Et maintenant ?");
  expect(page.url()).toBe(url);
  await expectAccessible(page);
});

test("a proposal is a card showing its row; a destructive one asks a second time, and only that changes the data", async ({
  page,
}, testInfo) => {
  const code = `PROP${Math.random().toString(36).slice(2, 8).toUpperCase()}`;
  const row = await e2eDb()
    .insertInto("deletion_requests")
    .values({ code, platform_id: 1, reason: "plus valable", created_at: "2001-01-01T00:00:00.000Z" })
    .returning("id")
    .executeTakeFirstOrThrow();
  const status = async () =>
    (await e2eDb().selectFrom("deletion_requests").select("status").where("id", "=", row.id).executeTakeFirstOrThrow()).status;

  await signIn(page, "/admin/assistant");
  await ask(page, `[propose ${code}] Que faire de cette demande ?`);
  const card = page.getByTestId("proposal-card");
  await expect(card).toContainText(code);
  await expect(card).toContainText("Le code ne marche plus.");
  await expect(card.getByTestId("proposal-row")).toContainText("plus valable");
  await expect(card.getByTestId("proposal-visitor-text")).toBeVisible();
  expect(await status()).toBe("pending");
  await card.getByRole("button", { name: "Examiner et confirmer…" }).click();
  // With JS a dialog, without JS the page's own step: either way the real form is only there.
  const step = jsDisabled(testInfo)
    ? page.getByTestId("proposal-card").getByTestId("proposal-confirm")
    : page.getByRole("alertdialog");
  await expect(step).toContainText("Appliquer vraiment ?");
  expect(await status()).toBe("pending");
  await expectAccessible(page);
  await step.getByRole("button", { name: "Oui, appliquer" }).click();
  await expect(page).toHaveURL(/\/admin\/deletions$/);
  await expect(page.getByTestId("toast").filter({ hasText: "Code supprimé avec succès" })).toBeVisible();
  expect(await status()).toBe("approved");
});

test("a failed call: the spec's toast and bubble, the message kept to send again", async ({ page }) => {
  await signIn(page, "/admin/assistant");
  await ask(page, "[fail] Combien de tirages hier ?");
  await expect(page.getByTestId("toast").filter({ hasText: "Erreur lors de l'envoi du message" })).toBeVisible();
  await expect(page.getByTestId("assistant-error")).toContainText("Désolé, une erreur s'est produite. Veuillez réessayer.");
  await expect(page.getByLabel("Votre message")).toHaveValue("[fail] Combien de tirages hier ?");
  await expect(page.getByTestId("assistant-message")).toHaveCount(0);
  // Sent again (without the failing keyword this time), it goes through.
  await ask(page, "Combien de tirages hier ?");
  await expect(page).toHaveURL(/\/admin\/assistant\/\d+$/);
  await expect(page.getByTestId("assistant-message")).toContainText("Réponse : Combien de tirages hier ?");
  await expect(page.getByTestId("assistant-error")).toHaveCount(0);
});

test("an empty or blank message is refused without a call", async ({ page }, testInfo) => {
  await signIn(page, "/admin/assistant");
  await ask(page, "   ");
  await expect(page.getByTestId("assistant-form-error")).toHaveText("Écrivez un message avant d'envoyer.");
  if (!jsDisabled(testInfo)) await expect(page).toHaveURL(/\/admin\/assistant$/);
  await expect(page.getByTestId("user-message")).toHaveCount(0);
});

test("a conversation can be deleted from the list", async ({ page }) => {
  await signIn(page, "/admin/assistant");
  const title = `À effacer ${Math.random().toString(36).slice(2, 8)}`;
  await ask(page, title);
  await expect(page).toHaveURL(/\/admin\/assistant\/\d+$/);
  const item = page.getByTestId("conversation-item").filter({ hasText: title });
  await item.getByRole("button", { name: `Supprimer la conversation « ${title} »` }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Oui, supprimer" }).click();
  await expect(page).toHaveURL(/\/admin\/assistant$/);
  await expect(page.getByTestId("toast").filter({ hasText: "Conversation supprimée" })).toBeVisible();
  await expect(page.getByTestId("conversation-item").filter({ hasText: title })).toHaveCount(0);
});
