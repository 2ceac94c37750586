import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInQuietly, startServerWithAdmin } from "../support/admin";
import { withRawDb } from "../support/fixtures";
import { postForm, type RunningServer } from "../support/server";

// A long lifetime, so that anything served stale in these tests is the cache's doing, not timing.
let server: RunningServer;
let adminCookie: string;
beforeAll(async () => {
  server = await startServerWithAdmin({ PAGE_CACHE_MS: "60000" });
  adminCookie = await signInQuietly(server);
});
afterAll(async () => {
  await server?.stop();
});

/** Renames a platform behind the server's back (no request, so nothing clears the cache). */
async function renameQuietly(slug: string, name: string) {
  await withRawDb(server.dbFile, (db) => db.run("update platforms set name = ? where slug = ?", name, slug));
}
const home = (cookie?: string) => fetch(server.url, { headers: cookie ? { Cookie: cookie } : {} });
const nonceOf = (res: Response) => /'nonce-([^']+)'/.exec(res.headers.get("content-security-policy") ?? "")?.[1];

describe("anonymous page cache", () => {
  it("serves an anonymous page again, each answer with its own CSP nonce", async () => {
    const first = await home();
    const firstHtml = await first.text();
    await renameQuietly("revolut", "Revolut Cached Check");
    const second = await home();
    const secondHtml = await second.text();
    // Still the stored page: the rename is not visible to anonymous visitors yet.
    expect(secondHtml).not.toContain("Revolut Cached Check");
    const [a, b] = [nonceOf(first), nonceOf(second)];
    expect(a && b && a !== b).toBe(true);
    expect(firstHtml).toContain(`nonce="${a}"`);
    expect(secondHtml).toContain(`nonce="${b}"`);
    expect(secondHtml).not.toContain(`nonce="${a}"`);
    expect(second.headers.get("vary")).toMatch(/Cookie/);
  });

  it("never serves a cached page to a signed-in admin, nor to another language", async () => {
    const admin = await (await home(adminCookie)).text();
    expect(admin).toContain("Revolut Cached Check");
    const english = await (await home("language=en")).text();
    expect(english).toContain("Revolut Cached Check");
  });

  it("keeps only the pages the app marks: the header names the cookies they depend on; admin pages have none", async () => {
    expect((await home()).headers.get("x-page-cache")).toBe("language, theme, consent");
    expect((await fetch(`${server.url}/admin/login`)).headers.get("x-page-cache")).toBeNull();
  });

  it("a URL longer than any of the site's is rendered each time, never kept (a stranger's long queries)", async () => {
    const long = `${server.url}/platforms?pad=${"z".repeat(3000)}`;
    const short = `${server.url}/platforms?pad=short`;
    await fetch(long);
    await fetch(short);
    await renameQuietly("n26", "N26 Long Url Check");
    expect(await (await fetch(long)).text()).toContain("N26 Long Url Check");
    expect(await (await fetch(short)).text()).not.toContain("N26 Long Url Check");
  });

  it("an admin's write empties it: a setting saved shows at once", async () => {
    const saved = await postForm(
      `${server.url}/admin/settings`,
      { intent: "save", key: "price_tracker_name", value: "Tracker Fresh Name" },
      { cookie: adminCookie },
    );
    expect(saved.status).toBeLessThan(400);
    const html = await (await home()).text();
    expect(html).toContain("Tracker Fresh Name");
    expect(html).toContain("Revolut Cached Check");
  });
});
