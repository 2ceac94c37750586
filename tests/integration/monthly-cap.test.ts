import { beforeEach, describe, expect, it } from "vitest";
import { recordCodeReport } from "~db/repositories/code-reports.server";
import { countAvailableCodes } from "~db/repositories/code-counts.server";
import { drawReferralCode } from "~db/repositories/draw.server";
import type { ReportReason } from "~db/schema";
import { useFreshDatabase, type DB } from "../support/db";
import { createCode, createPlatform } from "../support/fixtures";

// The rule with the clock injected (every repository function takes `now`): a code capped in
// January is out of the draw until 1 February 00:00 UTC, then back without anyone acting, and the
// answers before that instant no longer count.
let db: DB;
beforeEach(async () => {
  ({ db } = await useFreshDatabase({ seed: false }));
});

const at = (iso: string) => new Date(iso);

async function drawAndAnswer(platformId: number, when: Date, reason: ReportReason | null, ip: string) {
  const drawn = await drawReferralCode(platformId, when);
  expect(drawn).not.toBeNull();
  return recordCodeReport({ requestId: drawn!.requestId, platformId, outcome: "failed", reason, ipHash: ip }, when);
}

const codeRow = (id: number) => db.selectFrom("referral_codes").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

describe("the monthly cap (limit-reached answers)", () => {
  it("3 addresses saying 'limit reached' cap the code until the first day of next month (UTC), then it is back by itself", async () => {
    const p = await createPlatform(db);
    const code = await createCode(db, p.id, { code: "CAPPED1", created_at: "2026-01-01T00:00:00.000Z" });
    const results = [];
    for (const [i, day] of ["2026-01-15T10:00:00Z", "2026-01-15T11:00:00Z", "2026-01-15T12:00:00Z"].entries()) {
      results.push(await drawAndAnswer(p.id, at(day), "limit-reached", `ip-${i}`));
    }
    expect(results.map((r) => r.ok && r.capped)).toEqual([false, false, true]);
    expect(results.every((r) => r.ok && !r.paused)).toBe(true);
    expect(await codeRow(code.id)).toMatchObject({
      is_active: 1,
      paused_reason: null,
      capped_until: "2026-02-01T00:00:00.000Z",
      reports_reset_at: "2026-02-01T00:00:00.000Z",
    });

    // Out of the draw (and of the counts) for the rest of January...
    expect(await drawReferralCode(p.id, at("2026-01-31T23:59:59Z"))).toBeNull();
    expect(await countAvailableCodes(p.id, at("2026-01-20T00:00:00Z"))).toBe(0);
    // ...back on 1 February, with nobody acting.
    expect(await countAvailableCodes(p.id, at("2026-02-01T00:00:00Z"))).toBe(1);
    const back = await drawReferralCode(p.id, at("2026-02-01T00:00:01Z"));
    expect(back?.code).toBe("CAPPED1");

    // January's answers no longer count: two more addresses in February are not three.
    const feb1 = await recordCodeReport(
      { requestId: back!.requestId, platformId: p.id, outcome: "failed", reason: "limit-reached", ipHash: "ip-9" },
      at("2026-02-01T00:00:02Z"),
    );
    const feb2 = await drawAndAnswer(p.id, at("2026-02-02T00:00:00Z"), "limit-reached", "ip-10");
    expect([feb1.ok && feb1.capped, feb2.ok && feb2.capped]).toEqual([false, false]);
    // The first draw after the cap ended raised the code to the level of the others and cleared the
    // cap (rotation.server.ts, rule 4); January's reset still stands.
    expect((await codeRow(code.id)).capped_until).toBeNull();
    // A third address in February caps it again, until 1 March.
    expect(await drawAndAnswer(p.id, at("2026-02-03T00:00:00Z"), "limit-reached", "ip-11")).toMatchObject({ capped: true });
    expect((await codeRow(code.id)).capped_until).toBe("2026-03-01T00:00:00.000Z");
  });

  it("December's cap ends on 1 January; answers that arrive while capped change nothing", async () => {
    const p = await createPlatform(db);
    const code = await createCode(db, p.id, { code: "DECEMBER", created_at: "2026-12-01T00:00:00.000Z" });
    // Draws made before the cap, answered after it: they must not extend or turn it into a pause.
    const draws = [];
    for (let i = 0; i < 6; i++) draws.push((await drawReferralCode(p.id, at(`2026-12-10T0${i}:00:00Z`)))!);
    for (let i = 0; i < 3; i++) {
      await recordCodeReport(
        { requestId: draws[i]!.requestId, platformId: p.id, outcome: "failed", reason: "limit-reached", ipHash: `a${i}` },
        at("2026-12-31T22:00:00Z"),
      );
    }
    expect((await codeRow(code.id)).capped_until).toBe("2027-01-01T00:00:00.000Z");
    for (let i = 3; i < 6; i++) {
      const r = await recordCodeReport(
        { requestId: draws[i]!.requestId, platformId: p.id, outcome: "failed", reason: "expired", ipHash: `b${i}` },
        at("2026-12-31T23:00:00Z"),
      );
      expect(r).toMatchObject({ ok: true, paused: false, capped: false });
    }
    expect(await codeRow(code.id)).toMatchObject({ is_active: 1, paused_reason: null, capped_until: "2027-01-01T00:00:00.000Z" });
    expect((await drawReferralCode(p.id, at("2027-01-01T00:00:00Z")))?.code).toBe("DECEMBER");
  });

  it("'expired' and 'other' pause as before; 'wrong-region' and 'conditions-not-met' never take a code out", async () => {
    const p = await createPlatform(db);
    const hinted = await createCode(db, p.id, { code: "HINTED" });
    for (let i = 0; i < 6; i++) {
      const r = await drawAndAnswer(p.id, new Date(), i % 2 ? "wrong-region" : "conditions-not-met", `h${i}`);
      expect(r).toMatchObject({ ok: true, paused: false, capped: false });
    }
    expect(await codeRow(hinted.id)).toMatchObject({ is_active: 1, paused_reason: null, capped_until: null });

    const q = await createPlatform(db);
    const dead = await createCode(db, q.id, { code: "DEAD1" });
    await drawAndAnswer(q.id, new Date(), "expired", "d1");
    await drawAndAnswer(q.id, new Date(), "other", "d2");
    expect(await drawAndAnswer(q.id, new Date(), null, "d3")).toMatchObject({ paused: true, capped: false });
    expect(await codeRow(dead.id)).toMatchObject({ is_active: 0, paused_reason: "reports", capped_until: null });
    const stored = await db.selectFrom("code_reports").select("reason").where("code_id", "=", dead.id).orderBy("id").execute();
    expect(stored.map((r) => r.reason)).toEqual(["expired", "other", null]);
  });
});
