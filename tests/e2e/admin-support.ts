import { expect, type Cookie, type Page } from "@playwright/test";

/** The admin the e2e server creates at start (playwright.config.ts: ADMIN_EMAIL / ADMIN_PASSWORD). */
const E2E_ADMIN = { email: "admin@parrainly.test", password: "e2e-admin-passphrase" };

/**
 * The session cookie of this worker's first sign-in. Later tests of the worker start signed in with
 * it, as a browser that kept its cookie would: the login page, its post and the server's scrypt
 * (about 1.5 s of a 2-core machine's time a test) ran 60 times a suite for one flow, which the first
 * sign-in of each worker, admin-auth.test.ts and the login page's own checks still go through.
 */
let session: Cookie | undefined;

/** Signs in (through the login page the first time in a worker; works with JS on and off) and opens `redirectTo`. */
export async function signIn(page: Page, redirectTo = "/admin") {
  if (session) {
    await page.context().addCookies([session]);
    await page.goto(redirectTo);
    // A session the server no longer knows (signed out elsewhere) lands on the login page: sign in again.
    if (!new URL(page.url()).pathname.startsWith("/admin/login")) {
      await expect(page.getByRole("heading", { name: "Tableau de bord" })).toBeVisible();
      return;
    }
    session = undefined;
  }
  await page.goto(`/admin/login?redirectTo=${encodeURIComponent(redirectTo)}`);
  await page.getByLabel("E-mail").fill(E2E_ADMIN.email);
  await page.getByLabel("Mot de passe").fill(E2E_ADMIN.password);
  await page.getByRole("button", { name: "Se connecter" }).click();
  await expect(page.getByRole("heading", { name: "Tableau de bord" })).toBeVisible();
  session = (await page.context().cookies()).find((cookie) => cookie.name === "admin-session");
}
