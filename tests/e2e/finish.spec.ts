import { expect, test } from "@playwright/test";
import { JS_ONLY, createE2eCode, createE2ePlatform, e2eDb, hydrated, jsDisabled } from "./support";

/**
 * Issue 59's finish list, as the eye sees it: the home title keeps its words whole on a 320 px phone,
 * a grid with fewer cards than columns leaves no column empty, the carousel's dots sit under its
 * centre, the draw result's buttons line up in equal cells on a phone, and without JavaScript the
 * code to copy is drawn as the site's own field in the dark theme (not the browser's grey one).
 */
test.describe("finish", () => {
  test("the home title breaks no word at 320 px", async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 700 });
    await page.goto("/");
    // Each word of the title (the French one has "équitablement") on one line: its glyphs' boxes share one top.
    const split = await page.locator("#hero-heading").evaluate((h1) => {
      const broken: string[] = [];
      const walker = document.createTreeWalker(h1, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? "";
        for (const m of text.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, m.index);
          range.setEnd(node, m.index + m[0].length);
          const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
          if (tops.size > 1) broken.push(m[0]);
        }
      }
      return broken;
    });
    expect(split).toEqual([]);
  });

  test("a grid of fewer cards than columns leaves no column empty", async ({ page }) => {
    const p = await createE2ePlatform({ name: "Zyxwgrid One" });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`/platforms?q=${encodeURIComponent("Zyxwgrid")}`);
    const list = page.getByTestId("platform-list");
    await expect(list.locator(`[data-slug="${p.slug}"]`)).toBeVisible();
    // Every track of the grid holds a card: auto-fill kept three empty 16rem columns beside one card.
    const tracks = await list.evaluate((ul) =>
      getComputedStyle(ul)
        .gridTemplateColumns.split(" ")
        .filter((w) => parseFloat(w) > 0),
    );
    expect(tracks).toHaveLength(await list.locator("[data-testid=platform-item]").count());
  });

  test("/platforms' search and open-data line stand apart from the list", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto("/platforms");
    const [form, list, openData] = await Promise.all([
      page.getByRole("search").boundingBox(),
      page.getByTestId("platform-list").boundingBox(),
      page.getByTestId("open-data").boundingBox(),
    ]);
    // Glued once: 0 px between the search and the first cards, and under the last ones.
    expect(list!.y - (form!.y + form!.height)).toBeGreaterThanOrEqual(16);
    expect(openData!.y - (list!.y + list!.height)).toBeGreaterThanOrEqual(16);
  });

  test("the carousel's dots sit under its centre", JS_ONLY, async ({ page }) => {
    // JavaScript only: the dots are drawn only where scripts run.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto("/");
    await hydrated(page);
    const carousel = await page.getByTestId("platform-carousel").boundingBox();
    const dots = await page.getByTestId("carousel-dot").first().locator("xpath=../..").boundingBox();
    expect(carousel && dots).toBeTruthy();
    const offset = dots!.x + dots!.width / 2 - (carousel!.x + carousel!.width / 2);
    expect(Math.abs(offset)).toBeLessThanOrEqual(2);
  });

  test("a draw result's buttons line up on a phone, and the code field is the site's own in the dark theme", async ({
    page,
  }, testInfo) => {
    const p = await createE2ePlatform({ referral_url_template: "https://example.com/r/{code}" });
    await createE2eCode(p.id, { code: "FINISH1" });
    const drawn = await page.request.post(`/${p.slug}/get-code`, { form: { intent: "draw" }, maxRedirects: 0 });
    expect(drawn.status()).toBe(303);
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto(drawn.headers().location!);
    await expect(page.getByTestId("drawn-code")).toHaveText("FINISH1");
    if (jsDisabled(testInfo)) {
      // The dark theme is the default: the field takes the site's field colours, not the browser's.
      const field = page.locator("input[readonly]").first();
      const [fieldBg, surfaceBg] = await Promise.all([
        field.evaluate((e) => getComputedStyle(e).backgroundColor),
        page.evaluate(() => {
          const probe = document.createElement("input");
          document.body.append(probe);
          const bg = getComputedStyle(probe).backgroundColor;
          probe.remove();
          return bg;
        }),
      ]);
      expect(fieldBg).not.toBe(surfaceBg);
      expect(await field.evaluate((e) => getComputedStyle(e).color)).not.toBe("rgb(0, 0, 0)");
    } else {
      await hydrated(page);
    }
    // The visible buttons of the result's row: one width each (equal cells), left edges on a column grid.
    const widths = await page
      .getByTestId("referral-link")
      .locator("xpath=..")
      .evaluate((row) =>
        [...row.children]
          .filter((c) => (c as HTMLElement).offsetParent !== null)
          .map((c) => Math.round(c.getBoundingClientRect().width)),
      );
    expect(widths.length).toBeGreaterThan(0);
    expect(new Set(widths).size).toBe(1);
  });
});

test.describe("fairness charts", () => {
  for (const width of [320, 1280]) {
    test(`are captioned, their scale at a readable size, at ${width} px`, async ({ page }) => {
      const tesla = await e2eDb().selectFrom("platforms").select("id").where("slug", "=", "tesla").executeTakeFirstOrThrow();
      await createE2eCode(tesla.id, { times_served: 7 });
      await page.setViewportSize({ width, height: 900 });
      await page.goto("/fairness");
      const chart = page.getByTestId("fairness-chart").first();
      await expect(chart.locator("p")).toBeVisible();
      await expect(chart).toHaveAttribute("role", "img");
      const sizes = await chart
        .locator("p, [data-testid=chart-max]")
        .evaluateAll((els) => els.map((e) => parseFloat(getComputedStyle(e).fontSize)));
      expect(sizes).toHaveLength(2);
      // 6 px once (text inside the SVG, scaled down with it); now the page's own small text.
      for (const size of sizes) expect(size).toBeGreaterThanOrEqual(12);
    });
  }
});
