import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../support/server";

/**
 * `npm run dev` (decision 403): the runner takes the Remix build from Vite's module graph and starts
 * the Express server that build exports, the same `server/app.ts` as production. Pages render,
 * the server's own answers (health, the write guard in the visitor's language) come first.
 */
let server: RunningServer;
beforeAll(async () => {
  server = await startServer({}, { dev: true });
}, 90_000);
afterAll(() => server?.stop());

describe("the development server", () => {
  it("says what it serves, and renders the home page through Vite", async () => {
    expect(server.output()).toContain("(development server, Vite)");
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html.includes('data-testid="platform-list"'), "the home page's platform list").toBe(true);
    // Remix's development manifest, served by Vite: not the built assets.
    expect(html.includes("virtual:remix/browser-manifest"), "the development manifest").toBe(true);
    expect(html.includes("/assets/manifest-"), "no built manifest").toBe(false);
  }, 90_000);

  it("answers /healthz from memory and refuses a cross-site write in the visitor's language", async () => {
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.text()).toBe("ok");
    const refused = await fetch(`${server.url}/submit`, {
      method: "POST",
      headers: { Origin: "https://elsewhere.example", "Content-Type": "application/x-www-form-urlencoded" },
      body: "code=ABC",
    });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("ne provient pas de ce site");
  }, 30_000);
});
