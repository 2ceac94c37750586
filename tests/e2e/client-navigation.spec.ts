import { expect, test, type Page } from "@playwright/test";
import { createE2ePlatform, e2eDb } from "./support";

/**
 * Client navigations after hydration: a site link is followed by Remix's router (no new document),
 * the page it opens is rendered by React in the browser, and a navigation that fails shows the error
 * page. React marks each element it rendered or hydrated with a `__reactFiber…` property.
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

test("a footer link navigates on the client; React renders the page it opens, and the page it left on the way back", async ({
  page,
}) => {
  await page.goto("/");
  await waitForHydration(page);
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
  await page.locator("#site-footer a[href='/privacy']").click();
  await expect(page).toHaveURL(/\/privacy$/);
  // The URL can change while the old page still shows (it waits for the new page's texts): wait for the new page.
  await expect(page.locator("article h2").first()).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  // No new document: the router navigated.
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  // Rendered by React this time (a client navigation), not copied from a server's HTML.
  expect(await hydratedByReact(page, "article h2")).toBe(true);
  // The footer renders again after the navigation, with the same links.
  await expect(page.locator("#site-footer a")).toHaveCount(4);
  expect(await hydratedByReact(page, "#site-footer a")).toBe(true);
  // And back: the home page is rendered by React, complete.
  await page.goBack();
  await expect(page.locator("[aria-labelledby='steps-heading'] li")).toHaveCount(3);
  expect(await hydratedByReact(page, "[aria-labelledby='steps-heading'] li")).toBe(true);
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
});

test("an error page the server rendered hydrates; a link to a platform removed meanwhile renders it in place", async ({
  page,
}) => {
  await page.goto("/no-such-platform");
  await waitForHydration(page);
  expect(await hydratedByReact(page, "[data-testid='not-found'] h1")).toBe(true);

  // The list still shows the platform when it goes: its link's client navigation finds nothing.
  const platform = await createE2ePlatform();
  await page.goto(`/platforms?q=${encodeURIComponent(platform.name)}`);
  await waitForHydration(page);
  const link = page.locator(`main a[href='/${platform.slug}']`);
  await expect(link).toBeVisible();
  await e2eDb().deleteFrom("platforms").where("id", "=", platform.id).execute();
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/${platform.slug}$`));
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
