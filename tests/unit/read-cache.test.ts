import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cachedRead, keptReads, noteStatement, noteWrite, resetReadCache } from "~db/read-cache.server";

/** A read that counts its runs and returns its run number. */
function counter() {
  let runs = 0;
  return { read: () => Promise.resolve({ run: ++runs }), runs: () => runs };
}

beforeEach(() => {
  process.env.READ_CACHE_MS = "5000";
  resetReadCache();
});
afterEach(() => {
  delete process.env.READ_CACHE_MS;
  resetReadCache();
});

describe("cachedRead", () => {
  it("reads once while nothing changed, again once its lifetime is over", async () => {
    const c = counter();
    expect(await cachedRead("k", "activity", c.read, 1_000)).toEqual({ run: 1 });
    expect(await cachedRead("k", "activity", c.read, 5_999)).toEqual({ run: 1 });
    expect(await cachedRead("k", "activity", c.read, 6_000)).toEqual({ run: 2 });
  });

  it("READ_CACHE_MS=0 reads every time", async () => {
    process.env.READ_CACHE_MS = "0";
    resetReadCache();
    const c = counter();
    await cachedRead("k", "catalogue", c.read);
    await cachedRead("k", "catalogue", c.read);
    expect(c.runs()).toBe(2);
    expect(keptReads()).toBe(0);
  });

  it("concurrent misses share one read; a failed read is not kept", async () => {
    const c = counter();
    const [a, b] = await Promise.all([cachedRead("k", "activity", c.read), cachedRead("k", "activity", c.read)]);
    expect(a).toBe(b);
    expect(c.runs()).toBe(1);
    await expect(cachedRead("bad", "activity", () => Promise.reject(new Error("down")))).rejects.toThrow("down");
    await Promise.resolve();
    expect(await cachedRead("bad", "activity", c.read)).toEqual({ run: 2 });
  });

  it("values are frozen: a loader cannot change what the next visitor gets", async () => {
    const value = await cachedRead("k", "catalogue", () => Promise.resolve([{ name: "Tesla", nested: { n: 1 } }]));
    expect(Object.isFrozen(value)).toBe(true);
    expect(Object.isFrozen(value[0])).toBe(true);
    expect(Object.isFrozen(value[0]!.nested)).toBe(true);
  });

  it("is bounded: past 1,000 keys the least recently used goes first", async () => {
    const c = counter();
    await cachedRead("first", "catalogue", c.read);
    for (let i = 0; i < 999; i++) await cachedRead(`k${i}`, "catalogue", () => Promise.resolve(i));
    await cachedRead("first", "catalogue", c.read); // used again: now the most recent
    await cachedRead("one-more", "catalogue", () => Promise.resolve(0));
    expect(keptReads()).toBe(1_000);
    expect(await cachedRead("first", "catalogue", c.read)).toEqual({ run: 1 });
    await cachedRead("k0", "catalogue", c.read); // k0 was the oldest: dropped, read again
    expect(c.runs()).toBe(2);
  });
});

