import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { followRedirect, signInQuietly, startServerWithAdmin } from "../support/admin";
import { createCode, createPlatform, failWritesTo, openTestDb, type TestDb } from "../support/fixtures";
import { postForm, startServer, type RunningServer } from "../support/server";

/**
 * Platform deletions in the background (decision 292), over real HTTP as a browser without
 * JavaScript makes them: the admin's delete answers at once whatever the platform holds, the
 * platforms tab shows the deletion while it goes on, and a deletion stopped half way (a failing
 * write, a restart) ends by itself or when deleted again. `PLATFORM_DELETE_WAIT_MS=0`: the request
 * never waits for the rows, the slow case of a popular platform.
 */
let server: RunningServer;
let cookie: string;
let db: TestDb;

beforeAll(async () => {
  server = await startServerWithAdmin({ PLATFORM_DELETE_WAIT_MS: "0" });
  cookie = await signInQuietly(server);
  db = openTestDb(server.dbFile);
});
afterAll(async () => {
  await db?.destroy();
  await server?.stop();
});

/** A platform with `draws` draws of one code. */
async function platformWithDraws(draws: number) {
  const p = await createPlatform(db);
  const code = await createCode(db, p.id);
  const at = new Date().toISOString();
  for (let i = 0; i < draws; i += 500)
    await db
      .insertInto("random_requests")
      .values(
        Array.from({ length: Math.min(500, draws - i) }, () => ({
          platform_id: p.id,
          served_code_id: code.id,
          served_code: code.code,
          created_at: at,
        })),
      )
      .execute();
  return p;
}

const rowsOf = async (platformId: number) =>
  Number(
    (
      await db
        .selectFrom("random_requests")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("platform_id", "=", platformId)
        .executeTakeFirstOrThrow()
    ).n,
  );
const platformRow = (id: number) => db.selectFrom("platforms").selectAll().where("id", "=", id).executeTakeFirst();

