import { expect, test } from "@playwright/test";
import { e2eDb } from "./support";

/**
 * Lighthouse found no Largest Contentful Paint on the home page, so it could not score it: with
 * more partners than fit, the strip's smooth scroll-snap moved at load and Chrome ended LCP first.
 * Here the home page has such a strip (added in the live project: it changes a site-wide page).
 */
test("the home page records a Largest Contentful Paint, in its hero", async ({ page }) => {
  const ids: number[] = [];
  for (const name of ["LCP Un", "LCP Deux", "LCP Trois", "LCP Quatre", "LCP Cinq"]) {
    const row = await e2eDb()
      .insertInto("partnerships")
      .values({
        name,
        url: "https://partner.example/",
        is_active: 1,
        display_order: 90,
        created_at: new Date().toISOString(),
      } as never)
      .returning("id")
      .executeTakeFirstOrThrow();
    ids.push(row.id);
  }
  try {
    await page.setViewportSize({ width: 412, height: 823 });
    await page.addInitScript(() => {
      const entries: Array<{ tag: string; inHero: boolean }> = [];
      (window as unknown as { __lcp: typeof entries }).__lcp = entries;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as Array<PerformanceEntry & { element?: Element }>)
          entries.push({
            tag: entry.element?.tagName ?? "",
            inHero: Boolean(entry.element?.closest('[aria-labelledby="hero-heading"]')),
          });
      }).observe({ type: "largest-contentful-paint", buffered: true });
    });
    await page.goto("/");
    await expect(page.getByTestId("partner-strip")).toBeVisible();
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { __lcp: Array<{ tag: string; inHero: boolean }> }).__lcp.length))
      .toBeGreaterThan(0);
    const last = await page.evaluate(() =>
      (window as unknown as { __lcp: Array<{ tag: string; inHero: boolean }> }).__lcp.at(-1),
    );
    expect(last?.inHero).toBe(true);
  } finally {
    await e2eDb().deleteFrom("partnerships").where("id", "in", ids).execute();
  }
});
