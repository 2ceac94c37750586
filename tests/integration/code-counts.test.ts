import type { Updateable } from "kysely";
import { beforeEach, describe, expect, it } from "vitest";
import { deleteExpiredTemporaryCodes } from "~db/repositories/code-cleanup.server";
import {
  countAllAvailableCodes,
  countAllCodes,
  countAvailableByPlatform,
  countAvailableCodes,
} from "~db/repositories/code-counts.server";
import { eligible } from "~db/repositories/codes.server";
import { pruneOther } from "~db/repositories/history.server";
import type { Database } from "~db/schema";
import { useFreshDatabase, type DB } from "../support/db";
import { createCode, createPlatform } from "../support/fixtures";

// The kept counts (platform_code_counts, triggers of migration 0013, decision 194) against the rule
// itself (`eligible`, what the draw reads), through every kind of write and the passing of time,
// on SQLite and PostgreSQL (npm run test:postgres runs this file there too).

let db: DB;
beforeEach(async () => {
  ({ db } = await useFreshDatabase({ seed: false }));
});

/** The figure the slow way: every code, the draw's own condition. */
async function counted(now: Date): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom("referral_codes")
    .select((eb) => ["platform_id", eb.fn.countAll<number>().as("n")])
    .where(eligible(now.toISOString()))
    .groupBy("platform_id")
    .execute();
  return new Map(rows.map((r) => [r.platform_id, Number(r.n)]));
}

async function expectSame(now: Date, platformIds: number[]) {
  const expected = await counted(now);
  expect(Object.fromEntries(await countAvailableByPlatform(now, db))).toEqual(Object.fromEntries(expected));
  for (const id of platformIds) expect(await countAvailableCodes(id, now, db)).toBe(expected.get(id) ?? 0);
  expect(await countAllAvailableCodes(now, db)).toBe([...expected.values()].reduce((a, b) => a + b, 0));
  const all = await db
    .selectFrom("referral_codes")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  expect(await countAllCodes(db)).toBe(Number(all.n));
}

const iso = (s: string) => new Date(s).toISOString();

