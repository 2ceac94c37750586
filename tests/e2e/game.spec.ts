import { expect, test, type Locator, type Page } from "@playwright/test";
import { NO_JS_ONLY, e2eDb, expectAccessible } from "./support";

const GAME_CHUNK = /\/assets\/constellation-game-[\w-]+\.js$/;
const END_DIALOG_CHUNK = /\/assets\/game-end-dialog-[\w-]+\.js$/;

/** Requests for the game's chunk (or another), from the start of the page's life. */
function watchGameChunk(page: Page, chunk = GAME_CHUNK) {
  const seen: string[] = [];
  page.on("request", (r) => {
    if (chunk.test(new URL(r.url()).pathname)) seen.push(r.url());
  });
  return seen;
}

/**
 * The home page with a controlled clock, its game idle; `starts` collects the bodies the page posts
 * to /game/start from then on.
 */
async function openIdleGame(page: Page) {
  await page.clock.install();
  const starts: string[] = [];
  page.on("request", (r) => {
    if (r.url().endsWith("/game/start")) starts.push(r.postData() ?? "");
  });
  await page.goto("/");
  const game = page.getByTestId("game");
  await expect(game).toHaveAttribute("data-phase", "idle");
  return { game, starts };
}

/**
 * Stops the page's installed clock a moment from now (its time flows with real time until then).
 * `pauseAt` refuses a time already past, and on a busy machine the page's clock can pass the moment
 * chosen before the call reaches it: then a new moment is chosen from the page's time then.
 */
async function pauseSoon(page: Page) {
  for (let attempt = 1; ; attempt++) {
    const at = (await page.evaluate(() => Date.now())) + 200;
    try {
      await page.clock.pauseAt(at);
      return;
    } catch (error) {
      if (attempt >= 5 || !String(error).includes("Cannot fast-forward to the past")) throw error;
    }
  }
}

/** From a countdown on the page's controlled clock: 3 s, then 60 s of play (and a second for the end). */
async function playFromCountdown(page: Page, game: Locator) {
  await expect(game).toHaveAttribute("data-phase", "countdown");
  await page.clock.runFor(3_000);
  await expect(game).toHaveAttribute("data-phase", "playing");
  for (let i = 0; i < 61; i++) await page.clock.runFor(1_000);
}

test.describe("without JavaScript", () => {
  test("the home page has no game code and no canvas", NO_JS_ONLY, async ({ page }) => {
    // Without JavaScript only: JS-off check.
    const chunks = watchGameChunk(page);
    const res = await page.goto("/");
    const html = (await res!.text()) ?? "";
    expect(html).not.toMatch(/constellation-game/);
    expect(html).not.toMatch(/<canvas/);
    await expect(page.locator("canvas")).toHaveCount(0);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    expect(chunks).toEqual([]);
  });
});

