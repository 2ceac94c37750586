import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import pg from "pg";
import { closeDb, getDb, type DB } from "~db/client.server";
import { migrateToLatest } from "~db/migrate.server";
import { startPlatformDeletion } from "~db/repositories/platforms.server";
import { clearSettingsCache } from "~db/repositories/settings.server";
import { seedBase } from "~db/seed.server";
import { asSiteLeader } from "~db/site-locks.server";
import { resetEnvCache } from "~/utils/env.server";
import { ADMIN, signInQuietly } from "../support/admin";
import { onPostgres } from "../support/db";
import { fakeAiEnv, startFakeAi, type FakeAi } from "../support/fake-ai";
import { createCode, createPlatform } from "../support/fixtures";
import { createDatabase, startCluster, startReplica, type Cluster, type Replica } from "../support/postgres";
import { cookiesFrom, postForm, startServer, type RunningServer } from "../support/server";
import { startSpreadProxy, type SpreadProxy } from "../support/spread-proxy";

/**
 * Many machines, one truth (decisions 365-369): a PostgreSQL primary, a streaming replica of it
 * (`pg_basebackup -R`), three server processes on them with their caches on (as in production), and
 * a small proxy in front that spreads requests in turn, as Fly's proxy spreads them over a site's VMs.
 * One cluster pair and one set of servers for the whole file: seconds, not minutes.
 */
const DRAW_LIMIT = 10;
const JOB_INTERVAL_SECONDS = 1;
let primary: Cluster;
let replica: Replica;
let db: DB;
let servers: RunningServer[] = [];
let proxy: SpreadProxy;
let fakeAi: FakeAi;
let primaryUrl: string;
let env: Record<string, string>;

