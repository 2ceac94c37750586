import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { deleteExpiredTemporaryCodesOnce } from "~db/repositories/code-cleanup.server";
import { saveSetting } from "~db/repositories/settings.server";
import { onPostgres, useFreshDatabase, type DB } from "../support/db";
import { createCode, createPlatform } from "../support/fixtures";
import { postForm, startServer, type RunningServer } from "../support/server";

/**
 * Several server processes on one database: what PostgreSQL deployments run (two VMs behind Fly's
 * proxy). The draw checks run on both passes (two processes can share a SQLite file too); the
 * LISTEN/NOTIFY and advisory-lock checks are PostgreSQL's.
 */
let db: DB;
let file: string;
let servers: RunningServer[] = [];
beforeEach(async () => {
  ({ db, file } = await useFreshDatabase());
});
afterEach(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  servers = [];
});

async function twoServers() {
  servers = await Promise.all([startServer({ DATABASE_FILE: file }), startServer({ DATABASE_FILE: file })]);
  return servers;
}

describe("two server processes on one database", () => {
  it("50 concurrent draws split across both stay fair (spread at most 1) with one log row per serve", async () => {
    const [a, b] = await twoServers();
    const p = await createPlatform(db);
    for (let i = 0; i < 7; i++) await createCode(db, p.id, { code: `MULTI${i}` });
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => postForm(`${(i % 2 ? a : b)!.url}/${p.slug}/get-code/draw`, { intent: "draw" })),
    );
    expect(answers.map((r) => r.status)).toEqual(Array.from({ length: 50 }, () => 303));
    const counts = (await db.selectFrom("referral_codes").select("times_served").where("platform_id", "=", p.id).execute()).map(
      (r) => r.times_served,
    );
    expect(counts.reduce((x, y) => x + y, 0)).toBe(50);
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
    const logged = await db
      .selectFrom("random_requests")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("platform_id", "=", p.id)
      .executeTakeFirstOrThrow();
    expect(Number(logged.n)).toBe(50);
  });

  it.runIf(onPostgres)("a setting saved by another process reaches each server's live settings stream", async () => {
    const [a, b] = await twoServers();
    const streams = await Promise.all([a!, b!].map((s) => readEvents(`${s.url}/events/settings`)));
    try {
      // This test process is a third process on the database, as an admin's request on another VM is.
      await saveSetting("enable_theme_toggle", "false");
      for (const stream of streams) {
        await expect(stream.waitFor(/event: setting\ndata: \{"key":"enable_theme_toggle","value":"false"\}/)).resolves.toBe(true);
      }
    } finally {
      streams.forEach((s) => s.close());
    }
  });

  it.runIf(onPostgres)(
    "rate-limit windows are shared: 30 game starts per address across both servers, then 429 from either",
    async () => {
      const [a, b] = await twoServers();
      const start = (server: RunningServer) => postForm(`${server.url}/game/start`, { device_type: "desktop" });
      for (let i = 0; i < 30; i++) expect((await start(i % 2 ? a! : b!)).status).toBe(200);
      expect((await start(a!)).status).toBe(429);
      const refused = await start(b!);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    },
  );

  it.runIf(onPostgres)("the cleanup pass runs in one process at a time: taken elsewhere, it skips", async () => {
    const p = await createPlatform(db);
    await createCode(db, p.id, { code: "OLD1", expires_at: new Date(Date.now() - 86_400_000).toISOString() });
    let skipped: number | null | undefined;
    await db.transaction().execute(async (trx) => {
      // Another process in the middle of its pass holds the lock.
      await sql`select pg_advisory_xact_lock(1902, 1)`.execute(trx);
      skipped = await deleteExpiredTemporaryCodesOnce();
    });
    expect(skipped).toBeNull();
    expect(await db.selectFrom("referral_codes").select("code").where("code", "=", "OLD1").execute()).toHaveLength(1);
    expect(await deleteExpiredTemporaryCodesOnce()).toBe(1);
  });
});

/** A server-sent events stream read as text; waitFor resolves true once a pattern shows (false after 5 s). */
async function readEvents(url: string) {
  const controller = new AbortController();
  const res = await fetch(url, { signal: controller.signal });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const reading = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        text += decoder.decode(value, { stream: true });
      }
    } catch {
      // aborted
    }
  })();
  return {
    waitFor: async (pattern: RegExp) => {
      const deadline = Date.now() + 5_000;
      while (!pattern.test(text) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      return pattern.test(text);
    },
    close: () => {
      controller.abort();
      void reading;
    },
  };
}
