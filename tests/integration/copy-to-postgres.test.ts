import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import { describe, expect, it } from "vitest";
import { copySqliteToPostgres } from "~db/copy-to-postgres.server";
import { migrateToLatest } from "~db/migrate.server";
import type { Database } from "~db/schema";
import { seedBase } from "~db/seed.server";
import { onPostgres, useFreshDatabase } from "../support/db";
import { createCode, createPlatform, createUser } from "../support/fixtures";
import { tmpPath } from "../support/paths";

/** `npm run db:copy-to-postgres`: a SQLite site moved to PostgreSQL (the PostgreSQL pass only: it needs both). */
describe.runIf(onPostgres)("copying a SQLite site to PostgreSQL", () => {
  it("copies every row and logo file, keeps ids, continues the keys, and refuses a database with rows", async () => {
    const file = tmpPath("site.db");
    const uploads = tmpPath("uploads");
    fs.mkdirSync(uploads);
    fs.writeFileSync(path.join(uploads, "old-light-1.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]));
    const sqlite = new Kysely<Database>({ dialect: new SqliteDialect({ database: new SQLite(file) }) });
    await migrateToLatest(sqlite);
    await seedBase(sqlite);
    const p = await createPlatform(sqlite, { custom_logo_light_url: "/uploads/old-light-1.png" });
    const code = await createCode(sqlite, p.id, { times_served: 3 });
    await createUser(sqlite);
    await sqlite.destroy();

    const { db } = await useFreshDatabase({ seed: false });
    const copied = await copySqliteToPostgres(file, db, { uploadsDir: uploads });
    expect(copied).toMatchObject({ platforms: 7, referral_codes: 1, users: 1, user_roles: 1, logo_files: 1, ledger_events: 1 });
    // The public ledger arrives as it was: the copied code is not "added" a second time (migration 0021).
    expect(await db.selectFrom("ledger_events").select(["id", "code_id", "type"]).execute()).toEqual([
      { id: 1, code_id: code.id, type: "added" },
    ]);
    expect(copied.settings).toBeGreaterThan(5);
    const row = await db.selectFrom("referral_codes").selectAll().where("id", "=", code.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ code: code.code, platform_id: p.id, times_served: 3 });
    const logo = await db.selectFrom("uploaded_files").selectAll().executeTakeFirstOrThrow();
    expect(logo).toMatchObject({ name: "old-light-1.png", content_type: "image/png" });
    // The serial keys go on after the copied ids.
    const next = await createPlatform(db);
    expect(next.id).toBe(p.id + 1);

    await expect(copySqliteToPostgres(file, db)).rejects.toThrow(/already has rows/);
  });

  it("reads the file a page at a time: tables larger than a page, with gaps in their ids, arrive whole (decision 285)", async () => {
    const file = tmpPath("big-site.db");
    const sqlite = new Kysely<Database>({ dialect: new SqliteDialect({ database: new SQLite(file) }) });
    await migrateToLatest(sqlite);
    await seedBase(sqlite);
    const p = await createPlatform(sqlite);
    const code = await createCode(sqlite, p.id);
    const at = "2026-01-01T00:00:00.000Z";
    for (let i = 0; i < 4500; i += 500) {
      await sqlite
        .insertInto("random_requests")
        .values(
          Array.from({ length: 500 }, (_, k) => ({
            platform_id: p.id,
            served_code_id: code.id,
            served_code: `D${i + k}`,
            created_at: at,
          })),
        )
        .execute();
    }
    // Gaps: removed draws, as retention leaves them.
    await sqlite.deleteFrom("random_requests").where("id", "in", [1, 2000, 2001, 4499]).execute();
    // A table without an id column, over two pages.
    const day = (i: number) => new Date(Date.UTC(2020, 0, 1) + i * 86_400_000).toISOString().slice(0, 10);
    await sqlite
      .insertInto("platform_daily_stats")
      .values(
        Array.from({ length: 2100 }, (_, i) => ({
          platform_id: p.id,
          day: day(i),
          draws: i,
          answers_worked: 0,
          answers_failed: 0,
        })),
      )
      .execute();
    const expected = (await sqlite.selectFrom("random_requests").select(["id", "served_code"]).orderBy("id").execute()).map(
      (r) => `${r.id}:${r.served_code}`,
    );
    await sqlite.destroy();

    const { db } = await useFreshDatabase({ seed: false });
    const copied = await copySqliteToPostgres(file, db);
    expect(copied).toMatchObject({ random_requests: 4496, platform_daily_stats: 2100 });
    const rows = (await db.selectFrom("random_requests").select(["id", "served_code"]).orderBy("id").execute()).map(
      (r) => `${r.id}:${r.served_code}`,
    );
    expect(rows).toEqual(expected);
    const sum = await db
      .selectFrom("platform_daily_stats")
      .select((eb) => eb.fn.sum<number>("draws").as("draws"))
      .executeTakeFirstOrThrow();
    expect(Number(sum.draws)).toBe((2099 * 2100) / 2);
  });
});
