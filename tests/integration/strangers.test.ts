import crypto from "node:crypto";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decode } from "turbo-stream";
import { spawnTimes } from "~/features/game/rules";
import { createGameSession } from "~/features/game/session.server";
import type { Database } from "~db/schema";
import { signInAsAdmin, startServerWithAdmin } from "../support/admin";
import { createCode, createPlatform, openTestDb } from "../support/fixtures";
import { cookiesFrom, postForm, type RunningServer } from "../support/server";

/**
 * Issue 56: what a stranger with modest means (3-20 addresses, one IPv6 /48, a script) can no
 * longer turn against sharers, one describe per row of its table, over HTTP against the built
 * server (TRUST_PROXY=1: each simulated client picks its address with Fly-Client-IP).
 */

let server: RunningServer;
let db: Kysely<Database>;
beforeAll(async () => {
  // LOG_REQUESTS: the request log is on, as in production, so row 6 reads it.
  server = await startServerWithAdmin({ TRUST_PROXY: "1", SESSION_SECRET: process.env.SESSION_SECRET!, LOG_REQUESTS: "1" });
  db = openTestDb(server.dbFile);
});
afterAll(async () => {
  await db?.destroy();
  await server?.stop();
});

let lastNetwork = 0;
/** A fresh IPv6 /48; its /64s by number. */
const slash48 = () => {
  const prefix = `2001:db8:${(++lastNetwork).toString(16)}`;
  return (n: number) => `${prefix}:${n.toString(16)}::${(n * 7 + 1).toString(16)}`;
};
/** An address in an IPv4 /24 of its own. */
const freshV4 = () => `${20 + Math.floor(++lastNetwork / 250)}.77.${lastNetwork % 250}.9`;
const from = (ip: string, cookie = "") => ({ headers: { "Fly-Client-IP": ip, ...(cookie ? { Cookie: cookie } : {}) } });

type Drawn = { page: string; location: string; token: string; cookie: string };

/** A draw on a platform's page (or /random), with the cookie the browser keeps. */
async function draw(slug: string | null, ip: string, cookie = ""): Promise<Drawn> {
  const page = slug ? `/${slug}/get-code` : "/random";
  const res = await postForm(`${server.url}${page}`, { intent: "draw" }, from(ip, cookie));
  expect(res.status).toBe(303);
  const location = res.headers.get("location")!;
  return { page, location, token: new URL(location, server.url).searchParams.get("draw")!, cookie: cookiesFrom(res, cookie) };
}

function answer(d: Drawn, ip: string, fields: Record<string, string>, page = d.page, cookie = d.cookie) {
  return postForm(`${server.url}${page}`, { intent: "report", draw: d.token, ...fields }, from(ip, cookie));
}

