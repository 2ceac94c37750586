import fs from "node:fs";
import { sql } from "kysely";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { seedBase } from "~db/seed.server";
import { SEED_PLATFORMS, SETTING_KEYS } from "~db/seed-data";
import { getSqlite, onPostgres, useFreshDatabase, type DB } from "../support/db";

let db: DB;
// SQLite's message, then PostgreSQL's.
const UNIQUE = /UNIQUE constraint failed|violates unique constraint/;
const CHECK = /CHECK constraint failed|violates check constraint/;
beforeEach(async () => {
  ({ db } = await useFreshDatabase());
});

describe("database", () => {
  it.skipIf(onPostgres)("opens with WAL, foreign keys, busy timeout and synchronous NORMAL", () => {
    const sqlite = getSqlite();
    expect(sqlite.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(sqlite.pragma("foreign_keys", { simple: true })).toBe(1);
    expect(sqlite.pragma("busy_timeout", { simple: true })).toBe(5000);
    expect(sqlite.pragma("synchronous", { simple: true })).toBe(1);
  });

  it.skipIf(onPostgres)("a WAL grown by one large transaction is cut back once it is checkpointed (decision 286)", async () => {
    const sqlite = getSqlite();
    const wal = () => fs.statSync(`${sqlite.name}-wal`).size;
    const MB = 1024 * 1024;
    sqlite.exec("create table big (v text)");
    // One transaction of about 40 MB, as a migration rewriting a large table writes.
    sqlite.transaction(() => {
      const insert = sqlite.prepare("insert into big values (?)");
      for (let i = 0; i < 10_000; i++) insert.run("x".repeat(4000));
    })();
    expect(wal()).toBeGreaterThan(30 * MB);
    // Everyday writes: the next one after the checkpoint starts the WAL again, cut back.
    await db.updateTable("settings").set({ value: "true" }).where("key", "=", "enable_auto_cleanup").execute();
    sqlite.pragma("wal_checkpoint(PASSIVE)");
    await db.updateTable("settings").set({ value: "false" }).where("key", "=", "enable_auto_cleanup").execute();
    expect(wal()).toBeLessThanOrEqual(16 * MB);
  });

  it.skipIf(onPostgres)(
    "prepares each query text once and reuses it, also across a schema change and an abandoned stream",
    async () => {
      const prepare = vi.spyOn(getSqlite(), "prepare");
      const names = () => db.selectFrom("platforms").selectAll().where("is_active", "=", 1).orderBy("id").execute();
      const first = await names();
      expect(await names()).toEqual(first);
      expect(prepare).toHaveBeenCalledTimes(1);
      // SQLite prepares a kept statement again by itself when the schema changes.
      await sql`alter table platforms add column bench_extra text default 'x'`.execute(db);
      const after = (await names()) as Array<Record<string, unknown>>;
      expect(after[0]!.bench_extra).toBe("x");
      // A stream left half-read frees its statement for the next run.
      for await (const row of db.selectFrom("platforms").select("slug").orderBy("id").stream()) {
        expect(row.slug).toBe(first[0]!.slug);
        break;
      }
      expect((await db.selectFrom("platforms").select("slug").orderBy("id").execute()).length).toBe(first.length);
      // Texts that vary (here 300 different ones) do not pile up: the oldest are dropped and prepared again.
      for (let i = 0; i < 300; i++) await sql`select ${sql.lit(i)} as n`.execute(db);
      prepare.mockClear();
      await sql`select ${sql.lit(0)} as n`.execute(db);
      await sql`select ${sql.lit(299)} as n`.execute(db);
      expect(prepare).toHaveBeenCalledTimes(1);
      prepare.mockRestore();
    },
  );

  it("seeds the six platforms with hosts and link template, and every setting", async () => {
    const platforms = await db.selectFrom("platforms").selectAll().orderBy("display_order").execute();
    expect(platforms.map((p) => p.slug)).toEqual(SEED_PLATFORMS.map((p) => p.slug));
    for (const p of platforms) {
      expect(p.hosts).not.toBe("");
      expect(p.referral_url_template).toContain("{code}");
      expect(JSON.parse(p.url_rules)).not.toHaveLength(0);
      expect(p.description_en && p.description_de && p.description_es).toBeTruthy();
    }
    const keys = (await db.selectFrom("settings").select("key").execute()).map((r) => r.key).sort();
    expect(keys).toEqual([...SETTING_KEYS].sort());
  });

  it("seeding twice changes nothing", async () => {
    expect(await seedBase(db)).toEqual({ platforms: 0, settings: 0 });
  });

  it("refuses a duplicate slug, a duplicate code on one platform, a bad status and a bad device type", async () => {
    const tesla = await db.selectFrom("platforms").select("id").where("slug", "=", "tesla").executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    await expect(
      db
        .insertInto("platforms")
        .values({ name: "X", slug: "tesla", gradient_from: "#000", gradient_to: "#fff", created_at: now })
        .execute(),
    ).rejects.toThrow(UNIQUE);
    await db.insertInto("referral_codes").values({ platform_id: tesla.id, code: "ABC", created_at: now }).execute();
    await expect(
      db.insertInto("referral_codes").values({ platform_id: tesla.id, code: "ABC", created_at: now }).execute(),
    ).rejects.toThrow(UNIQUE);
    await expect(
      sql`insert into deletion_requests (code, platform_id, status, created_at) values ('A', ${tesla.id}, 'maybe', ${now})`.execute(
        db,
      ),
    ).rejects.toThrow(CHECK);
    await expect(
      sql`insert into game_scores (player_name, score, device_type, created_at) values ('a', 1, 'tablet', ${now})`.execute(db),
    ).rejects.toThrow(CHECK);
    await expect(
      sql`insert into partnerships (name, url, display_mode, created_at) values ('a', 'https://a', 'huge', ${now})`.execute(db),
    ).rejects.toThrow(CHECK);
  });

  it("deleting a platform removes its codes (ON DELETE CASCADE) and keeps served history rows' snapshot", async () => {
    const tesla = await db.selectFrom("platforms").select("id").where("slug", "=", "tesla").executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    const code = await db
      .insertInto("referral_codes")
      .values({ platform_id: tesla.id, code: "ABC", created_at: now })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db
      .insertInto("random_requests")
      .values({ platform_id: tesla.id, served_code_id: code.id, served_code: "ABC", created_at: now })
      .execute();
    await db.deleteFrom("referral_codes").where("id", "=", code.id).execute();
    const log = await db.selectFrom("random_requests").selectAll().executeTakeFirstOrThrow();
    expect(log.served_code_id).toBeNull();
    expect(log.served_code).toBe("ABC");
    await db.deleteFrom("platforms").where("id", "=", tesla.id).execute();
    expect(await db.selectFrom("random_requests").selectAll().execute()).toHaveLength(0);
  });

  it.skipIf(onPostgres)("the draw query uses its index", () => {
    const plan = getSqlite()
      .prepare(
        `EXPLAIN QUERY PLAN SELECT id FROM referral_codes WHERE platform_id = 1 AND is_active = 1
         AND (is_permanent = 1 OR expires_at IS NULL OR expires_at > ?) ORDER BY rotation_count, draw_key, id LIMIT 1`,
      )
      .all(new Date().toISOString()) as Array<{ detail: string }>;
    expect(plan.map((r) => r.detail).join("\n")).toContain("referral_codes_draw_idx");
  });
});
