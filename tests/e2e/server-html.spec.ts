import { expect, test, type Page } from "@playwright/test";
import { createE2eCode, createE2ePlatform, e2eDb } from "./support";

/**
 * Hydrate less (decision 250): what never changes after the server rendered it is kept as the
 * server's HTML (ServerHtml) and never walked by React. React marks each element it hydrated with a
 * `__reactFiber…` property: inside a kept region no element has one, outside every rendered one does.
 */
test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "hydration needs JavaScript");

/** Whether React hydrated the first element matching `selector`. */
function hydratedByReact(page: Page, selector: string) {
  return page.evaluate((s) => {
    const el = document.querySelector(s);
    if (!el) throw new Error(`no ${s}`);
    return Object.keys(el).some((k) => k.startsWith("__reactFiber"));
  }, selector);
}

/**
 * Resolves once React has hydrated the whole page and the effects after that commit have run.
 * Hydration runs in a transition that yields every few milliseconds, so the header can be done while
 * the rest is not: wait for the footer's wrapper, the last element React renders, and for the
 * header's navigation's wrapper. The site links' one listener is attached in an effect, a task after
 * the commit: a click before it is the browser's own navigation (a new document), which a busy
 * machine once made of a click meant to stay in the page.
 */
async function waitForHydration(page: Page) {
  await page.waitForFunction(() =>
    ["#main-nav", "#site-footer"].every((selector) => {
      const el = document.querySelector(selector);
      return !!el && Object.keys(el).some((k) => k.startsWith("__reactFiber"));
    }),
  );
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
}

const KEPT: Record<string, string[]> = {
  "/": [
    "#main-nav",
    "#header-start",
    "#home-hero",
    "#site-footer",
    "#home-steps",
    "#home-promo",
    "[data-testid='platform-list']",
  ],
  "/tesla": ["#site-footer", "#platform-benefits", "#platform-steps"],
  "/privacy": ["#site-footer", "#privacy"],
  "/terms": ["#site-footer", "#terms"],
};

for (const [path, regions] of Object.entries(KEPT)) {
  test(`${path}: the static regions keep the server's HTML, unhydrated; the rest is hydrated`, async ({ page }) => {
    const html = await (await page.request.get(path)).text();
    await page.goto(path);
    await waitForHydration(page);
    for (const region of regions) {
      // The wrapper is React's; nothing inside it is (its links are SiteLinks: the document's one listener takes their clicks).
      expect(await hydratedByReact(page, region), region).toBe(true);
      const inner = `${region} a, ${region} p, ${region} h2, ${region} li`;
      expect(await page.locator(inner).count(), region).toBeGreaterThan(0);
      expect(await hydratedByReact(page, inner), inner).toBe(false);
      // The same content as the server sent.
      const same = await page.evaluate(
        ({ source, id }) => {
          const sent = new DOMParser().parseFromString(source, "text/html").querySelector(id);
          const live = document.querySelector(id);
          return !!sent && !!live && sent.innerHTML === live.innerHTML && live.textContent!.trim().length > 10;
        },
        { source: html, id: region },
      );
      expect(same, region).toBe(true);
    }
    // The header's forms are React's (the language and theme choices).
    expect(await hydratedByReact(page, "#language-menu")).toBe(true);
  });
}

test("a link in a kept region navigates on the client; the page it opens renders its regions in the browser", async ({
  page,
}) => {
  await page.goto("/");
  await waitForHydration(page);
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
  await page.locator("#site-footer a[href='/privacy']").click();
  await expect(page).toHaveURL(/\/privacy$/);
  // The URL can change while the old page still shows (it waits for the new page's texts): wait for the new page.
  await expect(page.locator("#privacy h2").first()).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  // No new document: the router navigated.
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  // Rendered by React this time (a client navigation), not copied from a server's HTML.
  expect(await hydratedByReact(page, "#privacy h2")).toBe(true);
  // The footer renders again after the navigation, with the same links.
  await expect(page.locator("#site-footer a")).toHaveCount(4);
  expect(await hydratedByReact(page, "#site-footer a")).toBe(true);
  // And back: the home page's kept regions are rendered by React too, complete.
  await page.goBack();
  await expect(page.locator("#home-steps li")).toHaveCount(3);
  expect(await hydratedByReact(page, "#home-steps li")).toBe(true);
});

