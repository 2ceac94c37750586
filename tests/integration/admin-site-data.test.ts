import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { createPartnership, listPartnershipsAdmin, movePartnership } from "~db/repositories/partnerships.server";
import { drawsPerDay } from "~db/repositories/daily-figures.server";
import { parisDayStarts } from "~db/time";
import { deleteExpiredTemporaryCodes } from "~db/repositories/code-cleanup.server";
import { saveSetting } from "~db/repositories/settings.server";
import { runAutoCleanup } from "~/features/admin/site/cleanup-job.server";
import { closeDb, useFreshDatabase, type DB } from "../support/db";
import { openTestDb } from "../support/fixtures";
import { ROOT } from "../support/paths";
import { startServer } from "../support/server";

let db: DB;
let file: string;
let url: string;
beforeEach(async () => {
  ({ db, file, url } = await useFreshDatabase());
});

async function teslaId() {
  return (await db.selectFrom("platforms").select("id").where("slug", "=", "tesla").executeTakeFirstOrThrow()).id;
}

/** Codes in every expiry situation; returns the codes expected to survive a cleanup. */
async function insertCodes(now: Date) {
  const platform_id = await teslaId();
  const past = new Date(now.getTime() - 60_000).toISOString();
  const future = new Date(now.getTime() + 60_000).toISOString();
  const created_at = "2025-01-01T00:00:00.000Z";
  await db
    .insertInto("referral_codes")
    .values([
      { platform_id, code: "EXPIRED1", is_active: 1, is_permanent: 0, expires_at: past, created_at },
      { platform_id, code: "EXPIRED2", is_permanent: 0, expires_at: "2020-01-01T00:00:00.000Z", is_active: 0, created_at },
      { platform_id, code: "PERMANENTOLD", is_active: 1, is_permanent: 1, expires_at: past, created_at },
      { platform_id, code: "FUTURE", is_active: 1, is_permanent: 0, expires_at: future, created_at },
      { platform_id, code: "NOEXPIRY", is_active: 1, is_permanent: 0, expires_at: null, created_at },
    ])
    .execute();
  const expired = await db.selectFrom("referral_codes").select("id").where("code", "=", "EXPIRED1").executeTakeFirstOrThrow();
  await db
    .insertInto("random_requests")
    .values({ platform_id, served_code_id: expired.id, served_code: "EXPIRED1", created_at: past })
    .execute();
  return ["FUTURE", "NOEXPIRY", "PERMANENTOLD"];
}
const codes = async () => (await db.selectFrom("referral_codes").select("code").orderBy("code").execute()).map((r) => r.code);

describe("expired code cleanup", () => {
  it("removes only temporary codes whose expiry has passed; draw logs keep their snapshot", async () => {
    const now = new Date();
    const survivors = await insertCodes(now);
    expect(await deleteExpiredTemporaryCodes(now)).toBe(2);
    expect(await codes()).toEqual(survivors);
    const log = await db.selectFrom("random_requests").select(["served_code", "served_code_id"]).executeTakeFirstOrThrow();
    expect(log).toEqual({ served_code: "EXPIRED1", served_code_id: null });
    expect(await deleteExpiredTemporaryCodes(now)).toBe(0);
  });

  it("in batches, one transaction each: a write made meanwhile goes between two batches, not after them all (decision 284)", async () => {
    const now = new Date();
    const survivors = await insertCodes(now);
    const platform_id = await teslaId();
    const past = new Date(now.getTime() - 3_600_000).toISOString();
    await db
      .insertInto("referral_codes")
      .values(
        Array.from({ length: 250 }, (_, i) => ({
          platform_id,
          code: `OLD${i}`,
          is_active: 1,
          is_permanent: 0,
          expires_at: past,
          created_at: past,
        })),
      )
      .execute();
    const order: string[] = [];
    const cleanup = deleteExpiredTemporaryCodes(now, db, { batch: 100, pauseMs: 30 }).then((n) => {
      order.push("cleanup");
      return n;
    });
    // A visitor's submission while the cleanup runs.
    const write = db
      .insertInto("referral_codes")
      .values({ platform_id, code: "MEANWHILE", is_active: 1, is_permanent: 1, created_at: now.toISOString() })
      .execute()
      .then(() => order.push("write"));
    expect(await cleanup).toBe(252);
    await write;
    expect(order).toEqual(["write", "cleanup"]);
    expect(await codes()).toEqual([...survivors, "MEANWHILE"].sort());
  });

  it("the job does nothing while enable_auto_cleanup is 'false', and logs the count when 'true'", async () => {
    const now = new Date();
    await insertCodes(now);
    const lines: string[] = [];
    expect(await runAutoCleanup((l) => lines.push(l), now)).toBeNull();
    expect(await codes()).toHaveLength(5);
    expect(lines).toEqual([]);
    await saveSetting("enable_auto_cleanup", "true");
    expect(await runAutoCleanup((l) => lines.push(l), now)).toBe(2);
    expect(lines).toEqual(["[cleanup] removed 2 expired temporary code(s)"]);
  });

  it("npm run db:cleanup removes them and says how many", async () => {
    await insertCodes(new Date());
    await closeDb();
    const { stdout } = await promisify(execFile)(path.join(ROOT, "node_modules", ".bin", "tsx"), ["scripts/db-cleanup.ts"], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: url },
    });
    expect(stdout).toContain("[cleanup] removed 2 expired temporary code(s)");
    const check = openTestDb(file);
    const left = await check.selectFrom("referral_codes").select("code").orderBy("code").execute();
    await check.destroy();
    expect(left.map((r) => r.code)).toEqual(["FUTURE", "NOEXPIRY", "PERMANENTOLD"]);
  });

  it("the server runs the job shortly after start when the setting is 'true', and logs it", async () => {
    await insertCodes(new Date());
    await saveSetting("enable_auto_cleanup", "true");
    await closeDb();
    const server = await startServer({ DATABASE_FILE: file });
    try {
      await vi.waitFor(() => expect(server.output()).toContain("[cleanup] removed 2 expired temporary code(s)"), {
        timeout: 10_000,
        interval: 50,
      });
      const check = openTestDb(file);
      const left = await check.selectFrom("referral_codes").select("id").execute();
      await check.destroy();
      expect(left).toHaveLength(3);
    } finally {
      await server.stop();
    }
    // It stopped with the server (graceful shutdown went through).
    expect(server.output()).toContain("database closed, bye");
  });
});

