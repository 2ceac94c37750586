import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Browser, type Page, type TestInfo } from "@playwright/test";
import SQLite from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import type { Database } from "../../db/schema";
import { createCode, createPlatform, uniqueWord } from "../support/fixtures";

/**
 * A test only one project runs: playwright.config.ts leaves it out of the other by its tag, so no
 * browser context or page is opened there only to be skipped (about 0.7 s each on 2 cores).
 */
export const JS_ONLY = { tag: "@js-only" } as const;
export const NO_JS_ONLY = { tag: "@no-js-only" } as const;

/** True in the project that runs with JavaScript off. */
export function jsDisabled(testInfo: TestInfo): boolean {
  return testInfo.project.name === "no-js";
}

/**
 * Holds the page's entry script back until the returned function is called, as on a slow connection:
 * what a visitor types before the page's script has run. Set before the page is loaded.
 */
export async function holdPageScript(page: Page): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/entry\.client-[\w-]+\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

/**
 * Resolves once React has hydrated the page (its main element carries a fiber) and the effects that
 * follow the commit have run (they run in a task after it). A click before that is the browser's
 * own (a plain form post, a full page): tests of what JavaScript adds wait for this first.
 */
export async function hydrated(page: Page) {
  await expect
    .poll(() => page.locator("main").evaluate((el) => Object.keys(el).some((k) => k.startsWith("__reactFiber"))))
    .toBe(true);
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
}

const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/**
 * One JavaScript-enabled page per browser (one browser per worker) whose own scripts are blocked:
 * the no-JS project's pages are checked there, from their current HTML. Kept for the worker's life
 * instead of a context per check (a context and its first page cost about a second on 2 cores).
 */
const twins = new WeakMap<Browser, Promise<Page>>();
function twinPage(browser: Browser): Promise<Page> {
  let twin = twins.get(browser);
  if (!twin) {
    twin = (async () => {
      const context = await browser.newContext({ locale: "fr-FR", javaScriptEnabled: true });
      await context.route(/\.js(\?.*)?$/, (route) => route.abort());
      return context.newPage();
    })();
    twins.set(browser, twin);
  }
  return twin;
}

/**
 * axe: no WCAG 2.1 A/AA violation on the page as it is now. axe needs JavaScript, so on the
 * no-JS project the page's current HTML is checked in a twin page whose own scripts are blocked.
 * axe runs in the page itself (`setLegacyMode`): the default mode opens a blank page for each check
 * to merge the frames' results, which our pages (no frames but a `<noscript>` one) do not need, at
 * twice the time (about 1.8 s against 0.9 s a check on 2 cores; decision 309).
 */
export async function expectAccessible(page: Page, options: { exclude?: string[]; label?: string } = {}) {
  let target = page;
  if (test.info().project.name === "no-js") {
    target = await twinPage(page.context().browser()!);
    const html = await page.content();
    const viewport = page.viewportSize();
    if (viewport) await target.setViewportSize(viewport);
    await target.goto(new URL("/healthz", page.url()).href);
    await target.setContent(html, { waitUntil: "load" });
  }
  // Only violations are read: axe then builds no selectors for the nodes that pass (about a tenth of its time).
  let builder = new AxeBuilder({ page: target })
    .withTags(AXE_TAGS)
    .options({ resultTypes: ["violations"] })
    .setLegacyMode(true);
  for (const selector of options.exclude ?? []) builder = builder.exclude(selector);
  // The page at rest: a toast fading in or out (its first and last 200 ms) is read at part opacity,
  // whose contrast fails. Wait until nothing animated is half-transparent, then hold every running
  // animation for the check, and let them go on after it.
  await expect
    .poll(() =>
      target.evaluate(() => {
        const animations = document.getAnimations();
        const atRest = animations.every((a) => {
          const element = a.effect instanceof KeyframeEffect ? a.effect.target : null;
          if (!element) return true;
          const opacity = Number(getComputedStyle(element).opacity);
          return opacity === 0 || opacity === 1;
        });
        if (atRest) {
          const held = animations.filter((a) => a.playState === "running");
          for (const a of held) a.pause();
          (window as { heldForAxe?: Animation[] }).heldForAxe = held;
        }
        return atRest;
      }),
    )
    .toBe(true);
  const { violations } = await builder.analyze().finally(() =>
    target.evaluate(() => {
      for (const a of (window as { heldForAxe?: Animation[] }).heldForAxe ?? []) a.play();
    }),
  );
  const summary = violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
  expect(summary, options.label).toEqual([]);
}

let db: Kysely<Database> | undefined;
/**
 * The running e2e server's own SQLite file, for arranging data a test needs (platforms, codes)
 * and checking what a flow wrote; the live project's server has its own (playwright.config.ts). A
 * worker runs one project's tests. WAL lets both processes use it at once.
 */
export function e2eDb(): Kysely<Database> {
  if (!db) {
    const file = test.info().project.name === "live" ? "e2e-live.db" : "e2e.db";
    const sqlite = new SQLite(path.resolve("tests/.tmp", file));
    sqlite.pragma("busy_timeout = 5000");
    sqlite.pragma("foreign_keys = ON");
    db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  }
  return db;
}

/** A new active platform with a unique slug, off the home page and partner lists unless told otherwise. */
export function createE2ePlatform(overrides: Parameters<typeof createPlatform>[1] = {}) {
  return createPlatform(e2eDb(), { slug: uniqueWord("e2e-"), show_in_homepage: 0, show_in_partnerships: 0, ...overrides });
}

/** A code of `platformId` added now (never served unless told otherwise); answers the whole row. */
export function createE2eCode(platformId: number, overrides: Parameters<typeof createCode>[2] = {}) {
  return createCode(e2eDb(), platformId, { created_at: new Date().toISOString(), ...overrides });
}