test("a modified click on a kept link is left to the browser", async ({ page }) => {
  await page.goto("/");
  await waitForHydration(page);
  const opened = page.context().waitForEvent("page");
  await page.locator("#site-footer a[href='/terms']").click({ modifiers: ["Control"] });
  const tab = await opened;
  // The new tab starts on about:blank (the headless shell reports it loaded), then loads the link.
  await tab.waitForURL((url) => url.pathname === "/terms");
  await expect(page).toHaveURL(/\/$/);
  await tab.close();
});

/** A client navigation to `href`: a click on a link marked as Remix marks its own (SiteLink's listener takes it). */
async function navigateOnClient(page: Page, href: string) {
  await page.evaluate((to) => {
    const a = document.createElement("a");
    a.href = to;
    a.dataset.discover = "true";
    a.textContent = to;
    document.body.append(a);
    a.click();
  }, href);
}

/** A platform of its own with an offer (so its pages show the claim guide) and one code to draw. */
async function platformWithOffer() {
  const p = await createE2ePlatform();
  const now = new Date().toISOString();
  await e2eDb()
    .insertInto("platform_offers")
    .values({ platform_id: p.id, offer_referee: "Dix euros", offer_steps: "Ouvrez le lien", updated_at: now } as never)
    .execute();
  // Served often already, so a /random draw running in parallel (fewest serves first) never takes it.
  await createE2eCode(p.id, { code: "KEPT1", times_served: 1000, created_at: now });
  return p.slug;
}

test("a draw result keeps its claim guide as the server's HTML", async ({ page }) => {
  const slug = await platformWithOffer();
  await page.goto(`/${slug}/get-code`);
  await page.getByTestId("draw-button").click();
  await expect(page.getByTestId("draw-result")).toBeVisible();
  await page.goto(page.url());
  await waitForHydration(page);
  expect(await hydratedByReact(page, "#claim-guide-part")).toBe(true);
  expect(await hydratedByReact(page, "[data-testid='claim-guide'] h2")).toBe(false);
});

test("after a client navigation, React renders a kept part itself", async ({ page }) => {
  const slug = await platformWithOffer();
  await page.goto("/privacy");
  await waitForHydration(page);
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
  await navigateOnClient(page, `/${slug}/get-code`);
  await expect(page.getByTestId("platform-offer")).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  expect(await hydratedByReact(page, "[data-testid='platform-offer'] h2")).toBe(true);
});

test("an error page the server rendered hydrates; a client navigation to a missing page renders it too", async ({ page }) => {
  await page.goto("/no-such-platform");
  await waitForHydration(page);
  expect(await hydratedByReact(page, "[data-testid='not-found'] h1")).toBe(true);

  await page.goto("/privacy");
  await waitForHydration(page);
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
  await page.locator("#site-footer a[href='/terms']").click();
  await expect(page).toHaveURL(/\/terms$/);
  await navigateOnClient(page, "/no-such-platform");
  await expect(page.getByTestId("not-found")).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
});

test("offline, a navigation that fails shows the error page, with the way home", async ({ page, context }) => {
  await page.goto("/privacy");
  await waitForHydration(page);
  // /terms's route code is loaded once online; then the network goes.
  await page.locator("#site-footer a[href='/terms']").click();
  await expect(page).toHaveURL(/\/terms$/);
  await page.locator("#site-footer a[href='/privacy']").click();
  await expect(page).toHaveURL(/\/privacy$/);
  await context.setOffline(true);
  await page.locator("#site-footer a[href='/terms']").click();
  const alert = page.getByRole("alert");
  await expect(alert).toBeVisible();
  await expect(alert.getByRole("heading", { level: 1 })).toHaveText("Une erreur est survenue");
  await expect(alert.getByRole("link", { name: "Retour à l'accueil" })).toHaveAttribute("href", "/");
  await context.setOffline(false);
});