describe("partnership order", () => {
  const input = (name: string) => ({
    name,
    url: `https://${name}.example/`,
    logo_url: null,
    description: null,
    display_mode: "both" as const,
    is_active: 1 as const,
  });

  it("gives a new partnership the current list length as display_order", async () => {
    await createPartnership(input("a"));
    await createPartnership(input("b"));
    expect((await listPartnershipsAdmin({ size: 50 })).rows.map((p) => [p.name, p.display_order])).toEqual([
      ["a", 0],
      ["b", 1],
    ]);
  });

  it("moves by exactly one place even when orders are tied, in one transaction", async () => {
    const now = new Date().toISOString();
    await db
      .insertInto("partnerships")
      .values(["x", "y", "z"].map((name) => ({ ...input(name), display_order: 0, created_at: now })))
      .execute();
    const [x, y, z] = (await listPartnershipsAdmin({ size: 50 })).rows;
    expect(await movePartnership(z!.id, "up")).toBe("moved");
    expect((await listPartnershipsAdmin({ size: 50 })).rows.map((p) => p.name)).toEqual(["x", "z", "y"]);
    expect(await movePartnership(x!.id, "up")).toBe("edge");
    expect(await movePartnership(y!.id, "down")).toBe("edge");
    expect(await movePartnership(123456, "down")).toBe("missing");
  });
});

describe("draws per Paris day", () => {
  it("has 30 days ending today, each starting at midnight in Paris, across a DST change", () => {
    const starts = parisDayStarts(30, new Date("2026-03-30T12:00:00.000Z"));
    expect(starts).toHaveLength(30);
    expect(starts.at(-1)).toBe("2026-03-29T22:00:00.000Z"); // 30 March, summer time
    expect(starts.at(-2)).toBe("2026-03-28T23:00:00.000Z"); // 29 March, the 23-hour day
    expect(starts[0]).toBe("2026-02-28T23:00:00.000Z");
  });

  it("counts draws in the Paris day they happened, for all platforms or one", async () => {
    const now = new Date("2026-01-15T12:00:00.000Z");
    const tesla = await teslaId();
    const revolut = (await db.selectFrom("platforms").select("id").where("slug", "=", "revolut").executeTakeFirstOrThrow()).id;
    const draw = (platform_id: number, created_at: string) => ({
      platform_id,
      served_code_id: null,
      served_code: "X",
      created_at,
    });
    await db
      .insertInto("random_requests")
      .values([
        draw(tesla, "2026-01-14T23:30:00.000Z"), // 15 Jan 00:30 in Paris: today
        draw(revolut, "2026-01-15T10:00:00.000Z"), // today
        draw(tesla, "2026-01-14T22:30:00.000Z"), // 14 Jan 23:30 in Paris: yesterday
        draw(tesla, "2025-12-16T23:00:00.000Z"), // 17 Dec 00:00 in Paris: the first day shown
        draw(tesla, "2025-12-16T22:59:59.000Z"), // 16 Dec: outside the 30 days
      ])
      .execute();
    const days = await drawsPerDay(null, now);
    expect(days).toHaveLength(30);
    expect(days.at(-1)).toEqual({ dayStart: "2026-01-14T23:00:00.000Z", count: 2 });
    expect(days.at(-2)!.count).toBe(1);
    expect(days[0]).toEqual({ dayStart: "2025-12-16T23:00:00.000Z", count: 1 });
    expect(days.reduce((s, d) => s + d.count, 0)).toBe(4);
    const teslaDays = await drawsPerDay(tesla, now);
    expect(teslaDays.at(-1)!.count).toBe(1);
    expect(teslaDays.reduce((s, d) => s + d.count, 0)).toBe(3);
  });
});
