import { sql } from "kysely";
import { beforeEach, describe, expect, it } from "vitest";
import { RETENTION } from "~db/retention";
import { removeOldCodeHistory, runRetention } from "~db/repositories/retention.server";
import { codeHistory } from "~db/repositories/rotation.server";
import { onPostgres, useFreshDatabase, type DB } from "../support/db";
import { createPlatform } from "../support/fixtures";

/**
 * code_history (rotation rule 5, docs/fairness.md) is kept codeHistoryDays after a code's last
 * deletion, then removed in batches by the retention job; on both databases.
 */
const DAY_MS = 86_400_000;

describe("code_history retention", () => {
  let db: DB;
  const now = new Date();
  const ago = (days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();

  beforeEach(async () => {
    ({ db } = await useFreshDatabase());
  });

  it("removes the history of codes deleted longer ago than its period, in batches; newer history stays and is found by its key", async () => {
    const p = await createPlatform(db);
    const row = (key: string, days: number) => ({
      code_key: key,
      platform_id: p.id,
      rotation_count: 7,
      times_served: 5,
      deleted_at: ago(days),
    });
    await db
      .insertInto("code_history")
      .values([
        row("old-a", RETENTION.codeHistoryDays + 1),
        row("old-b", RETENTION.codeHistoryDays + 30),
        row("old-c", RETENTION.codeHistoryDays + 400),
        row("recent", RETENTION.codeHistoryDays - 1),
      ])
      .execute();
    // Batches of one: three deletes of one row, then one that finds nothing.
    expect(await removeOldCodeHistory(now, 1, db)).toBe(3);
    expect((await db.selectFrom("code_history").select("code_key").execute()).map((r) => r.code_key)).toEqual(["recent"]);
    expect(await codeHistory("recent", db)).toEqual({ rotation_count: 7, times_served: 5 });
    expect(await codeHistory("old-a", db)).toBeUndefined();
  });

  it("is a step of the retention job", async () => {
    const p = await createPlatform(db);
    await db
      .insertInto("code_history")
      .values({
        code_key: "old",
        platform_id: p.id,
        rotation_count: 1,
        times_served: 1,
        deleted_at: ago(RETENTION.codeHistoryDays + 2),
      })
      .execute();
    const summary = await runRetention({ now, batch: 10 }, db);
    expect(summary.codeHistory).toBe(1);
    expect(await db.selectFrom("code_history").select("code_key").execute()).toEqual([]);
  });

  it.skipIf(onPostgres)(
    "finds the rows to remove on code_history_deleted_idx and a resubmitted code on the primary key (SQLite's plan)",
    async () => {
      const plan = async (query: string) =>
        (await sql<{ detail: string }>`explain query plan ${sql.raw(query)}`.execute(db)).rows.map((r) => r.detail).join("\n");
      expect(
        await plan("select code_key from code_history where deleted_at < '2026-01-01' order by deleted_at limit 500"),
      ).toContain("code_history_deleted_idx");
      expect(await plan("select rotation_count, times_served from code_history where code_key = 'k'")).toMatch(
        /USING INDEX sqlite_autoindex_code_history_1/,
      );
    },
  );
});
