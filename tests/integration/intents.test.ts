import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInQuietly, startServerWithAdmin } from "../support/admin";
import { createCode, createPlatform, openTestDb, type TestDb } from "../support/fixtures";
import { postForm, type RunningServer } from "../support/server";

/**
 * Every action reads its intent against one list (`parseIntent`): anything else is a 400 that
 * changes nothing. A destructive action without `confirm=yes` only asks (303 to the confirmation
 * step) and removes nothing.
 */
let server: RunningServer;
let cookie: string;
let db: TestDb;

beforeAll(async () => {
  server = await startServerWithAdmin();
  cookie = await signInQuietly(server);
  db = openTestDb(server.dbFile);
});
afterAll(async () => {
  await db?.destroy();
  await server?.stop();
});

const post = (path: string, fields: Record<string, string>) => postForm(`${server.url}${path}`, fields, { cookie });
const platformRow = (id: number) => db.selectFrom("platforms").selectAll().where("id", "=", id).executeTakeFirst();
const codeRow = (id: number) => db.selectFrom("referral_codes").selectAll().where("id", "=", id).executeTakeFirst();

describe("an unknown intent", () => {
  it("on the admin codes tab is a 400 that leaves the code as it was", async () => {
    const platform = await createPlatform(db);
    const code = await createCode(db, platform.id);
    const before = await codeRow(code.id);
    for (const intent of ["explode", "", "DELETE", "delete "]) {
      const res = await post(`/admin/codes?platform=${platform.slug}`, { intent, id: String(code.id), confirm: "yes" });
      expect(res.status, JSON.stringify(intent)).toBe(400);
    }
    const noIntent = await post("/admin/codes", { id: String(code.id), confirm: "yes" });
    expect(noIntent.status).toBe(400);
    expect(await codeRow(code.id)).toEqual(before);
  });

  it("on the admin platforms tab is a 400 that leaves the platform and its codes", async () => {
    const platform = await createPlatform(db);
    const code = await createCode(db, platform.id);
    const before = await platformRow(platform.id);
    const res = await post("/admin/platforms", { intent: "remove", id: String(platform.id), confirm: "yes" });
    expect(res.status).toBe(400);
    expect(await platformRow(platform.id)).toEqual(before);
    expect(await codeRow(code.id)).toBeDefined();
  });

  it("on visitor forms (/submit, /preferences) is a 400 that sets and writes nothing", async () => {
    const platform = await createPlatform(db);
    const submit = await postForm(`${server.url}/submit`, { intent: "publish", platform: platform.slug, code: "ABCD1234" });
    expect(submit.status).toBe(400);
    const codes = await db.selectFrom("referral_codes").select("id").where("platform_id", "=", platform.id).execute();
    expect(codes).toHaveLength(0);
    const preferences = await postForm(`${server.url}/preferences`, { intent: "set-everything", theme: "dark" });
    expect(preferences.status).toBe(400);
    expect(preferences.headers.get("set-cookie")).toBeNull();
  });
});

describe("a destructive admin action without confirm=yes", () => {
  it("asks (303 to the confirmation step) and deletes nothing: a platform, a code, a partnership, a score", async () => {
    const platform = await createPlatform(db);
    const code = await createCode(db, platform.id);
    const partnership = await db
      .insertInto("partnerships")
      .values({ name: "Ask first", url: "https://ask.example", is_active: 1, created_at: new Date().toISOString() } as never)
      .returning("id")
      .executeTakeFirstOrThrow();
    const score = await db
      .insertInto("game_scores")
      .values({ player_name: "Ana", score: 120, device_type: "desktop", created_at: new Date().toISOString() })
      .returning("id")
      .executeTakeFirstOrThrow();
    const cases: Array<[string, number, () => Promise<unknown>]> = [
      ["/admin/platforms", platform.id, () => platformRow(platform.id)],
      [`/admin/codes?platform=${platform.slug}`, code.id, () => codeRow(code.id)],
      [
        "/admin/partnerships",
        partnership.id,
        () => db.selectFrom("partnerships").select("id").where("id", "=", partnership.id).executeTakeFirst(),
      ],
      ["/admin/scores", score.id, () => db.selectFrom("game_scores").select("id").where("id", "=", score.id).executeTakeFirst()],
    ];
    for (const [path, id, row] of cases) {
      for (const confirm of [undefined, "no", "on"]) {
        const res = await post(path, { intent: "delete", id: String(id), ...(confirm === undefined ? {} : { confirm }) });
        expect(res.status, `${path} confirm=${confirm}`).toBe(303);
        expect(res.headers.get("location"), path).toMatch(new RegExp(`[?&]delete=${id}$`));
        expect(await row(), path).toBeDefined();
      }
    }
    // Confirmed, the platform goes (its codes with it).
    const confirmed = await post("/admin/platforms", { intent: "delete", id: String(platform.id), confirm: "yes" });
    expect(confirmed.status).toBe(303);
    expect(await platformRow(platform.id)).toBeUndefined();
    expect(await codeRow(code.id)).toBeUndefined();
  });
});
