import { expect, test } from "@playwright/test";
import { countDraws } from "../support/draw-proof";
import { createCode, createPlatform, openTestDb, type TestDb } from "../support/fixtures";
import { startServer, type RunningServer } from "../support/server";
import { expectAccessible, jsDisabled } from "./support";

/**
 * The soft bound's "one moment" step (decision 350), as a visitor passes it: with JavaScript the page
 * computes the proof of work and goes on by itself; without, the visitor waits a few seconds and
 * presses Continue. On a server of its own with a soft bound of one draw a day, so the suite's
 * other draws (all from this machine's address) never meet it.
 */
test.describe.configure({ timeout: 90_000 });

let server: RunningServer;
let db: TestDb;

test.beforeAll(async () => {
  server = await startServer({ DRAW_SOFT_LIMIT: "1" });
  db = openTestDb(server.dbFile);
});
test.afterAll(async () => {
  await db?.destroy();
  await server?.stop();
});

const drawCount = () => countDraws(db);

test("past the soft bound, a draw passes the browser step and is served", async ({ page }, testInfo) => {
  const platform = await createPlatform(db);
  await createCode(db, platform.id, { code: "PROOF1" });
  const drawPage = `${server.url}/${platform.slug}/get-code`;

  await page.goto(drawPage);
  await page.getByRole("button", { name: "Lancer le tirage au sort" }).click();
  await expect(page.getByTestId("drawn-code")).toHaveText("PROOF1", { timeout: 15_000 });
  expect(await drawCount()).toBe(1);

  await page.goto(drawPage);
  await page.getByRole("button", { name: "Lancer le tirage au sort" }).click();
  if (jsDisabled(testInfo)) {
    const step = page.getByTestId("draw-proof");
    await expect(step.getByRole("heading", { name: "Un instant" })).toBeVisible();
    await expect(step).toContainText("Avant que ce tirage compte, nous vérifions qu'il vient d'un navigateur");
    await expectAccessible(page);
    expect(await drawCount()).toBe(1);
    // The visitor reads, waits the few seconds the page asks, and goes on.
    await page.waitForTimeout(3_500);
    await step.getByRole("button", { name: "Continuer" }).click();
  }
  // With JavaScript the page computed the proof and sent it by itself.
  await expect(page.getByTestId("drawn-code")).toHaveText("PROOF1", { timeout: 15_000 });
  expect(await drawCount()).toBe(2);
});
