import { beforeEach, describe, expect, it } from "vitest";
import { deletePlatform, getActivePlatformBySlug } from "~db/repositories/platforms.server";
import { useFreshDatabase, type DB } from "../support/db";
import { createPlatform } from "../support/fixtures";

/**
 * A platform with years of history goes in batches (decision 284): one transaction deactivates it,
 * then its rows go a batch at a time, and the connection serves others between batches. Real
 * database (SQLite, and PostgreSQL on that pass), real migrations and triggers.
 */
let db: DB;
beforeEach(async () => {
  ({ db } = await useFreshDatabase());
});

const at = new Date(Date.now() - 86_400_000).toISOString();

/** A platform with `codes` codes, `draws` draws (spread over the codes), every third draw answered. */
async function platformWithHistory(codes: number, draws: number) {
  const p = await createPlatform(db);
  const ids: number[] = [];
  for (let i = 0; i < codes; i += 500) {
    const rows = await db
      .insertInto("referral_codes")
      .values(
        Array.from({ length: Math.min(500, codes - i) }, (_, k) => ({
          platform_id: p.id,
          code: `C${p.id}X${i + k}`,
          created_at: at,
        })),
      )
      .returning("id")
      .execute();
    ids.push(...rows.map((r) => r.id));
  }
  for (let i = 0; i < draws; i += 500) {
    const rows = await db
      .insertInto("random_requests")
      .values(
        Array.from({ length: Math.min(500, draws - i) }, (_, k) => {
          const code = ids[(i + k) % ids.length]!;
          return { platform_id: p.id, served_code_id: code, served_code: `C${p.id}X${(i + k) % ids.length}`, created_at: at };
        }),
      )
      .returning(["id", "served_code_id"])
      .execute();
    const answered = rows.filter((_, k) => k % 3 === 0);
    await db
      .insertInto("code_reports")
      .values(
        answered.map((d) => ({
          random_request_id: d.id,
          code_id: d.served_code_id!,
          platform_id: p.id,
          outcome: "worked" as const,
          ip_hash: "h",
          created_at: at,
        })),
      )
      .execute();
  }
  await db
    .insertInto("deletion_requests")
    .values({ code: `C${p.id}X0`, platform_id: p.id, reason: null, created_at: at })
    .execute();
  return p;
}

const count = async (table: "referral_codes" | "random_requests" | "code_reports" | "deletion_requests", platformId: number) =>
  Number(
    (
      await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as("n"))
        .where("platform_id", "=", platformId)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe("deleting a platform with a long history", () => {
  it("removes all it holds and only that, in batches: visitors lose it at once, and writes go between batches", async () => {
    const gone = await platformWithHistory(700, 4500);
    const kept = await platformWithHistory(20, 40);
    const deleting = deletePlatform(gone.id, db, { pauseMs: 100 });
    // Between two batches: the platform is no longer a visitor's, though its rows are not all gone.
    await new Promise((resolve) => setTimeout(resolve, 15));
    expect(await getActivePlatformBySlug(gone.slug, db)).toBeUndefined();
    expect(await count("random_requests", gone.id)).toBeGreaterThan(0);
    const order: string[] = [];
    const write = db
      .insertInto("referral_codes")
      .values({ platform_id: kept.id, code: "MEANWHILE", created_at: new Date().toISOString() })
      .execute()
      .then(() => order.push("write"));
    const removed = await deleting.then((r) => {
      order.push("delete");
      return r;
    });
    await write;
    expect(order).toEqual(["write", "delete"]);
    expect(removed).toEqual({ custom_logo_light_url: null, custom_logo_dark_url: null });
    expect(await db.selectFrom("platforms").select("id").where("id", "=", gone.id).execute()).toEqual([]);
    for (const table of ["referral_codes", "random_requests", "code_reports", "deletion_requests"] as const) {
      expect(await count(table, gone.id)).toBe(0);
    }
    expect(await count("referral_codes", kept.id)).toBe(21);
    expect(await count("random_requests", kept.id)).toBe(40);
    expect(await count("code_reports", kept.id)).toBe(14);
    expect(await count("deletion_requests", kept.id)).toBe(1);
    expect(await deletePlatform(gone.id, db)).toBeNull();
  });

  it("a deletion cut short leaves the platform inactive; deleting it again finishes", async () => {
    const p = await platformWithHistory(50, 120);
    // What a restart half way leaves: deactivated, some rows already gone.
    await db.updateTable("platforms").set({ is_active: 0 }).where("id", "=", p.id).execute();
    await db.deleteFrom("random_requests").where("platform_id", "=", p.id).where("id", "<", 60).execute();
    expect(await deletePlatform(p.id, db)).not.toBeNull();
    expect(await db.selectFrom("platforms").select("id").where("id", "=", p.id).execute()).toEqual([]);
    expect(await count("referral_codes", p.id)).toBe(0);
  });
});
