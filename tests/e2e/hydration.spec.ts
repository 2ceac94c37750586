import { expect, test, type Page } from "@playwright/test";
import { jsDisabled } from "./support";

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

for (const width of WIDTHS) {
  test.describe(`hydration at ${width} px`, () => {
    // Reduced motion: no auto-advancing carousel and no game, so only hydration can move things.
    test.use({ viewport: { width, height: 800 }, reducedMotion: "reduce" });

    for (const path of PAGES) {
      test(`${path}: every control stays where it was drawn`, async ({ page }, testInfo) => {
        test.skip(jsDisabled(testInfo), "hydration needs JavaScript");
        // Hold the page's script back: the page as a slow phone shows it before hydrating.
        let release!: () => void;
        const released = new Promise<void>((resolve) => (release = resolve));
        await page.route(/\/assets\/entry\.client-[\w-]+\.js$/, async (route) => {
          await released;
          await route.continue();
        });
        await page.goto(path, { waitUntil: "commit" });
        await page.waitForFunction(() => document.readyState !== "loading");
        const before = await boxes(page);
        expect(Object.keys(before).length).toBeGreaterThan(5);

        // Route discovery asks for the page's links from an effect, so once it leaves the page has hydrated.
        const discovered = page.waitForRequest(/\/__manifest\?/);
        release();
        await discovered;
        await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
        const after = await boxes(page);

        const moved = Object.keys(before)
          .filter((key) => key in after && after[key] !== before[key])
          .map((key) => `${key}: ${before[key]} -> ${after[key]}`);
        expect(moved, `${path} at ${width} px`).toEqual([]);
        // Nothing drawn before hydration disappears with it either.
        expect(Object.keys(before).filter((key) => !(key in after))).toEqual([]);
      });
    }
  });
}