describe("codes in the draw, counted without reading every code", () => {
  it("follows inserts, toggles, caps, expiry edits, deletions and a platform's removal", async () => {
    const a = await createPlatform(db);
    const b = await createPlatform(db);
    const now = new Date("2026-06-15T12:00:00Z");
    await expectSame(now, [a.id, b.id]);

    const plain = await createCode(db, a.id);
    const permanent = await createCode(db, a.id, { is_permanent: 1, expires_at: iso("2026-01-01T00:00:00Z") });
    const expiring = await createCode(db, a.id, { expires_at: iso("2026-06-20T00:00:00Z") });
    const expired = await createCode(db, a.id, { expires_at: iso("2026-06-01T00:00:00Z") });
    const inactive = await createCode(db, b.id, { is_active: 0 });
    const capped = await createCode(db, b.id, { capped_until: iso("2026-07-01T00:00:00Z") });
    const capEnded = await createCode(db, b.id, { capped_until: iso("2026-06-01T00:00:00Z") });
    const capEndedExpired = await createCode(db, b.id, {
      capped_until: iso("2026-06-01T00:00:00Z"),
      expires_at: iso("2026-06-10T00:00:00Z"),
    });
    await expectSame(now, [a.id, b.id]);
    expect(await countAvailableCodes(a.id, now, db)).toBe(3); // plain, permanent, expiring
    expect(await countAvailableCodes(b.id, now, db)).toBe(1); // the cap that ended

    // Time passes: the expiring code expires, the cap ends.
    const later = new Date("2026-07-02T00:00:00Z");
    await expectSame(later, [a.id, b.id]);
    expect(await countAvailableCodes(a.id, later, db)).toBe(2);
    expect(await countAvailableCodes(b.id, later, db)).toBe(2);

    const update = (id: number, values: Updateable<Database["referral_codes"]>) =>
      db.updateTable("referral_codes").set(values).where("id", "=", id).execute();
    await update(plain.id, { is_active: 0 });
    await update(inactive.id, { is_active: 1 });
    await update(expired.id, { expires_at: iso("2027-01-01T00:00:00Z") });
    await update(permanent.id, { is_permanent: 0 });
    await update(capped.id, { capped_until: null });
    await update(expiring.id, { capped_until: iso("2026-07-01T00:00:00Z") });
    // A code moved to another platform (no screen does it; the triggers follow it anyway).
    await update(expiring.id, { platform_id: b.id });
    // The draw's own write touches no counted column.
    await update(capEnded.id, { times_served: 5, last_served_at: now.toISOString() });
    await expectSame(now, [a.id, b.id]);
    await expectSame(later, [a.id, b.id]);

    // Clean-ups: expired codes removed, ended caps cleared (the history job), same figures.
    await deleteExpiredTemporaryCodes(later, db);
    await pruneOther(later, 1000, db);
    const caps = await db.selectFrom("referral_codes").select("id").where("capped_until", "<=", later.toISOString()).execute();
    expect(caps).toEqual([]);
    await expectSame(later, [a.id, b.id]);

    await db.deleteFrom("referral_codes").where("id", "=", capEndedExpired.id).execute();
    await db.deleteFrom("referral_codes").where("id", "=", inactive.id).execute();
    await expectSame(later, [a.id, b.id]);
    // Removing a platform removes its codes (cascade): its count goes with them.
    await db.deleteFrom("platforms").where("id", "=", a.id).execute();
    await expectSame(later, [a.id, b.id]);
    expect(await countAvailableCodes(a.id, later, db)).toBe(0);
  });

  it("stays equal to the rule through 400 random writes, checked at three moments", async () => {
    const platforms = [await createPlatform(db), await createPlatform(db), await createPlatform(db)];
    const moments = [new Date("2026-03-01T00:00:00Z"), new Date("2026-06-01T00:00:00Z"), new Date("2026-09-01T00:00:00Z")];
    const dates = [
      null,
      "2026-02-01T00:00:00.000Z",
      "2026-05-01T00:00:00.000Z",
      "2026-08-01T00:00:00.000Z",
      "2027-01-01T00:00:00.000Z",
    ];
    // A small deterministic generator (the high bits of an LCG): the same sequence every run.
    let seed = 24;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return Math.floor(seed / 65536) % n;
    };
    const kinds = [0, 0, 0, 0, 0, 0];
    const ids: number[] = [];
    for (let step = 0; step < 400; step++) {
      const kind = ids.length < 5 ? 0 : next(6);
      const id = ids[next(Math.max(ids.length, 1))];
      kinds[kind]!++;
      if (kind === 0) {
        const code = await createCode(db, platforms[next(3)]!.id, {
          is_active: next(4) === 0 ? 0 : 1,
          is_permanent: next(5) === 0 ? 1 : 0,
          expires_at: dates[next(dates.length)],
          capped_until: next(4) === 0 ? dates[next(dates.length)] : null,
        });
        ids.push(code.id);
      } else if (kind === 1) {
        await db
          .updateTable("referral_codes")
          .set({ is_active: next(2) })
          .where("id", "=", id!)
          .execute();
      } else if (kind === 2) {
        await db
          .updateTable("referral_codes")
          .set({ capped_until: dates[next(dates.length)] })
          .where("id", "=", id!)
          .execute();
      } else if (kind === 3) {
        await db
          .updateTable("referral_codes")
          .set({ expires_at: dates[next(dates.length)], is_permanent: next(2) })
          .where("id", "=", id!)
          .execute();
      } else if (kind === 4) {
        await db.deleteFrom("referral_codes").where("id", "=", id!).execute();
        ids.splice(ids.indexOf(id!), 1);
      } else {
        await db
          .updateTable("referral_codes")
          .set({ times_served: next(9) })
          .where("id", "=", id!)
          .execute();
      }
      if (step % 50 === 49)
        for (const moment of moments)
          await expectSame(
            moment,
            platforms.map((p) => p.id),
          );
    }
    // Every kind of write happened, many times.
    for (const n of kinds) expect(n).toBeGreaterThan(20);
  }, 60_000);
});
