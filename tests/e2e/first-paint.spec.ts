import { expect, test, type Page } from "@playwright/test";
import { hydrated, jsDisabled } from "./support";

/**
 * The first paint waits for the page's content (decision 306): while the page is parsed, a script
 * in the head adds `<link rel="expect" href="#…" blocking="render">` to the footer (the home page:
 * its hero), so the browser lays the page out once and paints it whole, instead of painting the
 * header alone and laying everything out again in a long task just before hydration. The link goes
 * inside that script element, which React does not walk: the head it hydrates is the server's.
 */
const PAGES = [
  { path: "/", target: "#home-hero" },
  { path: "/tesla", target: "#site-footer" },
  { path: "/tesla/get-code", target: "#site-footer" },
  { path: "/submit", target: "#site-footer" },
];

/** When the page was first painted, and how many hold links the head has now. */
async function firstPaint(page: Page) {
  return page.evaluate(async () => {
    await new Promise<void>((resolve) => {
      if (performance.getEntriesByName("first-contentful-paint").length) resolve();
      else new PerformanceObserver(() => resolve()).observe({ type: "paint", buffered: true });
    });
    return {
      at: performance.getEntriesByName("first-contentful-paint")[0]!.startTime,
      holds: document.querySelectorAll('link[rel="expect"]').length,
    };
  });
}

for (const { path, target } of PAGES) {
  test(`${path}: the first paint waits for ${target}, the page hydrates without an error`, async ({ page }, testInfo) => {
    const errors: string[] = [];
    // Script errors (a hydration mismatch is one); a partner's logo on another host that does not
    // load (other tests add partners) is not the page's script.
    page.on("console", (m) => {
      if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) errors.push(m.text());
    });
    page.on("pageerror", (e) => errors.push(e.message));
    // Which link the head's script added while the page was parsed, and when the hold's target was
    // parsed, seen before any other script runs.
    await page.addInitScript((selector) => {
      const seen = { holds: [] as string[], targetAt: Number.NaN };
      (window as unknown as { __seen: typeof seen }).__seen = seen;
      new MutationObserver((records) => {
        for (const record of records)
          for (const node of record.addedNodes) {
            if (node instanceof HTMLLinkElement && node.rel === "expect")
              seen.holds.push(`${node.getAttribute("href")} ${node.getAttribute("blocking")} in ${node.parentElement?.tagName}`);
            if (
              node instanceof Element &&
              Number.isNaN(seen.targetAt) &&
              (node.matches(selector) || node.querySelector(selector))
            )
              seen.targetAt = performance.now();
          }
      }).observe(document, { childList: true, subtree: true });
    }, target);
    await page.goto(path);
    expect(await page.locator(target).count(), "the target is in the page").toBe(1);
    if (jsDisabled(testInfo)) {
      // Without JavaScript the head's script does not run: no hold, the page painted as before.
      expect(await page.locator('link[rel="expect"]').count()).toBe(0);
      return;
    }
    const painted = await firstPaint(page);
    const seen = await page.evaluate(() => (window as unknown as { __seen: { holds: string[]; targetAt: number } }).__seen);
    expect(seen.holds).toEqual([`${target} render in SCRIPT`]);
    // The page was painted once its target was parsed, not before.
    expect(painted.at).toBeGreaterThanOrEqual(seen.targetAt);
    await hydrated(page);
    // React hydrated the head as the server wrote it: the link sits inside the script, which React does not walk.
    expect(await page.locator('script#first-paint-hold > link[rel="expect"]').count()).toBe(1);
    expect(errors).toEqual([]);
  });
}
