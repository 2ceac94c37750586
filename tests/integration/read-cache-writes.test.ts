import { sql } from "kysely";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { CATALOGUE_TABLE_NAMES, cachedRead, resetReadCache } from "~db/read-cache.server";
import { createCode, createPlatform } from "../support/fixtures";
import { closeDb, onPostgres, useFreshDatabase, type DB } from "../support/db";

/**
 * What the app's own writes drop from the read cache (decision 296), through the real database
 * handle, on both databases: a transaction that wrote only activity tables (a draw's code, an
 * answer, a game session's removal) keeps the catalogue and published reads; one that wrote the
 * catalogue drops them. On PostgreSQL the commit is what counts (each connection notes the tables its
 * transaction wrote); on SQLite each statement. Before, every PostgreSQL commit and every delete
 * anywhere dropped everything, so on a busy site the minute-long published reads barely lived.
 */
let db: DB;

beforeEach(async () => {
  ({ db } = await useFreshDatabase());
  process.env.READ_CACHE_MS = "60000";
  resetReadCache();
});
afterAll(async () => {
  delete process.env.READ_CACHE_MS;
  resetReadCache();
  await closeDb();
});

/** Reads kept before `write`, and whether each kind was read again after it. */
async function dropsAfter(write: () => Promise<unknown>) {
  resetReadCache();
  let runs = { catalogue: 0, activity: 0, published: 0 };
  const readAll = async () => {
    await cachedRead("c", "catalogue", async () => ++runs.catalogue);
    await cachedRead("a", "activity", async () => ++runs.activity);
    await cachedRead("p", "published", async () => ++runs.published);
  };
  await readAll();
  await write();
  runs = { catalogue: runs.catalogue - 1, activity: runs.activity - 1, published: runs.published - 1 };
  await readAll();
  return { catalogue: runs.catalogue === 1, activity: runs.activity === 1, published: runs.published === 1 };
}

describe("the read cache and the app's own writes", () => {
  it("a transaction writing activity tables, deletes included, keeps the catalogue and published reads", async () => {
    const p = await createPlatform(db);
    const code = await createCode(db, p.id);
    expect(
      await dropsAfter(() =>
        db.transaction().execute(async (trx) => {
          await trx.updateTable("referral_codes").set({ times_served: 1 }).where("id", "=", code.id).execute();
          await trx.deleteFrom("game_sessions_used").where("expires_at", "<", "2000-01-01T00:00:00.000Z").execute();
          await trx.deleteFrom("referral_codes").where("id", "=", code.id).execute();
        }),
      ),
    ).toEqual({ catalogue: false, activity: true, published: false });
  });

  it("a transaction writing a catalogue table drops all three", async () => {
    const p = await createPlatform(db);
    expect(
      await dropsAfter(() =>
        db.transaction().execute(async (trx) => {
          await trx.updateTable("platforms").set({ name: "Renamed" }).where("id", "=", p.id).execute();
        }),
      ),
    ).toEqual({ catalogue: true, activity: true, published: true });
    expect(await dropsAfter(() => db.deleteFrom("platforms").where("id", "=", p.id).execute())).toEqual({
      catalogue: true,
      activity: true,
      published: true,
    });
  });

  it("a statement it cannot name drops all three", async () => {
    expect(await dropsAfter(() => sql`create table if not exists read_cache_probe (x integer)`.execute(db))).toEqual({
      catalogue: true,
      activity: true,
      published: true,
    });
  });

  it("no catalogue table is the child of a table outside the catalogue: a delete elsewhere cascades into none", async () => {
    const parents = onPostgres
      ? (
          await sql<{ child: string; parent: string }>`
            select tc.table_name as child, ccu.table_name as parent
            from information_schema.table_constraints tc
            join information_schema.constraint_column_usage ccu on ccu.constraint_name = tc.constraint_name
            where tc.constraint_type = 'FOREIGN KEY'`.execute(db)
        ).rows
      : (
          await sql<{ child: string; parent: string }>`
            select m.name as child, f."table" as parent
            from sqlite_master m, pragma_foreign_key_list(m.name) f
            where m.type = 'table'`.execute(db)
        ).rows;
    // The schema has foreign keys (the query reads them): platform_offers is platforms' child.
    expect(parents).toContainEqual({ child: "platform_offers", parent: "platforms" });
    const intoCatalogue = parents.filter(
      (fk) => CATALOGUE_TABLE_NAMES.includes(fk.child) && !CATALOGUE_TABLE_NAMES.includes(fk.parent),
    );
    expect(intoCatalogue).toEqual([]);
  });
});
