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
    expect(copied).toMatchObject({ platforms: 7, referral_codes: 1, users: 1, user_roles: 1, logo_files: 1 });
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
});
