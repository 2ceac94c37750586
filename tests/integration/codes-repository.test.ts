import SQLite from "better-sqlite3";
import { sql } from "kysely";
import { beforeEach, describe, expect, it } from "vitest";
import { countAvailableCodes } from "~db/repositories/code-counts.server";
import { expiryFrom, getDrawResult, submitReferralCode } from "~db/repositories/codes.server";
import { drawReferralCode } from "~db/repositories/draw.server";
import type { NewReferralCode } from "~db/schema";
import { getSqlite, onPostgres, useFreshDatabase, type DB } from "../support/db";
import { createCode, createPlatform, refuseDrawLogOf } from "../support/fixtures";

let db: DB;
let file: string;
beforeEach(async () => {
  ({ db, file } = await useFreshDatabase({ seed: false }));
});

function addCode(platformId: number, code: string, overrides: Partial<NewReferralCode> = {}) {
  return createCode(db, platformId, { code, ...overrides });
}

async function serveCounts(platformId: number) {
  const rows = await db
    .selectFrom("referral_codes")
    .select(["code", "times_served"])
    .where("platform_id", "=", platformId)
    .orderBy("code")
    .execute();
  return Object.fromEntries(rows.map((r) => [r.code, r.times_served]));
}

describe("drawReferralCode (fairness)", () => {
  it("with 3 codes, 9 draws serve each exactly 3 times and the first 3 draws are distinct", async () => {
    const p = await createPlatform(db);
    for (const code of ["AAA111", "BBB222", "CCC333"]) await addCode(p.id, code);
    const served: string[] = [];
    for (let i = 0; i < 9; i++) served.push((await drawReferralCode(p.id))!.code);
    expect(new Set(served.slice(0, 3)).size).toBe(3);
    expect(await serveCounts(p.id)).toEqual({ AAA111: 3, BBB222: 3, CCC333: 3 });
    const logged = await db.selectFrom("random_requests").select(["served_code", "served_code_id"]).orderBy("id").execute();
    expect(logged.map((r) => r.served_code)).toEqual(served);
  });

  it("serves the least served first and, among as many serves, in a random order that changes every round (issue 55)", async () => {
    const p = await createPlatform(db);
    // Who was served last no longer decides (it made the order a cycle anyone could learn).
    await addCode(p.id, "OLD111", { times_served: 1, last_served_at: "2026-01-02T00:00:00.000Z" });
    await addCode(p.id, "OLDER1", { times_served: 1, last_served_at: "2026-01-01T00:00:00.000Z" });
    await addCode(p.id, "NEVER1", { times_served: 1, last_served_at: null });
    await addCode(p.id, "BEHIND", { times_served: 0 });
    expect((await drawReferralCode(p.id))!.code).toBe("BEHIND");
    const firsts = new Map<string, number>();
    const orders = new Set<string>();
    for (let round = 0; round < 60; round++) {
      const order = [];
      for (let i = 0; i < 4; i++) order.push((await drawReferralCode(p.id))!.code);
      // Every code once per round: least served first still holds.
      expect([...order].sort()).toEqual(["BEHIND", "NEVER1", "OLD111", "OLDER1"]);
      firsts.set(order[0]!, (firsts.get(order[0]!) ?? 0) + 1);
      orders.add(order.join());
    }
    // Each code opens a round about 15 times in 60 (a fixed cycle would give one code all 60).
    for (const code of ["BEHIND", "NEVER1", "OLD111", "OLDER1"]) expect(firsts.get(code) ?? 0).toBeGreaterThanOrEqual(4);
    expect(orders.size).toBeGreaterThan(6);
  });

  it("never serves expired or inactive codes; permanent ones always are eligible", async () => {
    const p = await createPlatform(db);
    const past = new Date(Date.now() - 1000).toISOString();
    await addCode(p.id, "EXPIRED1", { expires_at: past });
    await addCode(p.id, "INACTIVE1", { is_active: 0, expires_at: expiryFrom(new Date()) });
    await addCode(p.id, "PERMANENT1", { is_permanent: 1, expires_at: past, times_served: 50 });
    await addCode(p.id, "VALID1", { expires_at: expiryFrom(new Date()), times_served: 50 });
    const served = new Set<string>();
    for (let i = 0; i < 10; i++) served.add((await drawReferralCode(p.id))!.code);
    expect([...served].sort()).toEqual(["PERMANENT1", "VALID1"]);
    expect(await countAvailableCodes(p.id)).toBe(2);
    const counts = await serveCounts(p.id);
    expect(counts.EXPIRED1).toBe(0);
    expect(counts.INACTIVE1).toBe(0);
    expect(counts.PERMANENT1! + counts.VALID1!).toBe(110);
  });

  it("returns null and writes nothing when no code is eligible", async () => {
    const p = await createPlatform(db);
    await addCode(p.id, "EXPIRED1", { expires_at: new Date(Date.now() - 1000).toISOString() });
    expect(await drawReferralCode(p.id)).toBeNull();
    expect(await db.selectFrom("random_requests").select("id").execute()).toEqual([]);
  });

  it("draws only the platform asked for; null draws across active platforms only", async () => {
    const a = await createPlatform(db);
    const b = await createPlatform(db);
    const off = await createPlatform(db, { is_active: 0 });
    await addCode(a.id, "AAA111");
    await addCode(b.id, "BBB222");
    await addCode(off.id, "OFF333");
    expect((await drawReferralCode(b.id))!.code).toBe("BBB222");
    const across = new Set<string>();
    for (let i = 0; i < 6; i++) across.add((await drawReferralCode(null))!.code);
    expect([...across].sort()).toEqual(["AAA111", "BBB222"]);
    expect((await serveCounts(off.id)).OFF333).toBe(0);
    const [aServed, bServed] = [(await serveCounts(a.id)).AAA111!, (await serveCounts(b.id)).BBB222!];
    expect(aServed + bServed).toBe(7);
    expect(Math.abs(aServed - bServed)).toBeLessThanOrEqual(1);
  });

  it("a draw given a transaction runs in it, and a draw started while another transaction is open waits its turn", async () => {
    const p = await createPlatform(db);
    // Tie-break keys in this order: the draws must pick the codes in it.
    for (const [i, code] of ["AAA111", "BBB222", "CCC333", "DDD444"].entries()) await addCode(p.id, code, { draw_key: i });
    const inCallersTransaction = await db.transaction().execute((trx) => drawReferralCode(p.id, new Date(), trx));
    expect(inCallersTransaction!.code).toBe("AAA111");
    // Open a Kysely transaction that spans an await; a draw started meanwhile must not join it.
    const inFlight = db.transaction().execute(async (trx) => {
      await trx.updateTable("referral_codes").set({ times_served: 9, rotation_count: 9 }).where("code", "=", "DDD444").execute();
      await new Promise((r) => setTimeout(r, 20));
      throw new Error("rollback");
    });
    const concurrent = drawReferralCode(p.id);
    await expect(inFlight).rejects.toThrow("rollback");
    expect((await concurrent)!.code).toBe("BBB222");
    expect(await serveCounts(p.id)).toEqual({ AAA111: 1, BBB222: 1, CCC333: 0, DDD444: 0 });
  });

  it("draws arriving together each stay fair and are logged once", async () => {
    const p = await createPlatform(db);
    for (const code of ["AAA111", "BBB222", "CCC333"]) await addCode(p.id, code);
    const drawn = await Promise.all(Array.from({ length: 30 }, () => drawReferralCode(p.id)));
    expect(new Set(drawn.map((d) => d!.requestId)).size).toBe(30);
    // In the order they were served (request ids follow it on both databases): any three in a row differ.
    const served = [...drawn].sort((a, b) => a!.requestId - b!.requestId);
    expect(new Set(served.slice(0, 3).map((d) => d!.code)).size).toBe(3);
    expect(await serveCounts(p.id)).toEqual({ AAA111: 10, BBB222: 10, CCC333: 10 });
    expect(await db.selectFrom("random_requests").select("id").execute()).toHaveLength(30);
  });

  it("a draw that fails fails alone: the others are served and logged, it writes nothing", async () => {
    const ok = await createPlatform(db);
    const broken = await createPlatform(db);
    // Tie-break keys in this order: AAA111 is served first.
    for (const [i, code] of ["AAA111", "BBB222"].entries()) await addCode(ok.id, code, { draw_key: i });
    await addCode(broken.id, "BOOM01");
    // A real constraint in the real database, as a disk or schema error would be: logging this code fails.
    await refuseDrawLogOf(db, "BOOM01");
    const outcomes = await Promise.allSettled([drawReferralCode(ok.id), drawReferralCode(broken.id), drawReferralCode(ok.id)]);
    expect(outcomes.map((o) => o.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(Error);
    expect(await serveCounts(ok.id)).toEqual({ AAA111: 1, BBB222: 1 });
    // Its count was rolled back with its failed log row.
    expect(await serveCounts(broken.id)).toEqual({ BOOM01: 0 });
    expect(await db.selectFrom("random_requests").select("served_code").orderBy("id").execute()).toEqual([
      { served_code: "AAA111" },
      { served_code: "BBB222" },
    ]);
  });

  it("failing draws among many at once fail alone, and the others stay fair", async () => {
    const ok = await createPlatform(db);
    const broken = await createPlatform(db);
    for (const code of ["AAA111", "BBB222", "CCC333"]) await addCode(ok.id, code);
    await addCode(broken.id, "BOOM01");
    await refuseDrawLogOf(db, "BOOM01");
    const targets = [broken.id, ok.id, broken.id, ok.id, ok.id, broken.id];
    const outcomes = await Promise.allSettled(targets.map((id) => drawReferralCode(id)));
    expect(outcomes.map((o) => o.status)).toEqual(targets.map((id) => (id === ok.id ? "fulfilled" : "rejected")));
    // Fair among the survivors: each served once.
    expect(
      outcomes
        .filter((o) => o.status === "fulfilled")
        .map((o) => (o as PromiseFulfilledResult<{ code: string }>).value.code)
        .sort(),
    ).toEqual(["AAA111", "BBB222", "CCC333"]);
    expect(await serveCounts(broken.id)).toEqual({ BOOM01: 0 });
    expect(await db.selectFrom("random_requests").select("id").execute()).toHaveLength(3);
  });

  // SQLite's file lock: another process (a backup, a script) holds the database's write lock.
  it.skipIf(onPostgres)(
    "while another process holds the write lock, draws fail as busy and write nothing; then draws work again",
    async () => {
      const p = await createPlatform(db);
      await addCode(p.id, "AAA111");
      const other = new SQLite(file);
      other.exec("BEGIN IMMEDIATE");
      getSqlite().pragma("busy_timeout = 200");
      try {
        const outcomes = await Promise.allSettled(Array.from({ length: 3 }, () => drawReferralCode(p.id)));
        expect(outcomes.every((o) => o.status === "rejected" && /locked|busy/i.test(String(o.reason)))).toBe(true);
        expect(await serveCounts(p.id)).toEqual({ AAA111: 0 });
      } finally {
        other.exec("ROLLBACK");
        other.close();
        getSqlite().pragma("busy_timeout = 5000");
      }
      // The lock gone, draws work again.
      expect(await drawReferralCode(p.id)).toMatchObject({ code: "AAA111" });
    },
  );

  it.skipIf(onPostgres)(
    "a draw whose statements fail (its log table gone) fails, writes nothing, and the process lives on",
    async () => {
      const p = await createPlatform(db);
      await addCode(p.id, "AAA111");
      await sql`ALTER TABLE random_requests RENAME TO random_requests_gone`.execute(db);
      const outcomes = await Promise.allSettled([drawReferralCode(p.id), drawReferralCode(p.id)]);
      expect(outcomes.map((o) => o.status)).toEqual(["rejected", "rejected"]);
      expect(String((outcomes[0] as PromiseRejectedResult).reason)).toMatch(/no such table/);
      expect(await serveCounts(p.id)).toEqual({ AAA111: 0 });
    },
  );

  it("by slug: draws the active platform's codes; unknown or inactive slugs draw nothing", async () => {
    const on = await createPlatform(db);
    const off = await createPlatform(db, { is_active: 0 });
    await addCode(on.id, "SLUG01");
    await addCode(off.id, "SLUG02");
    expect(await drawReferralCode(on.slug)).toMatchObject({ code: "SLUG01", platformId: on.id });
    expect(await drawReferralCode(off.slug)).toBeNull();
    expect(await drawReferralCode("no-such-slug")).toBeNull();
    expect(await db.selectFrom("random_requests").select("id").execute()).toHaveLength(1);
  });

  it("getDrawResult shows the code as served, with its link", async () => {
    const p = await createPlatform(db);
    await addCode(p.id, "AAA111", { referral_url: `https://${p.slug}.example/r/aaa111` });
    const drawn = await drawReferralCode(p.id);
    const result = await getDrawResult(drawn!.requestId);
    expect(result).toMatchObject({ code: "AAA111", referralUrl: `https://${p.slug}.example/r/aaa111`, platformSlug: p.slug });
    await db.deleteFrom("referral_codes").execute();
    expect(await getDrawResult(drawn!.requestId)).toMatchObject({
      code: "AAA111",
      referralUrl: `https://${p.slug}.example/r/AAA111`,
    });
  });
});

describe("submitReferralCode", () => {
  it("stores a temporary code valid 6 months, and refuses a duplicate without writing", async () => {
    const p = await createPlatform(db);
    const now = new Date("2026-03-31T10:00:00.000Z");
    const first = await submitReferralCode({ platformId: p.id, code: "ABC123", referralUrl: null }, now);
    expect(first.ok).toBe(true);
    const row = await db.selectFrom("referral_codes").selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ code: "ABC123", is_permanent: 0, is_active: 1, times_served: 0, expires_at: expiryFrom(now) });
    expect(row.expires_at!.startsWith("2026-10-01") || row.expires_at!.startsWith("2026-09-30")).toBe(true);
    expect(await submitReferralCode({ platformId: p.id, code: "ABC123", referralUrl: null }, now)).toEqual({
      ok: false,
      reason: "duplicate",
    });
    expect(await db.selectFrom("referral_codes").select("id").execute()).toHaveLength(1);
  });
});
