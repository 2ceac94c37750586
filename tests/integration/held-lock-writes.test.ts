import SQLite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGameSession } from "~/features/game/session.server";
import { signInQuietly, startServerWithAdmin, ADMIN } from "../support/admin";
import { onPostgres } from "../support/db";
import { createPlatform, openTestDb, type TestDb } from "../support/fixtures";
import { postForm, type RunningServer } from "../support/server";

/**
 * Another process (a backup tool, a migration, an operator's sqlite3 shell) holds SQLite's write
 * lock: every write the admin or a visitor sends waits its 2 s without blocking, then answers 503
 * with Retry-After and a message, writes nothing, and a form keeps what was typed (decision 302).
 * Before, the settings, the scores, sign-in, sign-out, the assistant and the game's score wrote
 * outside the one write path: a 500 after SQLite's 20 ms. (SQLite only: the held file lock is its own.)
 */
describe.skipIf(onPostgres)("a write lock held by another process", () => {
  let server: RunningServer;
  let db: TestDb;
  let admin: string;
  beforeAll(async () => {
    // The game tokens are signed here with the test process's secret: the server shares it.
    server = await startServerWithAdmin({ SESSION_SECRET: process.env.SESSION_SECRET! });
    db = openTestDb(server.dbFile);
    admin = await signInQuietly(server);
  });
  afterAll(async () => {
    await db?.destroy();
    await server?.stop();
  });

  /** Runs `work` while another connection holds the write lock (BEGIN IMMEDIATE), then lets it go. */
  async function whileLocked<T>(work: () => Promise<T>): Promise<T> {
    const holder = new SQLite(server.dbFile);
    holder.exec("BEGIN IMMEDIATE");
    try {
      return await work();
    } finally {
      holder.exec("ROLLBACK");
      holder.close();
    }
  }
  const english = () => `${admin}; language=en`;
  const post = (path: string, fields: Record<string, string>, cookie = english()) =>
    postForm(`${server.url}${path}`, fields, { cookie });
  const refused = async (res: Response) => {
    expect(res.status).toBe(503);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    return (await res.text()).replaceAll("&#x27;", "'").replaceAll("&quot;", '"');
  };

  it("the offer editor answers 503 and shows what was typed, and the stored texts where nothing was sent", async () => {
    const p = await createPlatform(db);
    await db
      .insertInto("platform_offers")
      .values({
        platform_id: p.id,
        offer_referee: "Texte enregistré",
        offer_conditions_en: "Stored conditions",
        updated_at: new Date().toISOString(),
      })
      .execute();
    const html = await refused(
      await whileLocked(() =>
        // The offer editor lives on the platform's own page, which it posts to.
        post(`/admin/platforms/${p.id}`, { intent: "update-offer", id: String(p.id), offer_referee: "Texte tapé à l'instant" }),
      ),
    );
    const at = html.indexOf(`data-testid="offer-editor-${p.id}"`);
    expect(at).toBeGreaterThan(0);
    // Shown open, on what was typed.
    expect(html.slice(html.lastIndexOf("<details", at), at)).toContain("open");
    const editor = html.slice(at, html.indexOf("</details>", at));
    expect(editor).toContain("Texte tapé à l'instant");
    // A field the post did not carry shows the stored text, not an empty box to save over it.
    expect(editor).toContain("Stored conditions");
    const row = await db.selectFrom("platform_offers").selectAll().where("platform_id", "=", p.id).executeTakeFirstOrThrow();
    expect(row.offer_referee).toBe("Texte enregistré");
  });

  it("a visitor's code: 503 with Retry-After (the form's reply keeps it) and the submit page's message, nothing written", async () => {
    const p = await createPlatform(db);
    const html = await refused(
      await whileLocked(() => postForm(`${server.url}/submit`, { intent: "submit", platform: p.slug, code: "VERROU42" })),
    );
    expect(html).toContain('value="VERROU42"');
    expect(await db.selectFrom("referral_codes").select("id").where("code", "=", "VERROU42").executeTakeFirst()).toBeUndefined();
  });

  it("a suggestion and a partnership: 503 with Retry-After and their input; a partnership's move too", async () => {
    const suggestion = await refused(
      await whileLocked(() =>
        postForm(`${server.url}/suggest-platform`, {
          intent: "suggest",
          name: "Banque Pendant Le Verrou",
          description: "Une description gardée",
          website_url: "",
        }),
      ),
    );
    expect(suggestion).toContain("Une description gardée");
    const partnership = await refused(
      await whileLocked(() =>
        post("/admin/partnerships", {
          intent: "create",
          name: "Partenaire Verrou",
          url: "https://verrou.example/",
          display_mode: "name",
        }),
      ),
    );
    expect(partnership).toContain("Error creating the partnership");
    expect(partnership).toContain('value="Partenaire Verrou"');
    for (const name of ["Premier", "Second"])
      expect((await post("/admin/partnerships", { intent: "create", name, url: "https://ordre.example/" })).status).toBe(303);
    const second = await db.selectFrom("partnerships").select("id").where("name", "=", "Second").executeTakeFirstOrThrow();
    const moved = await refused(
      await whileLocked(() => post("/admin/partnerships", { intent: "move-up", id: String(second.id) })),
    );
    expect(moved).toContain("Error moving the partnership");
  });

  it("a new platform: 503 with Retry-After, the form keeps its input, nothing created", async () => {
    const html = await refused(
      await whileLocked(() =>
        post("/admin/platforms/new", {
          intent: "create",
          name: "Banque Verrou",
          slug: "banque-verrou",
          description: "Créée pendant le verrou",
          code_pattern: "^[A-Z0-9]{8,}$",
          gradient: "pink-violet",
        }),
      ),
    );
    expect(html).toContain('value="Banque Verrou"');
    expect(html).toContain("Créée pendant le verrou");
    expect(await db.selectFrom("platforms").select("id").where("slug", "=", "banque-verrou").executeTakeFirst()).toBeUndefined();
  });

  it("a setting: 503 with Retry-After and the page's message, the value unchanged", async () => {
    const before = await db.selectFrom("settings").select("value").where("key", "=", "enable_theme_toggle").executeTakeFirst();
    const html = await refused(
      await whileLocked(() =>
        post("/admin/settings", {
          intent: "save",
          key: "enable_theme_toggle",
          value: before?.value === "false" ? "true" : "false",
        }),
      ),
    );
    expect(html).toContain("Error while saving");
    const after = await db.selectFrom("settings").select("value").where("key", "=", "enable_theme_toggle").executeTakeFirst();
    expect(after?.value).toBe(before?.value);
  });

  it("a score's edit and deletion: 503 with Retry-After and the row's message, the row unchanged", async () => {
    const { id } = await db
      .insertInto("game_scores")
      .values({ player_name: "Verrou", score: 42, device_type: "mobile", created_at: new Date().toISOString() })
      .returning("id")
      .executeTakeFirstOrThrow();
    const edit = await refused(
      await whileLocked(() => post("/admin/scores", { intent: "update", id: String(id), player_name: "Changé", score: "7" })),
    );
    expect(edit).toContain("Error while saving the score");
    const gone = await refused(
      await whileLocked(() => post("/admin/scores", { intent: "delete", id: String(id), confirm: "yes" })),
    );
    expect(gone).toContain("Error while deleting the score");
    expect(await db.selectFrom("game_scores").select(["player_name", "score"]).where("id", "=", id).executeTakeFirst()).toEqual({
      player_name: "Verrou",
      score: 42,
    });
  });

  it("a game's score: a 503 JSON with Retry-After and the reason; the same game is saved once the lock is gone", async () => {
    const fields = {
      token: createGameSession("desktop", Date.now() - 61_000),
      player_name: "Verrou",
      score: "0",
      // A game without an orb: no collection times (a score must always send the field).
      collected_at: "",
      device_type: "desktop",
    };
    const res = await whileLocked(() => postForm(`${server.url}/game/scores`, fields, { cookie: "language=en" }));
    expect(res.status, await res.clone().text()).toBe(503);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await res.json()).toMatchObject({
      code: "unavailable",
      error: "The score cannot be saved right now. Try again in a few moments.",
    });
    expect((await postForm(`${server.url}/game/scores`, fields)).status).toBe(201);
  });

  it("sign-in and sign-out: 503 with Retry-After; the session signed out stays usable until it is really removed", async () => {
    const signIn = await refused(
      await whileLocked(() =>
        postForm(`${server.url}/admin/login`, { email: ADMIN.email, password: ADMIN.password, redirectTo: "/admin" }),
      ),
    );
    expect(signIn).toContain("Enregistrement impossible pour le moment");
    const session = await signInQuietly(server);
    await refused(await whileLocked(() => post("/admin/logout", {}, session)));
    const still = await fetch(`${server.url}/admin/settings`, { headers: { Cookie: session }, redirect: "manual" });
    expect(still.status).toBe(200);
  });

  it("an admin page whose session is due for renewal still answers 200 (the renewal waits for a later page)", async () => {
    const session = await signInQuietly(server);
    // Due for renewal: it expires in an hour (renewed when less than its idle lifetime minus a margin is left).
    await db
      .updateTable("sessions")
      .set({ expires_at: new Date(Date.now() + 3_600_000).toISOString() })
      .execute();
    const page = await whileLocked(() =>
      fetch(`${server.url}/admin/settings`, { headers: { Cookie: session }, redirect: "manual" }),
    );
    expect(page.status).toBe(200);
  });

  it("the assistant's conversation deletion: 503 with Retry-After, the conversation kept", async () => {
    const user = await db.selectFrom("users").select("id").where("email", "=", ADMIN.email).executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    const { id } = await db
      .insertInto("assistant_conversations")
      .values({ user_id: user.id, title: "Verrou", provider: "anthropic", model: "m", created_at: now, updated_at: now })
      .returning("id")
      .executeTakeFirstOrThrow();
    await refused(
      await whileLocked(() =>
        post("/admin/assistant", { intent: "delete-conversation", conversation_id: String(id), confirm: "yes" }),
      ),
    );
    expect(await db.selectFrom("assistant_conversations").select("id").where("id", "=", id).executeTakeFirst()).toEqual({ id });
  });
});
