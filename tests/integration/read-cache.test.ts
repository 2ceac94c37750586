import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~db/schema";
import { signInQuietly, startServerWithAdmin } from "../support/admin";
import { createCode, createPlatform, openTestDb } from "../support/fixtures";
import { postForm, type RunningServer } from "../support/server";

// The public pages' read cache (decision 264), kept a minute here: anything shown stale in these
// tests is the cache's doing, not timing. The fixtures write behind the server's back (no statement
// of the server's), which is what the cache cannot see; what the server itself writes, it must.
let server: RunningServer;
let db: Kysely<Database>;
let admin: string;
beforeAll(async () => {
  server = await startServerWithAdmin({ READ_CACHE_MS: "60000" });
  db = openTestDb(server.dbFile);
  admin = await signInQuietly(server);
});
afterAll(async () => {
  await db?.destroy();
  await server?.stop();
});

/** The platform page as a visitor with a cookie sees it (past any page cache). */
async function landing(slug: string) {
  const res = await fetch(`${server.url}/${slug}`, { headers: { Cookie: "consent=denied" } });
  expect(res.status).toBe(200);
  const html = await res.text();
  return {
    name: /<h1 id="platform-heading"[^>]*>([^<]*)</.exec(html)?.[1],
    count: /data-testid="available-count">([^<]*)</.exec(html)?.[1],
  };
}
const renameQuietly = (id: number, name: string) => db.updateTable("platforms").set({ name }).where("id", "=", id).execute();

describe("the public pages' read cache", () => {
  it("keeps a platform's row and count between visitors; the server's own write to the catalogue shows at once", async () => {
    const p = await createPlatform(db);
    await createCode(db, p.id);
    const first = await landing(p.slug);
    expect(first.name).toBe(p.name);
    expect(first.count).toMatch(/\b1\b/);

    await renameQuietly(p.id, "Renamed Behind Its Back");
    await createCode(db, p.id);
    // Unseen by the server: the kept row and the kept count.
    expect(await landing(p.slug)).toEqual(first);

    // Any catalogue write through the app (here another platform switched off and on) drops both.
    const other = await createPlatform(db);
    for (let i = 0; i < 2; i++) {
      const res = await postForm(
        `${server.url}/admin/platforms`,
        { intent: "toggle-active", id: String(other.id) },
        { cookie: admin },
      );
      expect(res.status).toBe(303);
    }
    const after = await landing(p.slug);
    expect(after.name).toBe("Renamed Behind Its Back");
    expect(after.count).toMatch(/\b2\b/);
  });

  it("a code shared through the app shows in the count at once; the catalogue stays kept", async () => {
    const p = await createPlatform(db);
    const before = await landing(p.slug);
    expect(before.count).not.toMatch(/\d/); // no code yet
    await renameQuietly(p.id, "Kept Across A Code Write");
    const shared = await postForm(`${server.url}/submit`, { intent: "submit", platform: p.slug, code: "SHARED42" });
    expect(shared.status).toBe(303);
    const after = await landing(p.slug);
    expect(after.count).toMatch(/\b1\b/);
    // A code is activity, not catalogue: the platform's row was not read again.
    expect(after.name).toBe(p.name);
  });

  it("a draw (the server's own prepared statements, not Kysely's) drops the kept counts", async () => {
    const p = await createPlatform(db);
    await createCode(db, p.id);
    expect((await landing(p.slug)).count).toMatch(/\b1\b/);
    await createCode(db, p.id);
    expect((await landing(p.slug)).count).toMatch(/\b1\b/);
    const drawn = await postForm(`${server.url}/${p.slug}/get-code`, { intent: "draw" });
    expect(drawn.status).toBe(303);
    expect((await landing(p.slug)).count).toMatch(/\b2\b/);
  });

  it("made-up platform paths are answered 404 and never push out what the pages keep", async () => {
    const p = await createPlatform(db);
    const kept = await landing(p.slug);
    await renameQuietly(p.id, "Kept Through A Thousand Strangers");
    // More unknown slugs than the cache holds entries (1,000), and slugs no platform can have.
    const strangers = [...Array.from({ length: 1_100 }, (_, i) => `no-such-platform-${i}`), "NoSuch.Thing", "x".repeat(5_000)];
    for (let i = 0; i < strangers.length; i += 4) {
      const answers = await Promise.all(
        strangers.slice(i, i + 4).map(async (slug) => {
          const res = await fetch(`${server.url}/${slug}`, { headers: { Cookie: "consent=denied" } });
          return { status: res.status, html: await res.text() };
        }),
      );
      for (const { status, html } of answers) {
        expect(status).toBe(404);
        expect(html).toContain("Plateforme introuvable");
      }
    }
    expect(await landing(p.slug)).toEqual(kept);
  }, 60_000);
});
