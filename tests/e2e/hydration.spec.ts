import { expect, test, type Page } from "@playwright/test";
import { JS_ONLY, createE2eCode, createE2ePlatform, hydrated, jsDisabled } from "./support";

/**
 * Hydration moves nothing. On a slow phone the page is on screen, complete, a second or more
 * before its script runs; a tap in that time must land where it was aimed. Controls that only
 * JavaScript drives are in the server's HTML already (hidden without scripts), so every link,
 * button and field is at the same place before and after hydration. Found when a click on the
 * home page's "all platforms" link, made while the carousel's arrows were being added above it,
 * landed on the section instead.
 */
const PAGES = ["/", "/platforms", "/submit", "/suggest-platform", "/partnerships", "/tesla", "/tesla/get-code", "/random"];
const WIDTHS = [360, 1280] as const;

type Boxes = Record<string, string>;

/** Where each visible control and heading is, keyed by what it is (tag, name or text, and rank). */
function boxes(page: Page): Promise<Boxes> {
  return page.evaluate(() => {
    const seen = new Map<string, number>();
    const out: Record<string, string> = {};
    for (const el of document.querySelectorAll<HTMLElement>("a, button, input, select, textarea, summary, h1, h2, h3")) {
      const rect = el.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0 || getComputedStyle(el).visibility === "hidden") continue;
      const label = el.getAttribute("href") || el.getAttribute("name") || el.id || (el.textContent ?? "").trim().slice(0, 40);
      const base = `${el.tagName.toLowerCase()} ${label}`;
      const rank = seen.get(base) ?? 0;
      seen.set(base, rank + 1);
      const x = Math.round(rect.left + window.scrollX);
      const y = Math.round(rect.top + window.scrollY);
      out[`${base} #${rank}`] = `${x},${y} ${Math.round(rect.width)}x${Math.round(rect.height)}`;
    }
    return out;
  });
}

/**
 * Holds the page's script back until `hydrate()`: the page as a slow phone shows it before
 * hydrating. `hydrate()` lets it run and resolves once the page has hydrated and drawn twice more.
 */
async function holdHydration(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/entry\.client-[\w-]+\.js$/, async (route) => {
    await released;
    // A page left before hydrating (a form posted without its script) no longer wants it.
    await route.continue().catch(() => {});
  });
  return {
    drawn: async () => {
      await page.waitForFunction(() => document.readyState !== "loading");
      const before = await boxes(page);
      expect(Object.keys(before).length).toBeGreaterThan(5);
      return before;
    },
    hydrate: async () => {
      release();
      await hydrated(page);
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      return boxes(page);
    },
  };
}

function expectNothingMoved(before: Boxes, after: Boxes, label: string) {
  const moved = Object.keys(before)
    .filter((key) => key in after && after[key] !== before[key])
    .map((key) => `${key}: ${before[key]} -> ${after[key]}`);
  expect(moved, label).toEqual([]);
  // Nothing drawn before hydration disappears with it either.
  expect(
    Object.keys(before).filter((key) => !(key in after)),
    label,
  ).toEqual([]);
}

for (const width of WIDTHS) {
  test.describe(`hydration at ${width} px`, () => {
    // Reduced motion: no auto-advancing carousel and no game, so only hydration can move things.
    test.use({ viewport: { width, height: 800 }, reducedMotion: "reduce" });

    for (const path of PAGES) {
      test(`${path}: every control stays where it was drawn`, JS_ONLY, async ({ page }) => {
        // JavaScript only: hydration needs JavaScript.
        const held = await holdHydration(page);
        await page.goto(path, { waitUntil: "commit" });
        const before = await held.drawn();
        expectNothingMoved(before, await held.hydrate(), `${path} at ${width} px`);
      });
    }

    test("a code drawn before the script ran: its copy and share buttons, and its link, stay put", JS_ONLY, async ({ page }) => {
      // JavaScript only: hydration needs JavaScript.
      const p = await createE2ePlatform();
      // Served often already, so parallel draws (fewest serves first) never take it.
      await createE2eCode(p.id, { code: "HOLD42", times_served: 1000 });
      const held = await holdHydration(page);
      await page.goto(`/${p.slug}/get-code`, { waitUntil: "commit" });
      await held.drawn();
      // Not hydrated: the form posts as without JS, and the result page arrives whole.
      await page.getByRole("button", { name: "Lancer le tirage au sort" }).click();
      await expect(page.getByTestId("drawn-code")).toHaveText("HOLD42");
      const before = await held.drawn();
      expect(before).toHaveProperty(["button Copier le code #0"]);
      expectNothingMoved(before, await held.hydrate(), `draw result at ${width} px`);
    });
  });
}