describe("what a write drops", () => {
  /** Whether each kind of read is read again after `sql` ran. */
  async function afterStatement(sql: string) {
    resetReadCache();
    const catalogue = counter();
    const activity = counter();
    await cachedRead("c", "catalogue", catalogue.read);
    await cachedRead("a", "activity", activity.read);
    noteStatement(sql);
    await cachedRead("c", "catalogue", catalogue.read);
    await cachedRead("a", "activity", activity.read);
    return { catalogue: catalogue.runs() === 2, activity: activity.runs() === 2 };
  }

  it("a select drops nothing, nor a `with … select`", async () => {
    expect(await afterStatement(`select * from "platforms" where "slug" = ?`)).toEqual({ catalogue: false, activity: false });
    expect(await afterStatement(`with "recent" as (select 1) select * from "recent"`)).toEqual({
      catalogue: false,
      activity: false,
    });
    expect(await afterStatement(`select "id" from "referral_codes" for update skip locked`)).toEqual({
      catalogue: false,
      activity: false,
    });
    // A transaction's own statements: what it wrote says what it dropped (decision 296).
    for (const control of [
      "begin",
      "begin immediate",
      "commit",
      "rollback",
      `savepoint "sp1"`,
      `rollback to savepoint "sp1"`,
      `release savepoint "sp1"`,
    ])
      expect(await afterStatement(control), control).toEqual({ catalogue: false, activity: false });
  });

  it("a write to a catalogue table drops both; to another table only the activity reads", async () => {
    expect(await afterStatement(`update "platforms" set "name" = ? where "id" = ?`)).toEqual({ catalogue: true, activity: true });
    expect(
      await afterStatement(`insert into "platform_offers" ("platform_id") values (?) on conflict do update set "x" = 1`),
    ).toEqual({
      catalogue: true,
      activity: true,
    });
    expect(await afterStatement(`insert into "referral_codes" ("code") values (?)`)).toEqual({
      catalogue: false,
      activity: true,
    });
    expect(await afterStatement(`update "referral_codes" set "times_served" = 1`)).toEqual({ catalogue: false, activity: true });
  });

  it("a delete drops what its table may hold (a catalogue table: both; another: the activity reads)", async () => {
    expect(await afterStatement(`delete from "code_reports" where "id" = ?`)).toEqual({ catalogue: false, activity: true });
    expect(await afterStatement(`delete from "game_sessions_used" where "expires_at" < ?`)).toEqual({
      catalogue: false,
      activity: true,
    });
    expect(await afterStatement(`delete from "platforms" where "id" = ?`)).toEqual({ catalogue: true, activity: true });
  });

  it("a write inside a `with` counts for every table it names; a statement it cannot name drops both", async () => {
    expect(await afterStatement(`with "x" as (select 1) insert into "code_reports" select * from "x"`)).toEqual({
      catalogue: false,
      activity: true,
    });
    expect(await afterStatement(`with "x" as (delete from "platforms" returning id) select * from "x"`)).toEqual({
      catalogue: true,
      activity: true,
    });
    expect(
      await afterStatement(`with "x" as (delete from "code_reports" returning id) update "partnerships" set "x" = 1`),
    ).toEqual({ catalogue: true, activity: true });
    expect(await afterStatement(`alter table "platforms" add column "x" text`)).toEqual({ catalogue: true, activity: true });
  });

  it("noteWrite without tables (a PostgreSQL commit) drops both; with the draw's tables, the activity reads", async () => {
    await cachedRead("c", "catalogue", () => Promise.resolve(1));
    noteWrite("referral_codes", "random_requests");
    expect(await cachedRead("c", "catalogue", () => Promise.resolve(2))).toBe(1);
    noteWrite();
    expect(await cachedRead("c", "catalogue", () => Promise.resolve(3))).toBe(3);
  });

  it("a write during a read leaves its value outdated (the versions are taken before reading)", async () => {
    let release!: () => void;
    const slow = new Promise<number>((resolve) => (release = () => resolve(1)));
    const pending = cachedRead("k", "activity", () => slow);
    noteStatement(`insert into "code_reports" ("x") values (?)`);
    release();
    expect(await pending).toBe(1);
    expect(await cachedRead("k", "activity", () => Promise.resolve(2))).toBe(2);
  });

  it("a published read stays a minute through draws and answers; a catalogue write or its minute drops it", async () => {
    const c = counter();
    expect(await cachedRead("p", "published", c.read, 1_000)).toEqual({ run: 1 });
    // A draw and an answer (the draw's own statements), well past READ_CACHE_MS's 5 s.
    noteWrite("random_requests", "referral_codes");
    noteStatement('insert into "code_reports" ("outcome") values (?)');
    expect(await cachedRead("p", "published", c.read, 30_000)).toEqual({ run: 1 });
    expect(await cachedRead("p", "published", c.read, 61_000)).toEqual({ run: 2 });
    // An admin's edit of an offer: the next read is fresh.
    noteStatement('update "platform_offers" set "offer_referee" = ?');
    expect(await cachedRead("p", "published", c.read, 62_000)).toEqual({ run: 3 });
  });
});