async function deleteAsAdmin(id: number) {
  const res = await postForm(`${server.url}/admin/platforms`, { intent: "delete", id: String(id), confirm: "yes" }, { cookie });
  expect(res.status).toBe(303);
  return (await followRedirect(server, res, cookie)).replace(/&#x27;/g, "'");
}

const adminPage = async () =>
  (await (await fetch(`${server.url}/admin/platforms`, { headers: { Cookie: cookie } })).text()).replace(/&#x27;/g, "'");

async function waitUntilGone(id: number) {
  await expect.poll(() => platformRow(id), { timeout: 15_000, interval: 100 }).toBeUndefined();
}

describe("deleting a platform", () => {
  it("answers before the rows are gone, the platform off the site at once; its rows then go in the background", async () => {
    const p = await platformWithDraws(2_500);
    const page = await deleteAsAdmin(p.id);
    expect(page).toContain(`Plateforme ${p.name} retirée du site\u00a0: ses données sont supprimées en arrière-plan`);
    // Off the site at once: sent home while its rows go (an inactive platform), or not found once gone.
    const visitor = await fetch(`${server.url}/${p.slug}`, { redirect: "manual" });
    const sentTo = visitor.headers.get("location");
    expect(visitor.status === 404 || (visitor.status === 303 && new URL(sentTo!, server.url).pathname === "/")).toBe(true);
    await waitUntilGone(p.id);
    expect(await rowsOf(p.id)).toBe(0);
    // The job logs once its last batch has committed: the line may reach this process a moment after the rows are gone.
    await expect.poll(() => server.output(), { timeout: 5_000 }).toContain(`[platforms] deleted "${p.name}"`);
    expect(await adminPage()).not.toContain('data-testid="platform-deletions"');
  });

  it("a deletion stopped by a failing write stays listed apart, nothing of it editable; deleting it again ends it", async () => {
    const p = await platformWithDraws(600);
    const restore = await failWritesTo(db, "random_requests", "delete");
    try {
      // The failure may come within the request's wait (503, try again) or after it (303, goes on).
      const res = await postForm(
        `${server.url}/admin/platforms`,
        { intent: "delete", id: String(p.id), confirm: "yes" },
        { cookie },
      );
      expect([303, 503]).toContain(res.status);
      await expect.poll(() => server.output(), { timeout: 10_000 }).toContain("[platforms] deletion stopped");
      const row = await platformRow(p.id);
      expect(row).toMatchObject({ is_active: 0 });
      // Off the site meanwhile: a visitor is sent home.
      const visitor = await fetch(`${server.url}/${p.slug}`, { redirect: "manual" });
      expect(visitor.status).toBe(303);
      expect(new URL(visitor.headers.get("location")!, server.url).pathname).toBe("/");
      expect(row!.deleting_since).not.toBeNull();
      const html = await adminPage();
      expect(html).toContain('data-testid="platform-deletions"');
      expect(html).toContain(`${p.name}\u00a0: tirages, réponses et codes en cours de suppression depuis le`);
      // In every language the admin may read it in.
      for (const [lng, words] of [
        ["en", "Being deleted"],
        ["de", "Wird gelöscht"],
        ["es", "Eliminación en curso"],
      ]) {
        const translated = await (
          await fetch(`${server.url}/admin/platforms?lng=${lng}`, { headers: { Cookie: cookie } })
        ).text();
        expect(translated, lng).toContain(words);
        expect(translated, lng).toContain(p.name);
      }
      // Listed apart, not among the platforms one edits.
      expect(html).not.toContain(`data-testid="platform-row-${p.slug}"`);
      // Every edit is refused: an update or reactivation would bring back half a platform.
      const toggle = await postForm(`${server.url}/admin/platforms`, { intent: "toggle-active", id: String(p.id) }, { cookie });
      expect(toggle.status).toBe(404);
      expect((await platformRow(p.id))!.is_active).toBe(0);
      expect(await rowsOf(p.id)).toBe(600);
    } finally {
      await restore();
    }
    await deleteAsAdmin(p.id);
    await waitUntilGone(p.id);
    expect(await rowsOf(p.id)).toBe(0);
  });
});

describe("a shutdown during a deletion", () => {
  it("ends the deletion between two batches before the database closes; the next start finishes it", async () => {
    // 60 batches of draws: seconds of work, so the SIGTERM lands half way.
    const p = await platformWithDraws(120_000);
    await deleteAsAdmin(p.id);
    await expect.poll(() => rowsOf(p.id), { timeout: 15_000, interval: 20 }).toBeLessThan(120_000);
    await server.stop();
    // What the shutdown logged (the earlier tests' lines are before it).
    const out = server.output().slice(server.output().indexOf("SIGTERM received"));
    expect(out).toContain(`[platforms] deletion of "${p.name}" paused: the server is shutting down`);
    // The pause came before the database closed, and no statement failed on a closed database.
    expect(out.indexOf("paused: the server is shutting down")).toBeLessThan(out.indexOf("database closed"));
    expect(out).not.toContain("deletion stopped");
    expect(out).not.toContain("failed");
    const left = await rowsOf(p.id);
    expect(left).toBeGreaterThan(0);
    expect((await platformRow(p.id))?.deleting_since).not.toBeNull();
    server = await startServer({ DATABASE_FILE: server.dbFile, PLATFORM_DELETE_WAIT_MS: "0" });
    cookie = await signInQuietly(server);
    await waitUntilGone(p.id);
    expect(await rowsOf(p.id)).toBe(0);
  });
});

describe("after a restart", () => {
  it("a deletion the last process began ends by itself", async () => {
    const p = await platformWithDraws(300);
    await server.stop();
    // What a restart half way leaves: marked, off the site, rows left.
    await db
      .updateTable("platforms")
      .set({ is_active: 0, deleting_since: new Date().toISOString() })
      .where("id", "=", p.id)
      .execute();
    server = await startServer({ DATABASE_FILE: server.dbFile });
    await waitUntilGone(p.id);
    expect(await rowsOf(p.id)).toBe(0);
  });
});