test("JS-only controls show only where scripts run; the language menu everywhere, no OK button", async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto("/");
  const js = !jsDisabled(testInfo);
  const arrows = page.getByRole("button", { name: /^Plateformes (précédentes|suivantes)$/ });
  const dots = page.getByRole("button", { name: /^Aller à la position \d+$/ });
  const ok = page.getByRole("button", { name: "OK", exact: true });
  const languageMenu = page.getByLabel("Langue : Français");
  if (js) {
    await expect(arrows).toHaveCount(2);
    await expect(arrows.first()).toBeVisible();
    // A phone shows one card at a time: a dot per card.
    await expect(dots.filter({ visible: true })).toHaveCount(await page.getByTestId("platform-slide").count());
    // The position text counts a phone's positions, before the visitor does anything (decision 276).
    const slides = await page.getByTestId("platform-slide").count();
    await expect(page.getByTestId("platform-carousel").locator("[aria-live]")).toHaveText(`Position 1 sur ${slides}`, {
      useInnerText: true,
    });
    // The language menu is the same with scripts; no separate OK button (WCAG 3.2.2 kept by the menu).
    await expect(languageMenu).toBeVisible();
    await expect(ok).toHaveCount(0);
  } else {
    // In the HTML (so hydration adds nothing) but not shown, and out of the accessibility tree.
    await expect(page.getByTestId("platform-carousel").locator("[aria-live]")).toBeHidden();
    await expect(arrows).toHaveCount(0);
    await expect(dots).toHaveCount(0);
    await expect(page.locator("button[aria-controls]").first()).toBeHidden();
    await expect(languageMenu).toBeVisible();
    await expect(ok).toHaveCount(0);
  }
});

/** React commits a page makes once loaded: hydration alone. */
const COMMITS = 1;

/** 300 ms, then two frames: a render that a late effect or response schedules has committed by then. */
function settled(page: Page) {
  return page.evaluate(
    () => new Promise((resolve) => setTimeout(() => requestAnimationFrame(() => requestAnimationFrame(resolve)), 300)),
  );
}

test("every route is known from the start: a link navigates in place, with no manifest request", JS_ONLY, async ({ page }) => {
  // JavaScript only: client navigation needs JavaScript.
  // Route discovery is off (decision 402): the route manifest is one cached file, loaded with the page's
  // scripts, so the page's links ask the server for nothing before they are followed.
  const asked: string[] = [];
  page.on("request", (request) => {
    if (request.url().includes("/__manifest") || request.resourceType() === "document") asked.push(request.url());
  });
  await page.goto("/tesla");
  await hydrated(page);
  await settled(page);
  expect(asked, "only the page itself").toEqual([page.url()]);
  await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
  await page.locator('a[href="/submit"]').filter({ visible: true }).first().click();
  await expect(page).toHaveURL(/\/submit$/);
  await expect(page.getByRole("heading", { level: 1, name: "Partager mon code de parrainage" })).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
  expect(asked).toEqual([asked[0]]);
});

test(
  "the home page, a platform page, /submit and a draw result render once: hydration, and no second pass after it",
  JS_ONLY,
  async ({ page }) => {
    // JavaScript only: hydration needs JavaScript.
    // React reports each commit to a devtools hook when one is installed before it loads: this one counts them.
    await page.addInitScript(() => {
      const counted = window as unknown as { commits: number; __REACT_DEVTOOLS_GLOBAL_HOOK__: unknown };
      counted.commits = 0;
      counted.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
        supportsFiber: true,
        isDisabled: false,
        renderers: new Map(),
        inject: () => 1,
        checkDCE: () => {},
        onScheduleFiberRoot: () => {},
        onCommitFiberRoot: () => counted.commits++,
        onPostCommitFiberRoot: () => {},
        onCommitFiberUnmount: () => {},
      };
    });
    // Less motion: the home page's game (its own commits, once the page is idle) never loads.
    await page.emulateMedia({ reducedMotion: "reduce" });
    for (const path of ["/", "/tesla", "/submit"]) {
      await page.goto(path);
      await hydrated(page);
      await settled(page);
      // Hydration, and nothing after it. No route discovery, so no router update re-rendering the
      // page once hydrated (decision 402; with it, one more commit of the whole page). The kept
      // regions and the focus helper ask "am I hydrating?" without a render of their own (decision
      // 275), and the home carousel's server HTML is already what it shows once hydrated (decision 276).
      expect(await page.evaluate(() => (window as unknown as { commits: number }).commits), path).toBeLessThanOrEqual(COMMITS);
    }

    // With motion allowed the game's sky joins once the page is idle: one commit more (decision 277),
    // with no suspended render before it and no second one when its loop starts (hydration, then this).
    await page.emulateMedia({ reducedMotion: "no-preference" });
    await page.goto("/");
    await expect(page.getByTestId("game-canvas")).toBeAttached();
    await settled(page);
    expect(await page.evaluate(() => (window as unknown as { commits: number }).commits), "/ with its sky").toBeLessThanOrEqual(
      COMMITS + 1,
    );

    // A draw result: hydration alone too.
    const p = await createE2ePlatform();
    await createE2eCode(p.id, { code: "ONCE42" });
    await page.goto(`/${p.slug}/get-code`);
    await page.getByRole("button", { name: "Lancer le tirage au sort" }).click();
    await expect(page.getByTestId("drawn-code")).toHaveText("ONCE42");
    const result = page.url();
    await page.goto(result);
    await hydrated(page);
    await settled(page);
    expect(await page.evaluate(() => (window as unknown as { commits: number }).commits), "draw result").toBeLessThanOrEqual(
      COMMITS,
    );
  },
);
