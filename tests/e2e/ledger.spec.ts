import { expect, test } from "@playwright/test";
import { createE2eCode, createE2ePlatform, expectAccessible } from "./support";

// The public ledger's page for people (issue 61, docs/ledger.md): reached from /fairness, explains
// what is published and how to check it, links each platform's files; JS on or off, axe clean.
test("the ledger page is reached from /fairness and links a platform's file of today", async ({ page }) => {
  const p = await createE2ePlatform({ slug: `ledger-${Math.random().toString(36).slice(2, 7).replace(/\d/g, "k")}` });
  await createE2eCode(p.id, { code: "LEDGERE2E" });
  await page.goto("/fairness?lng=en");
  await page.getByTestId("fairness-ledger-link").click();
  await expect(page).toHaveURL(/\/fairness\/ledger(\?|$)/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Check the draws yourself");
  await expect(page.getByTestId("ledger-command")).toContainText("npm run fairness:verify -- ");
  const head = page.locator(`[data-testid="ledger-head"][data-slug="${p.slug}"]`);
  await expect(head).toContainText("no closed day yet");
  const today = head.getByRole("link", { name: "today's file" });
  const href = await today.getAttribute("href");
  expect(href).toBe(`/fairness/ledger/${p.slug}/${new Date().toISOString().slice(0, 10)}.jsonl`);
  const file = await page.request.get(href!);
  expect(file.status()).toBe(200);
  const [header, added] = (await file.text())
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(header).toMatchObject({ platform: p.slug, previous: null, state: [] });
  expect(added).toMatchObject({ type: "added", count: 0, active: true });
  expect(await file.text()).not.toContain("LEDGERE2E");
  await expectAccessible(page);
});