test.describe("with JavaScript", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the game needs JavaScript");

  test("the game's chunk loads only after the page's load event, and not at all under reduced motion or Save-Data", async ({
    page,
    browser,
  }) => {
    const chunks = watchGameChunk(page);
    const dialogChunks = watchGameChunk(page, END_DIALOG_CHUNK);
    const consoleErrors: string[] = [];
    page.on("console", (m) => {
      // Partner logos that other tests point at unreachable hosts fail to load; that is not the game's.
      if (m.type() === "error" && !m.text().includes("ERR_NAME_NOT_RESOLVED")) consoleErrors.push(m.text());
    });
    const res = await page.goto("/");
    expect(res!.headers()["content-security-policy"]).toMatch(/script-src 'self' 'nonce-/);
    expect(await res!.text()).not.toMatch(/constellation-game/); // not preloaded by the page
    await expect(page.getByTestId("game-canvas")).toBeAttached();
    expect(chunks).toHaveLength(1);
    const timing = await page.evaluate(() => {
      const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
      const chunk = performance.getEntriesByType("resource").find((e) => e.name.includes("/constellation-game-"))!;
      return { loadEnd: nav.loadEventEnd, chunkStart: chunk.startTime };
    });
    expect(timing.chunkStart).toBeGreaterThanOrEqual(timing.loadEnd);
    // The end dialog (react-aria's modal, zod, the leaderboard) is a chunk of its own, asked for when play begins.
    expect(dialogChunks).toEqual([]);
    await expect(page.getByTestId("game-canvas")).toHaveAttribute("aria-hidden", "true");
    expect(consoleErrors).toEqual([]); // no CSP refusal of the chunk, its CSS or its texts

    for (const setup of ["reduced-motion", "save-data"] as const) {
      const context = await browser.newContext({
        locale: "fr-FR",
        reducedMotion: setup === "reduced-motion" ? "reduce" : "no-preference",
      });
      if (setup === "save-data") {
        await context.addInitScript(() =>
          Object.defineProperty(Navigator.prototype, "connection", { get: () => ({ saveData: true }), configurable: true }),
        );
      }
      const quiet = await context.newPage();
      const quietChunks = watchGameChunk(quiet);
      await quiet.goto("/");
      // Long enough for the idle callback that loaded the chunk above (its timeout is 5 s).
      await quiet.waitForTimeout(5_500);
      expect(quietChunks, setup).toEqual([]);
      await expect(quiet.locator("canvas"), setup).toHaveCount(0);
      await context.close();
    }
  });

  test("a game chunk that fails to load (a flaky network, a deploy that replaced it) leaves the home page as it was", async ({
    page,
  }) => {
    await page.route(GAME_CHUNK, (route) => route.abort("failed"));
    const failed = page.waitForEvent("requestfailed", (r) => GAME_CHUNK.test(new URL(r.url()).pathname));
    await page.goto("/");
    const heading = await page.getByRole("heading", { level: 1 }).textContent();
    await failed;
    // The failure reaches React in a microtask; a frame and a task later any error page would be drawn.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 100))));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading!);
    await expect(page.getByTestId("platform-carousel")).toBeVisible();
    await expect(page.locator("canvas")).toHaveCount(0);
  });

  test.describe("on a phone", () => {
    test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

    test("10 taps start a countdown, 60 s of play, a saved score shown in the top 10", async ({ page }) => {
      test.setTimeout(150_000);
      const pseudo = `Tap${Math.random().toString(36).slice(2, 8)}`;
      const dialogChunks = watchGameChunk(page, END_DIALOG_CHUNK);
      const { game, starts } = await openIdleGame(page);

      // Taps on the hero's text (not a link): a hint at the 8th, the countdown at the 10th.
      const box = (await page.locator("#hero-heading").boundingBox())!;
      const spot = { x: box.x + 30, y: box.y + 12 };
      for (let i = 1; i <= 9; i++) {
        await page.touchscreen.tap(spot.x + (i % 3), spot.y);
        if (i === 7) await expect(page.getByTestId("game-hint")).toHaveCount(0);
      }
      await expect(page.getByTestId("game-hint")).toBeVisible();
      await page.touchscreen.tap(spot.x, spot.y);
      await expect(game).toHaveAttribute("data-phase", "countdown");
      await expect(page.getByTestId("game-countdown")).toHaveText("3");
      expect(starts).toEqual([]); // the session starts with play, not with the countdown

      // The page's time stands still until the clock reads 60 s: waiting for the session's post takes
      // real seconds on a busy machine, and the installed clock lets real time flow.
      await pauseSoon(page);
      await page.clock.runFor(3_000);
      await expect(game).toHaveAttribute("data-phase", "playing");
      const playStartedAt = Date.now();
      await expect.poll(() => starts).toEqual(["device_type=mobile"]);
      expect(dialogChunks).toHaveLength(1); // fetched with the session, ready for the end
      await expect(page.getByTestId("game-time")).toHaveText("Temps : 60 s");
      await page.clock.resume();

      // Play: tap the orbs the canvas reports, while the clock moves the game on.
      const canvas = page.getByTestId("game-canvas");
      // A finger aiming at an orb never lands on "Quit": every orb's reach (18 px, COLLECT_RADIUS in
      // app/features/game/rules.ts) stays a fingertip below the button (orbs right under it once
      // closed the game: the browser's tap adjustment gave the tap to the button).
      const quit = (await page.getByRole("button", { name: "Quitter le jeu" }).boundingBox())!;
      let taps = 0;
      for (let elapsed = 0; elapsed < 60_000; elapsed += 500) {
        const orbs = ((await canvas.getAttribute("data-orbs")) ?? "").split(" ").filter(Boolean);
        for (const orb of orbs) expect(Number(orb.split(",")[1]) - 18, orb).toBeGreaterThanOrEqual(quit.y + quit.height + 24);
        const first = orbs[0]?.split(",").map(Number);
        if (first && taps < 12) {
          await page.touchscreen.tap(first[0]!, first[1]!);
          taps++;
        }
        await page.clock.runFor(500);
      }
      await page.clock.runFor(1_000);
      await expect(game).toHaveAttribute("data-phase", "finished");
      const dialog = page.getByTestId("game-dialog");
      await expect(dialog).toBeVisible();
      const scoreText = (await page.getByTestId("game-final-score").textContent())!;
      const score = Number(/(\d+)/.exec(scoreText)![1]);
      expect(score).toBeGreaterThanOrEqual(50);
      expect(score % 10).toBe(0);
      await expect(page.getByTestId("game-leaderboard")).toContainText(/Top 10 des 30 derniers jours \(mobile\)/);

      // The pseudo is required.
      await dialog.getByRole("button", { name: "Enregistrer mon score" }).click();
      await expect(page.getByTestId("game-pseudo-error")).toHaveText("Veuillez entrer votre pseudo");
      await dialog.getByLabel("Votre pseudo").fill(`  ${pseudo}  `);

      // The page's clock says 60 s have passed, the server's does not yet: an honest refusal, a retry.
      await dialog.getByRole("button", { name: "Enregistrer mon score" }).click();
      await expect(page.getByTestId("game-save-error")).toContainText("Votre score n'a pas été enregistré : Trop tôt");
      await expectAccessible(page);
      const wait = playStartedAt + 61_000 - Date.now();
      if (wait > 0) await page.waitForTimeout(wait);
      await dialog.getByRole("button", { name: "Réessayer" }).click();
      await expect(page.getByTestId("game-saved")).toContainText("Score enregistré !");
      await expect(page.getByTestId("game-leaderboard-row").filter({ hasText: pseudo })).toContainText(String(score));

      const stored = await e2eDb().selectFrom("game_scores").selectAll().where("player_name", "=", pseudo).execute();
      expect(stored.map((s) => [s.score, s.device_type])).toEqual([[score, "mobile"]]);

      // Close: back to the page.
      await dialog.getByRole("button", { name: "Fermer" }).click();
      await expect(game).toHaveAttribute("data-phase", "idle");
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    });

    test.describe("on a pixel ratio 2 screen", () => {
      test.use({ deviceScaleFactor: 2 });

      // The idle sky is drawn at ratio 1: where the canvas is not GPU-backed, rasterising it at ratio 2
      // cost a 4x-throttled CPU 50-110 ms per frame commit (long tasks). Play gets the sharp canvas.
      test("the idle sky is drawn at ratio 1; a game covers the page at ratio 2", async ({ page }) => {
        await page.goto("/");
        const game = page.getByTestId("game");
        await expect(game).toHaveAttribute("data-phase", "idle");
        const canvas = page.getByTestId("game-canvas");
        const ratio = () => canvas.evaluate((c: HTMLCanvasElement) => c.width / c.getBoundingClientRect().width);
        await expect.poll(ratio).toBeCloseTo(1, 1);
        const box = (await page.locator("#hero-heading").boundingBox())!;
        for (let i = 0; i < 10; i++) await page.touchscreen.tap(box.x + 20, box.y + 10);
        await expect(game).toHaveAttribute("data-phase", "countdown");
        await expect.poll(ratio).toBeCloseTo(2, 1);
        // While the game is not idle it covers the page: what lies under the hero's heading is the game.
        const covered = await page.evaluate(
          ({ x, y }) => document.elementFromPoint(x, y)?.closest("[data-testid='game']") != null,
          { x: box.x + 20, y: box.y + 10 },
        );
        expect(covered).toBe(true);
        await page.getByRole("button", { name: "Quitter le jeu" }).click();
        await expect(game).toHaveAttribute("data-phase", "idle");
        await expect.poll(ratio).toBeCloseTo(1, 1);
      });
    });

    test("an end dialog that cannot load closes the finished game and leaves the home page as it was", async ({ page }) => {
      test.setTimeout(120_000);
      await page.route(END_DIALOG_CHUNK, (route) => route.abort("failed"));
      const { game } = await openIdleGame(page);
      const heading = await page.getByRole("heading", { level: 1 }).textContent();
      const box = (await page.locator("#hero-heading").boundingBox())!;
      for (let i = 0; i < 10; i++) await page.touchscreen.tap(box.x + 20, box.y + 10);
      await playFromCountdown(page, game);
      // Back to the idle sky, no dialog, and the page is still the home page (no error page).
      await expect(game).toHaveAttribute("data-phase", "idle");
      await expect(page.getByTestId("game-dialog")).toHaveCount(0);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading!);
    });

    test("the end dialog's restart plays again after a countdown; reload reloads the page", async ({ page }) => {
      test.setTimeout(120_000);
      const { game } = await openIdleGame(page);
      const box = (await page.locator("#hero-heading").boundingBox())!;
      for (let i = 0; i < 10; i++) await page.touchscreen.tap(box.x + 20, box.y + 10);
      const playToTheEnd = async () => {
        await playFromCountdown(page, game);
        await expect(game).toHaveAttribute("data-phase", "finished");
        await expect(page.getByTestId("game-dialog")).toBeVisible();
      };
      await playToTheEnd();
      await page.getByRole("button", { name: "Rejouer" }).click();
      await expect(page.getByTestId("game-dialog")).toHaveCount(0);
      await playToTheEnd();
      await expect(page.getByTestId("game-final-score")).toHaveText("Votre score : 0");

      await page.evaluate(() => ((window as unknown as { beforeReload: boolean }).beforeReload = true));
      await Promise.all([page.waitForEvent("load"), page.getByRole("button", { name: "Recharger la page" }).click()]);
      expect(await page.evaluate(() => (window as unknown as { beforeReload?: boolean }).beforeReload)).toBeUndefined();
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    });

    test("the tap count starts over after a tap far away", async ({ page }) => {
      await page.goto("/");
      await expect(page.getByTestId("game")).toHaveAttribute("data-phase", "idle");
      const box = (await page.locator("#hero-heading").boundingBox())!;
      for (let i = 0; i < 7; i++) await page.touchscreen.tap(box.x + 20, box.y + 10);
      await page.touchscreen.tap(box.x + 20 + 120, box.y + 10); // far: counts as 1
      for (let i = 0; i < 8; i++) await page.touchscreen.tap(box.x + 20, box.y + 10);
      await expect(page.getByTestId("game-hint")).toBeVisible();
      await expect(page.getByTestId("game")).toHaveAttribute("data-phase", "idle");
      await page.touchscreen.tap(box.x + 20, box.y + 10);
      await page.touchscreen.tap(box.x + 20, box.y + 10);
      await expect(page.getByTestId("game")).toHaveAttribute("data-phase", "countdown");
    });
  });

  test("the sky is still until someone moves a pointer, stops drawing when the tab is hidden or the canvas is off screen, and starts again", async ({
    page,
  }) => {
    await page.goto("/");
    const canvas = page.getByTestId("game-canvas");
    await expect(canvas).toBeAttached();
    const snapshot = () => canvas.evaluate((c: HTMLCanvasElement) => c.toDataURL());
    /** Whether the canvas changes within half a second: the stars drift on every drawn frame. */
    const drawing = async () => {
      const before = await snapshot();
      await page.waitForTimeout(500);
      return (await snapshot()) !== before;
    };
    // Its first frame is drawn once the canvas has its size (sized by the browser's own layout), then
    // nothing moves while nobody is there: no frame work on a page left alone (decision 250).
    const blank = await canvas.evaluate((c: HTMLCanvasElement) => {
      const empty = document.createElement("canvas");
      empty.width = c.width;
      empty.height = c.height;
      return empty.toDataURL();
    });
    await expect.poll(snapshot).not.toBe(blank);
    expect(await drawing()).toBe(false);
    await page.mouse.move(5, 5);
    await expect.poll(drawing).toBe(true);

    const setHidden = (hidden: boolean) =>
      page.evaluate((value) => {
        Object.defineProperty(document, "hidden", { value, configurable: true });
        document.dispatchEvent(new Event("visibilitychange"));
      }, hidden);
    await setHidden(true);
    await page.waitForTimeout(100); // a frame already requested may still run
    expect(await drawing()).toBe(false);
    await setHidden(false);
    await expect.poll(drawing).toBe(true);

    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect.poll(() => canvas.evaluate((c) => c.getBoundingClientRect().bottom)).toBeLessThan(0);
    await page.waitForTimeout(100);
    expect(await drawing()).toBe(false);
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect.poll(drawing).toBe(true);
  });

  test("on a desktop, gathering 20 links under a still mouse starts play at once; Escape leaves", async ({ page }) => {
    test.setTimeout(90_000);
    const { game, starts } = await openIdleGame(page);
    await page.mouse.move(640, 360);
    // Stars gather within seconds (0-9 s in a simulation of 40 random skies), then 1 s of 20 links.
    for (let i = 0; i < 30 && (await game.getAttribute("data-phase")) === "idle"; i++) {
      await page.mouse.move(640 + (i % 2), 360);
      await page.clock.runFor(2_000);
    }
    await expect(game).toHaveAttribute("data-phase", "playing");
    await expect.poll(() => starts).toEqual(["device_type=desktop"]);
    await expect(page.getByRole("button", { name: "Quitter le jeu" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(game).toHaveAttribute("data-phase", "idle");
  });
});