const reportCount = async () =>
  Number(
    (
      await db
        .selectFrom("code_reports")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );
const codeRow = (id: number) => db.selectFrom("referral_codes").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

describe("1. failures count drawing networks: one /48 (or /24) cannot pause or cap a code", () => {
  it("draws and 'failed' answers from three /64s of one /48: the code stays in; three /48s pause it", async () => {
    const p = await createPlatform(db);
    const target = await createCode(db, p.id, { code: "VICTIM01" });
    const net = slash48();
    for (let i = 1; i <= 6; i++) {
      const d = await draw(p.slug, net(i % 3));
      expect((await answer(d, net(i % 3), { outcome: "failed", reason: "expired" })).status).toBe(303);
    }
    expect(await codeRow(target.id)).toMatchObject({ is_active: 1, paused_reason: null });

    // The same from three networks (a test that can fail): paused at once, the draw skips it.
    const q = await createPlatform(db);
    const control = await createCode(db, q.id, { code: "CONTROL1" });
    for (let i = 0; i < 3; i++) {
      const ip = slash48()(1);
      const d = await draw(q.slug, ip);
      expect((await answer(d, ip, { outcome: "failed", reason: "expired" })).status).toBe(303);
    }
    expect(await codeRow(control.id)).toMatchObject({ is_active: 0, paused_reason: "reports" });
  });

  it("'limit reached' from three addresses of one IPv4 /24 or three /64s of one /48: never capped", async () => {
    const p = await createPlatform(db);
    const code = await createCode(db, p.id, { code: "CAPME001" });
    const net = slash48();
    const v4 = freshV4().replace(/\.9$/, "");
    for (const ip of [net(1), net(2), net(3), `${v4}.10`, `${v4}.11`, `${v4}.12`]) {
      const d = await draw(p.slug, ip);
      expect((await answer(d, ip, { outcome: "failed", reason: "limit-reached" })).status).toBe(303);
    }
    expect((await codeRow(code.id)).capped_until).toBeNull();
  });

  it("the answering address does not count: draws from one /48 answered from three networks change nothing", async () => {
    const p = await createPlatform(db);
    const code = await createCode(db, p.id, { code: "HOPPER01" });
    const net = slash48();
    for (let i = 0; i < 3; i++) {
      const d = await draw(p.slug, net(i));
      expect((await answer(d, freshV4(), { outcome: "failed" })).status).toBe(303);
    }
    expect((await codeRow(code.id)).is_active).toBe(1);
  });

  it("'worked' answers from the code's own network are kept but never hold it in", async () => {
    const p = await createPlatform(db);
    const owner = slash48();
    const submitted = await postForm(
      `${server.url}/submit`,
      { intent: "submit", platform: p.slug, code: "OWNWORK1" },
      from(owner(1)),
    );
    expect(submitted.status).toBe(303);
    const code = await db.selectFrom("referral_codes").selectAll().where("platform_id", "=", p.id).executeTakeFirstOrThrow();
    expect(code.owner_network_hash).toBeTruthy();
    // Seven "worked" from the owner's /48 (other /64s): 3 failures of 10 would be 30 %, under the edge.
    for (let i = 2; i < 9; i++) {
      const d = await draw(p.slug, owner(i));
      expect((await answer(d, owner(i), { outcome: "worked" })).status).toBe(303);
    }
    for (let i = 0; i < 3; i++) {
      const ip = slash48()(1);
      const d = await draw(p.slug, ip);
      expect((await answer(d, ip, { outcome: "failed" })).status).toBe(303);
    }
    const rows = await db.selectFrom("code_reports").select(["outcome", "from_owner"]).where("code_id", "=", code.id).execute();
    expect(rows.filter((r) => r.from_owner === 1)).toHaveLength(7);
    expect(await codeRow(code.id)).toMatchObject({ is_active: 0, paused_reason: "reports" });
  });
});

describe("2. an answer comes from the browser that drew, within a day", () => {
  it("without the draw's cookie, with another draw's, after 24 h, or a platform's draw on /random: refused, nothing stored", async () => {
    const p = await createPlatform(db);
    await createCode(db, p.id, { code: "MINE0001" });
    const drawer = freshV4();
    const mine = await draw(p.slug, drawer);
    const other = await draw(p.slug, freshV4());
    expect(mine.cookie).toMatch(/(^|; )draws=/);

    const refusals: Array<[Response, number, string]> = [
      [await answer(mine, drawer, { outcome: "failed" }, mine.page, ""), 403, "Seul le navigateur qui a fait ce tirage"],
      [
        await answer(mine, freshV4(), { outcome: "failed" }, mine.page, other.cookie),
        403,
        "Seul le navigateur qui a fait ce tirage",
      ],
      [await answer(mine, drawer, { outcome: "failed" }, "/random"), 400, "Ce tirage appartient à une autre plateforme."],
    ];
    for (const [res, status, message] of refusals) {
      expect(res.status).toBe(status);
      expect(await res.text()).toContain(message);
    }
    const stored = await reportCount();

    // A day later: refused (410) and nothing stored, though the cookie is still there.
    const old = await draw(p.slug, drawer);
    const requestId = Number(old.token.split(".")[0]);
    const dayAgo = new Date(Date.now() - 25 * 3_600_000).toISOString();
    await db.updateTable("random_requests").set({ created_at: dayAgo }).where("id", "=", requestId).execute();
    const late = await answer(old, drawer, { outcome: "failed" });
    expect(late.status).toBe(410);
    expect(await late.text()).toContain("Ce tirage date de plus de 24");
    expect(await reportCount()).toBe(stored);

    // The same browser from another network (mobile data, then wifi): taken.
    expect((await answer(mine, freshV4(), { outcome: "worked" })).status).toBe(303);
    expect(await reportCount()).toBe(stored + 1);
  });

  it("Remix's own request (the JS path) sets the cookie too; a forged cookie entry is ignored", async () => {
    const p = await createPlatform(db);
    await createCode(db, p.id, { code: "FETCH001" });
    const ip = freshV4();
    const res = await fetch(`${server.url}/${p.slug}/get-code.data`, {
      method: "POST",
      headers: { "Fly-Client-IP": ip, Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" },
      body: "intent=draw",
    });
    expect(res.status).toBe(202);
    const { redirect: location } = (await decode(res.body as ReadableStream<Uint8Array>)).value as { redirect: string };
    const d: Drawn = {
      page: `/${p.slug}/get-code`,
      location,
      token: new URL(location, server.url).searchParams.get("draw")!,
      cookie: cookiesFrom(res),
    };
    const forged = d.cookie.replace(/([\w-]{22})$/, (sig) => (sig[0] === "A" ? "B" : "A") + sig.slice(1));
    expect((await answer(d, ip, { outcome: "worked" }, d.page, forged)).status).toBe(403);
    expect((await answer(d, ip, { outcome: "worked" })).status).toBe(303);
  });
});

describe("3. the kept link is the platform's standard link for that code; punctuation variants are one code", () => {
  it("a second parameter or a segment after the code is dropped; ATK-RV1, ATK.RV1, ATK_RV1 are duplicates", async () => {
    const p = await createPlatform(db, {
      hosts: "pay.example",
      referral_url_template: null,
      url_rules: JSON.stringify([
        { type: "query", param: "referral-code" },
        { type: "path", after: "parrain" },
      ]),
    });
    const submit = (code: string) =>
      postForm(`${server.url}/submit`, { intent: "submit", platform: p.slug, code }, from(freshV4()));
    expect((await submit("https://pay.example/join?referral-code=FAKE0001&referral-code=REALCODE")).status).toBe(303);
    expect((await submit("https://pay.example/REALCODE/parrain/FAKE0002/REALCODE")).status).toBe(303);
    const links = await db
      .selectFrom("referral_codes")
      .select(["code", "referral_url"])
      .where("platform_id", "=", p.id)
      .orderBy("id")
      .execute();
    expect(links).toEqual([
      { code: "FAKE0001", referral_url: "https://pay.example/join?referral-code=FAKE0001" },
      { code: "FAKE0002", referral_url: "https://pay.example/parrain/FAKE0002" },
    ]);

    expect((await submit("ATK-RV1")).status).toBe(303);
    for (const variant of ["ATK.RV1", "ATK_RV1", "atkrv1"]) expect((await submit(variant)).status, variant).toBe(409);
    const atk = await db
      .selectFrom("referral_codes")
      .select("code")
      .where("platform_id", "=", p.id)
      .where("code", "like", "ATK%")
      .execute();
    expect(atk).toEqual([{ code: "ATK-RV1" }]);
  });
});

describe("4. votes: one /48 weighs what one visitor weighs", () => {
  it("20 /64s of one /48 without cookies add what one /64 clearing its cookie adds: 3", async () => {
    const suggestion = await db
      .insertInto("platform_suggestions")
      .values({ name: "Zorvexia", normalized_name: "zorvexia", status: "pending", created_at: new Date().toISOString() })
      .returning("id")
      .executeTakeFirstOrThrow();
    const net = slash48();
    const statuses: number[] = [];
    for (let i = 1; i <= 20; i++) {
      const res = await postForm(
        `${server.url}/suggest-platform`,
        { intent: "vote", suggestion_id: String(suggestion.id) },
        from(net(i)),
      );
      statuses.push(res.status);
    }
    expect(statuses.filter((s) => s === 303)).toHaveLength(3);
    const row = await db
      .selectFrom("platform_suggestions")
      .select("votes_count")
      .where("id", "=", suggestion.id)
      .executeTakeFirstOrThrow();
    expect(row.votes_count).toBe(3);
  });
});

describe("5. the game's board: collection times required, one entry per subscriber and day", () => {
  const times = (n: number) => {
    const t: number[] = [];
    while (t.length < n) t.push(spawnTimes(t)[t.length]!);
    return t.join(",");
  };
  const post = (ip: string, fields: Record<string, string>) =>
    postForm(`${server.url}/game/scores`, fields, { headers: { "Fly-Client-IP": ip, "Accept-Language": "en" } });
  const score = (extra: Record<string, string> = {}) => ({
    token: createGameSession("desktop", Date.now() - 61_000),
    player_name: "Speedy",
    score: "30",
    device_type: "desktop",
    collected_at: times(3),
    ...extra,
  });
  const scores = async () =>
    Number(
      (
        await db
          .selectFrom("game_scores")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it("a post without collection times is refused; a second entry the same day from another /64 of the /48 is refused", async () => {
    const net = slash48();
    const before = await scores();
    const bare = score();
    delete (bare as Record<string, string>).collected_at;
    const refused = await post(net(1), bare);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { code: string }).code).toBe("collectedAt");

    expect((await post(net(1), score())).status).toBe(201);
    const second = await post(net(2), score({ player_name: "Speedy2" }));
    expect(second.status).toBe(429);
    expect(((await second.json()) as { code: string; error: string }).code).toBe("daily");
    expect(await scores()).toBe(before + 1);
    // Another subscriber is welcome.
    expect((await post(slash48()(1), score({ player_name: "Other" }))).status).toBe(201);
  });
});

describe("6. no log line carries an owner or draw token", () => {
  it("the owner page, a draw, its result page and its answer: the request log shows [token]", async () => {
    const p = await createPlatform(db);
    const token = crypto.randomBytes(32).toString("base64url");
    await createCode(db, p.id, {
      code: "LOGGED01",
      owner_token_hash: crypto.createHash("sha256").update(token).digest("base64url"),
    });
    const ip = freshV4();
    expect((await fetch(`${server.url}/my-code/${token}`, from(ip))).status).toBe(200);
    expect((await fetch(`${server.url}/my-code/${token}.data`, from(ip))).status).toBeLessThan(500);
    const d = await draw(p.slug, ip);
    expect((await fetch(`${server.url}${d.location}`, from(ip, d.cookie))).status).toBe(200);
    expect((await answer(d, ip, { outcome: "worked" })).status).toBe(303);
    // Give the log a moment to be written (lines are written when each answer finishes).
    await new Promise((resolve) => setTimeout(resolve, 100));
    const log = server.output();
    expect(log).toContain("/my-code/[token]");
    expect(log).toContain("draw=[token]");
    expect(log).not.toContain(token);
    expect(log).not.toContain(d.token.split(".")[1]!);
  });

  it("the admin is alerted when one network's draws fail several codes", async () => {
    const net = slash48();
    for (let i = 0; i < 3; i++) {
      const p = await createPlatform(db);
      await createCode(db, p.id, { code: `ALERT${i}X` });
      const d = await draw(p.slug, net(i));
      expect((await answer(d, net(i), { outcome: "failed" })).status).toBe(303);
    }
    const cookie = await signInAsAdmin(server);
    const html = await (await fetch(`${server.url}/admin/codes`, { headers: { Cookie: cookie } })).text();
    expect(html).toContain('data-testid="failing-networks"');
    expect(html).toMatch(/data-testid="failing-network"[^]*3 codes, 3 échecs/);
  });
});
