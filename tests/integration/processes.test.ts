import crypto from "node:crypto";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { deleteExpiredTemporaryCodesOnce } from "~db/repositories/code-cleanup.server";
import { saveSetting } from "~db/repositories/settings.server";
import { createGameSession } from "~/features/game/session.server";
import { ADMIN, signInAsAdmin } from "../support/admin";
import { onPostgres, useFreshDatabase, type DB } from "../support/db";
import { createCode, createPlatform } from "../support/fixtures";
import { postForm, startServer, type RunningServer } from "../support/server";

/**
 * Several server processes on one database: what PostgreSQL deployments run (two VMs behind Fly's
 * proxy). The draw, vote and score checks run on both passes (two processes can share a SQLite file too); the
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

async function twoServers(extra: Record<string, string> = {}) {
  // This process's secret: a test can sign a game session the servers accept (see game.test.ts).
  const env = { DATABASE_FILE: file, SESSION_SECRET: process.env.SESSION_SECRET!, ...extra };
  servers = await Promise.all([startServer(env), startServer(env)]);
  return servers;
}

const countOf = async (table: "game_scores" | "game_sessions_used" | "platform_suggestion_votes") =>
  Number(
    (
      await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe("two server processes on one database", () => {
  it("50 concurrent draws split across both stay fair (spread at most 1) with one log row per serve", async () => {
    const [a, b] = await twoServers();
    const p = await createPlatform(db);
    for (let i = 0; i < 7; i++) await createCode(db, p.id, { code: `MULTI${i}` });
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => postForm(`${(i % 2 ? a : b)!.url}/${p.slug}/get-code`, { intent: "draw" })),
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

  it("one vote per voter: 20 parallel votes of one visitor split across both servers count once", async () => {
    const [a, b] = await twoServers();
    const { id } = await db
      .insertInto("platform_suggestions")
      .values({ name: "Votable", normalized_name: "votable", created_at: new Date().toISOString() })
      .returning("id")
      .executeTakeFirstOrThrow();
    // The visitor's client_id cookie (its first vote set it), honoured by both servers.
    const cookie = `client_id=${crypto.randomUUID()}`;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        postForm(`${(i % 2 ? a : b)!.url}/suggest-platform`, { intent: "vote", suggestion_id: String(id) }, { cookie }),
      ),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 303)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    const row = await db.selectFrom("platform_suggestions").select("votes_count").where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.votes_count).toBe(1);
    expect(await countOf("platform_suggestion_votes")).toBe(1);
  });

  it("one score per game session: 10 parallel sends of one token split across both servers store it once", async () => {
    const [a, b] = await twoServers({ TRUST_PROXY: "1" });
    const token = createGameSession("desktop", Date.now() - 61_000);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        postForm(
          `${(i % 2 ? a : b)!.url}/game/scores`,
          {
            token,
            player_name: `Racer${i}`,
            score: "0",
            collected_at: "",
            device_type: "desktop",
          },
          // Each from its own address: one board entry a day per network is another rule (decision 316).
          { headers: { "Fly-Client-IP": `203.0.113.${i + 1}` } },
        ),
      ),
    );
    const statuses = answers.map((r) => r.status);
    expect(
      statuses.filter((s) => s === 201),
      JSON.stringify(statuses),
    ).toHaveLength(1);
    expect(
      statuses.filter((s) => s === 409),
      JSON.stringify(statuses),
    ).toHaveLength(9);
    expect(await countOf("game_scores")).toBe(1);
    expect(await countOf("game_sessions_used")).toBe(1);
  });

  it("a logo uploaded through one server is served by the other (each has its own UPLOADS_DIR)", async () => {
    const [a, b] = await twoServers({ ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
    const p = await createPlatform(db);
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(40, 7)]);
    const body = new FormData();
    for (const [k, v] of Object.entries({ intent: "upload-logo", id: String(p.id), variant: "light" })) body.set(k, v);
    body.set("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "logo.png");
    const uploaded = await fetch(`${a!.url}/admin/platforms`, {
      method: "POST",
      body,
      redirect: "manual",
      headers: { Cookie: await signInAsAdmin(a!), Origin: a!.url },
    });
    expect(uploaded.status).toBe(303);
    const { custom_logo_light_url: url } = await db
      .selectFrom("platforms")
      .select("custom_logo_light_url")
      .where("id", "=", p.id)
      .executeTakeFirstOrThrow();
    const served = await fetch(`${b!.url}${url}`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(Buffer.from(await served.arrayBuffer())).toEqual(png);
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