describe.runIf(onPostgres)("three processes on a primary and a replica, behind a proxy", () => {
  beforeAll(async () => {
    primary = startCluster();
    primaryUrl = await createDatabase(primary.url("postgres"), "site");
    // Migrations once, before any process serves (what Fly's release_command does).
    await closeDb();
    process.env.DATABASE_URL = primaryUrl;
    resetEnvCache();
    clearSettingsCache();
    db = getDb();
    await migrateToLatest(db);
    await seedBase(db);
    replica = startReplica(primary);
    fakeAi = await startFakeAi();
    env = {
      // The assistant's provider: a local fake speaking its protocol (the assistant's lock test).
      ...fakeAiEnv(fakeAi.url),
      DATABASE_URL: primaryUrl,
      DATABASE_READ_URL: replica.url("site"),
      SESSION_SECRET: process.env.SESSION_SECRET!,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      // The caches as in production: what this file checks is that they agree.
      PAGE_CACHE_MS: "3000",
      READ_CACHE_MS: "5000",
      DRAW_RATE_LIMIT: String(DRAW_LIMIT),
      TRUST_PROXY: "1",
      // An admin's delete answers at once: the test watches the rows go.
      PLATFORM_DELETE_WAIT_MS: "0",
      // The background jobs every second, each run a process leads or skips in its log (the jobs' test).
      JOB_INTERVAL_SECONDS: String(JOB_INTERVAL_SECONDS),
      LOG_JOB_RUNS: "1",
    };
    servers = await Promise.all([startServer(env), startServer(env), startServer(env)]);
    proxy = await startSpreadProxy(servers.map((s) => s.url));
  }, 120_000);

  afterAll(async () => {
    await proxy?.close();
    await Promise.all(servers.map((s) => s.stop()));
    await closeDb();
    await fakeAi?.stop();
    replica?.stop();
    primary?.stop();
  });

  it("a platform deactivated through one process is gone from every other one's pages, JSON and sitemap within 1 s", async () => {
    const p = await createPlatform(db, { slug: "spreadplat", name: "Spreadplat" });
    await createCode(db, p.id, { code: "SPREAD1" });
    const [a, ...others] = servers as [RunningServer, ...RunningServer[]];
    const shown = async (server: RunningServer) => {
      const [list, json, sitemap, page] = await Promise.all([
        fetch(`${server.url}/platforms`).then((r) => r.text()),
        fetch(`${server.url}/api/platforms.json`).then((r) => r.text()),
        fetch(`${server.url}/sitemap.xml`).then((r) => r.text()),
        fetch(`${server.url}/spreadplat`, { redirect: "manual" }).then((r) => r.status),
      ]);
      return {
        list: list.includes("Spreadplat"),
        json: json.includes("spreadplat"),
        sitemap: sitemap.includes("/spreadplat"),
        page,
      };
    };
    // Every process has the platform in its caches (the anonymous page cache, the read cache).
    await expect
      .poll(async () => Promise.all(servers.map(shown)), { timeout: 10_000 })
      .toEqual(servers.map(() => ({ list: true, json: true, sitemap: true, page: 200 })));
    const cookie = await signInQuietly(a);
    const done = await postForm(`${a.url}/admin/platforms`, { intent: "toggle-active", id: String(p.id) }, { cookie });
    expect(done.status).toBe(303);
    const changedAt = Date.now();
    // Per process, when the first look that found it gone everywhere began (the look itself takes
    // a few renders on a busy machine).
    const gone = await Promise.all(
      others.map(async (server) => {
        for (;;) {
          const lookedAt = Date.now();
          const now = await shown(server);
          if (!now.list && !now.json && !now.sitemap && now.page !== 200) return lookedAt - changedAt;
          if (Date.now() - changedAt > 5_000) return Infinity;
          await new Promise((r) => setTimeout(r, 25));
        }
      }),
    );
    expect(Math.max(...gone), `ms until gone on each other process: ${gone.join(", ")}`).toBeLessThanOrEqual(1_000);
  });

  it("one address's draws stop at DRAW_RATE_LIMIT across all three processes", async () => {
    const p = await createPlatform(db);
    for (let i = 0; i < 3; i++) await createCode(db, p.id, { code: `LIMIT${i}` });
    const headers = { "Fly-Client-IP": "198.51.100.7" };
    const statuses: number[] = [];
    for (let i = 0; i < 3 * DRAW_LIMIT; i++)
      statuses.push((await postForm(`${proxy.url}/${p.slug}/get-code`, { intent: "draw" }, { headers })).status);
    expect(
      statuses.filter((s) => s === 303),
      statuses.join(","),
    ).toHaveLength(DRAW_LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(2 * DRAW_LIMIT);
  });

  it("300 draws spread over the three processes leave a spread of at most 1", async () => {
    const p = await createPlatform(db);
    for (let i = 0; i < 7; i++) await createCode(db, p.id, { code: `EVEN${i}` });
    const before = [...proxy.served];
    // Ten visitors at a time, each from an address of its own (the per-address limit is another check).
    for (let round = 0; round < 30; round++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          postForm(
            `${proxy.url}/${p.slug}/get-code`,
            { intent: "draw" },
            { headers: { "Fly-Client-IP": `198.18.${round}.${i + 1}` } },
          ),
        ),
      );
      expect(answers.map((r) => r.status)).toEqual(Array.from({ length: 10 }, () => 303));
    }
    expect(proxy.served.map((n, i) => n - before[i]!)).toEqual([100, 100, 100]);
    const counts = (await db.selectFrom("referral_codes").select("times_served").where("platform_id", "=", p.id).execute()).map(
      (r) => r.times_served,
    );
    expect(counts.reduce((x, y) => x + y, 0)).toBe(300);
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
  });

  it("a platform deletion runs on one process, in batches, to the end", async () => {
    const p = await createPlatform(db, { name: "Deletedplat" });
    const code = await createCode(db, p.id);
    const draws = 40_000;
    await sql`insert into random_requests (platform_id, served_code_id, served_code, created_at)
      select ${p.id}, ${code.id}, ${code.code}, ${new Date().toISOString()} from generate_series(1, ${draws})`.execute(db);
    const rowsLeft = async () =>
      Number(
        (await sql<{ n: number }>`select count(*) as n from random_requests where platform_id = ${p.id}`.execute(db)).rows[0]!.n,
      );
    // Each process's admin asks for it, all three at once: one runner works, the others leave it to it.
    const cookies = await Promise.all(servers.map((s) => signInQuietly(s)));
    const asking = Promise.all(
      servers.map((s, i) =>
        postForm(`${s.url}/admin/platforms`, { intent: "delete", id: String(p.id), confirm: "yes" }, { cookie: cookies[i] }),
      ),
    );
    // Part of the rows gone while the platform's row is still there: batches, not one cascade.
    let seenHalfWay = false;
    for (;;) {
      const left = await rowsLeft();
      const row = await db.selectFrom("platforms").select("id").where("id", "=", p.id).executeTakeFirst();
      if (row && left > 0 && left < draws) seenHalfWay = true;
      if (!row) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    expect((await asking).map((r) => r.status)).toEqual([303, 303, 303]);
    expect(await rowsLeft()).toBe(0);
    expect(seenHalfWay).toBe(true);
    // The runner logs once its logos are gone too, a moment after the row.
    const finished = () => servers.filter((s) => s.output().includes(`[platforms] deleted "Deletedplat"`)).length;
    await expect.poll(finished, { timeout: 5_000 }).toBe(1);
    await new Promise((r) => setTimeout(r, 500));
    expect(finished()).toBe(1);
    expect(servers.map((s) => s.output()).join("\n")).not.toContain("deletion stopped");
  }, 60_000);

  it("a job runs on one process at a time: while one leads it, another's run is skipped, and the next run leads again", async () => {
    // Two runs at once on two connections, as two processes' timers would fire together. A lock no
    // server's timer takes: theirs run every second in this file (the next test).
    let release!: () => void;
    const running = new Promise<void>((resolve) => (release = resolve));
    const first = asSiteLeader("job:scale-out-test", () => running.then(() => "first"));
    await new Promise((r) => setTimeout(r, 100));
    expect(await asSiteLeader("job:scale-out-test", async () => "second")).toEqual({ led: false });
    release();
    expect(await first).toEqual({ led: true, value: "first" });
    expect(await asSiteLeader("job:scale-out-test", async () => "third")).toEqual({ led: true, value: "third" });
  });

  it("the servers' own timers run each job on one process at a time: the runs the three log never overlap", async () => {
    const JOBS = ["cleanup", "history", "retention", "platforms"];
    const from = servers.map((s) => s.output().length);
    const now = Date.now();
    const daysAgo = (days: number) => new Date(now - days * 86_400_000).toISOString();
    // Work for each job, each written in one statement (a run sees all of it or none):
    // - cleanup: 12,000 expired temporary codes, 50 a transaction with a 5 ms pause between: a run
    //   of more than 1.2 s, longer than an interval, so the other processes' timers fire during it;
    const expiring = await createPlatform(db);
    const EXPIRED = 12_000;
    await sql`insert into referral_codes (platform_id, code, is_permanent, expires_at, created_at)
      select ${expiring.id}, 'EXP' || g, 0, ${daysAgo(1)}, ${daysAgo(2)} from generate_series(1, ${EXPIRED}) g`.execute(db);
    // - history: 10,000 draws past the 30 days raw draws are kept;
    const drawn = await createPlatform(db);
    const code = await createCode(db, drawn.id);
    await sql`insert into random_requests (platform_id, served_code_id, served_code, created_at)
      select ${drawn.id}, ${code.id}, ${code.code}, ${daysAgo(40)} from generate_series(1, 10000)`.execute(db);
    // - retention: 5,000 deleted codes' histories past the year they are kept;
    await sql`insert into code_history (code_key, platform_id, rotation_count, times_served, deleted_at)
      select 'old-key-' || g, ${drawn.id}, 1, 1, ${daysAgo(400)} from generate_series(1, 5000) g`.execute(db);
    // - platform deletions: a platform marked for deletion, with 10,000 draws (no admin's request starts it).
    const deleted = await createPlatform(db, { name: "Timerdeleted" });
    const deletedCode = await createCode(db, deleted.id);
    await sql`insert into random_requests (platform_id, served_code_id, served_code, created_at)
      select ${deleted.id}, ${deletedCode.id}, ${deletedCode.code}, ${new Date(now).toISOString()} from generate_series(1, 10000)`.execute(
      db,
    );
    await startPlatformDeletion(deleted.id, new Date(now), db);
    await db.updateTable("settings").set({ value: "true" }).where("key", "=", "enable_auto_cleanup").execute();
    const count = async (query: ReturnType<typeof sql<{ n: number }>>) => Number((await query.execute(db)).rows[0]!.n);
    const left = async () => [
      await count(sql<{ n: number }>`select count(*) as n from referral_codes where platform_id = ${expiring.id}`),
      await count(sql<{ n: number }>`select count(*) as n from random_requests where platform_id = ${drawn.id}`),
      await count(sql<{ n: number }>`select count(*) as n from code_history where code_key like 'old-key-%'`),
      await count(sql<{ n: number }>`select count(*) as n from platforms where id = ${deleted.id}`),
    ];
    try {
      await expect.poll(left, { timeout: 60_000, interval: 200 }).toEqual([0, 0, 0, 0]);
    } finally {
      await db.updateTable("settings").set({ value: "false" }).where("key", "=", "enable_auto_cleanup").execute();
    }
    // Each job's next runs, once the work is done.
    await new Promise((r) => setTimeout(r, 2_000 * JOB_INTERVAL_SECONDS));
    const logged = servers.map((s, i) => s.output().slice(from[i]));
    const runs = logged.flatMap((out, server) =>
      [...out.matchAll(/\[jobs\] (\w+) ran from (\S+) to (\S+)$/gm)].map((m) => ({
        job: m[1]!,
        server,
        start: m[2]!,
        end: m[3]!,
      })),
    );
    for (const job of JOBS) {
      const ofJob = runs.filter((r) => r.job === job).sort((a, b) => a.start.localeCompare(b.start));
      expect(ofJob.length, `${job}'s runs`).toBeGreaterThan(0);
      // One after the other across the three: each run starts once the one before it has ended.
      for (let k = 1; k < ofJob.length; k++)
        expect(
          ofJob[k]!.start >= ofJob[k - 1]!.end,
          `${job}: ${JSON.stringify(ofJob[k - 1])} then ${JSON.stringify(ofJob[k])}`,
        ).toBe(true);
    }
    // The timers did fire on the others while one led: some runs were turned away (the clean-up's
    // run alone lasts longer than an interval).
    expect(logged.join("\n")).toMatch(/\[jobs\] cleanup skipped: another process is running it$/m);
    // The expired codes went in one run, on one process.
    const removed = [...logged.join("\n").matchAll(/\[cleanup\] removed (\d+) expired/gm)]
      .map((m) => Number(m[1]))
      .filter((n) => n > 0);
    expect(removed).toEqual([EXPIRED]);
    // No job's own lock ever turned a run away half way (the clean-up's and the history's, decision 367).
    expect(logged.join("\n")).not.toMatch(/\[cleanup\] skipped|another process is running it\)/m);
  }, 120_000);

  it("an assistant exchange runs on one process: the same conversation sent through another is refused while it runs", async () => {
    const [a, b] = servers as [RunningServer, RunningServer];
    const cookie = await signInQuietly(a);
    const send = (server: RunningServer, message: string, conversation = "") =>
      postForm(
        `${server.url}/admin/assistant`,
        { intent: "send", provider: "anthropic", conversation_id: conversation, message },
        { cookie },
      );
    const started = await send(a, "base");
    expect(started.status).toBe(303);
    const id = /^\/admin\/assistant\/(\d+)$/.exec(started.headers.get("location") ?? "")?.[1];
    expect(id).toBeDefined();
    fakeAi.script({ kind: "stall", text: "..." });
    const first = send(a, "slow answer", id);
    await fakeAi.received((seen) => seen.lastUserText === "slow answer");
    // Process B's own in-memory set knows nothing of A's exchange: the site's lock turns it away.
    expect((await send(b, "impatient", id)).status).toBe(409);
    expect(fakeAi.requests.some((seen) => seen.lastUserText === "impatient")).toBe(false);
    // A's exchange ends (its provider's call times out: AI_REQUEST_TIMEOUT_MS), and lets go.
    expect((await first).status).toBe(502);
    expect((await send(b, "after", id)).status).toBe(303);
  });

  it("a visitor sees their own submit at once, through another process, while public reads come from the replica", async () => {
    const p = await createPlatform(db, { slug: "ownplat", name: "Ownplat" });
    await createCode(db, p.id, { code: "OTHER1" });
    // Public pages read through every process: the read cache's reads go to the replica.
    // Written here, by no server: the servers see it once the replica has it (a script's writes are
    // not announced).
    await expect
      .poll(async () => Promise.all(servers.map(async (s) => (await fetch(`${s.url}/ownplat`)).status)), { timeout: 10_000 })
      .toEqual([200, 200, 200]);
    for (let i = 0; i < 6; i++) expect((await fetch(`${proxy.url}/ownplat`)).status).toBe(200);
    const standby = new pg.Client({ connectionString: replica.url("site") });
    await standby.connect();
    try {
      const { rows } = await standby.query<{ n: number }>(
        "select count(*)::int as n from pg_stat_activity where datname = 'site' and backend_type = 'client backend' and pid <> pg_backend_pid()",
      );
      expect(rows[0]!.n).toBeGreaterThan(0);
    } finally {
      await standby.end();
    }
    const headers = { "Fly-Client-IP": "192.0.2.44" };
    const res = await postForm(`${proxy.url}/submit`, { intent: "submit", platform: "ownplat", code: "MINE4242" }, { headers });
    expect(res.status).toBe(303);
    const cookie = cookiesFrom(res);
    // The thank-you page and the owner's page, each from the next process in turn, at once.
    const thanks = await (
      await fetch(`${proxy.url}${res.headers.get("location")}`, { headers: { Cookie: cookie, ...headers } })
    ).text();
    const owner = /<a href="https?:\/\/[^/"]+(\/my-code\/[\w-]+)" data-testid="owner-link"/.exec(thanks)?.[1];
    expect(owner, thanks.slice(0, 300)).toBeDefined();
    const page = await fetch(`${proxy.url}${owner}`, { headers });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("MINE4242");
  });

  it("with the replica stopped, every page keeps working from the primary", async () => {
    replica.halt();
    for (const path of ["/", "/platforms", "/ownplat", "/api/platforms.json", "/sitemap.xml", "/fairness"])
      for (let i = 0; i < 3; i++) {
        const started = Date.now();
        const res = await fetch(`${proxy.url}${path}?after-replica=${i}`);
        expect(res.status, path).toBe(200);
        expect(Date.now() - started, path).toBeLessThan(3_000);
      }
    expect(servers.map((s) => s.output()).join("\n")).not.toMatch(/Unhandled|TypeError/);
  });

  it("a VM of the older release keeps serving beside a newer release's additive migrations, and refuses any other", async () => {
    const now = new Date().toISOString();
    await sql`insert into kysely_migration (name, timestamp) values ('9999_future_table_additive', ${now})`.execute(db);
    const older = await startServer(env);
    try {
      expect(older.output()).toContain("newer additive migrations (9999_future_table_additive)");
      expect((await fetch(`${older.url}/platforms`)).status).toBe(200);
    } finally {
      await older.stop();
    }
    await sql`insert into kysely_migration (name, timestamp) values ('9999_future_rewrite', ${now})`.execute(db);
    try {
      await expect(startServer(env)).rejects.toThrow(/written by a newer version of Parrainly.*9999_future_rewrite/);
    } finally {
      await sql`delete from kysely_migration where name like '9999_%'`.execute(db);
    }
  });
});
