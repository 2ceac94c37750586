import { expect, type Page } from "@playwright/test";

/** The admin the e2e server creates at start (playwright.config.ts: ADMIN_EMAIL / ADMIN_PASSWORD). */
const E2E_ADMIN = { email: "admin@parrainly.test", password: "e2e-admin-passphrase" };

/** Signs in through the login page (works with JS on and off). */
export async function signIn(page: Page, redirectTo = "/admin") {
  await page.goto(`/admin/login?redirectTo=${encodeURIComponent(redirectTo)}`);
  await page.getByLabel("E-mail").fill(E2E_ADMIN.email);
  await page.getByLabel("Mot de passe").fill(E2E_ADMIN.password);
  await page.getByRole("button", { name: "Se connecter" }).click();
  await expect(page.getByRole("heading", { name: "Tableau de bord" })).toBeVisible();
}
