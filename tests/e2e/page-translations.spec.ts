import { expect, test, type Page } from "@playwright/test";
import { JS_ONLY, hydrated } from "./support";

/**
 * A page's translations reach the browser in one request (decision 272): the namespaces of the
 * layout and of the page's routes, joined by the server; a later page asks only for what it lacks.
 */
function localeRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on("request", (request) => {
    const name = new URL(request.url()).pathname.split("/").pop() ?? "";
    if (name.startsWith("locales-")) seen.push(name.replace(/^locales-[\w-]+\./, ""));
  });
  return seen;
}

test("a platform page reads its four namespaces in one request, a later page only what it lacks", JS_ONLY, async ({ page }) => {
  // JavaScript only: translations are fetched by the browser's script.
  const requests = localeRequests(page);
  await page.goto("/tesla");
  await hydrated(page);
  expect(requests).toEqual(["fr.common+offer+platform+trust.js"]);

  // A client navigation: /submit's namespaces are submit, trust and platform; only submit is new.
  await page.locator("#main-nav").getByRole("link", { name: "Partager un code" }).click();
  await expect(page).toHaveURL(/\/submit$/);
  // The platform page's own h1 stays on screen while /submit's texts load (the navigation is a
  // transition): wait for /submit's heading, a text of the submit namespace.
  await expect(page.getByRole("heading", { level: 1, name: "Partager mon code de parrainage" })).toBeVisible();
  // Playwright reports a request a moment after the page made it.
  await expect.poll(() => requests).toEqual(["fr.common+offer+platform+trust.js", "fr.submit.js"]);
  await expect(page.locator("main")).not.toContainText("submit:");
});
