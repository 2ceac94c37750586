import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAsAdmin, startServerWithAdmin } from "../support/admin";
import { solveDrawProof } from "../support/draw-proof";
import { createCode, createPlatform, openTestDb, type TestDb } from "../support/fixtures";
import { cookiesFrom, postForm, type RunningServer } from "../support/server";

/**
 * Fair in time and against scripts (issue 55, docs/fairness.md), over HTTP against the built server,
 * on both databases. Real visitors each come from an IPv6 /48 of their own; the draw's bounds are the
 * defaults (DRAW_DAILY_LIMIT 20 per /64, 40 per /48; DRAW_SOFT_LIMIT 3 per /64, past which the script
 * solves the browser step's proof of work, as a script can).
 */
let server: RunningServer;
let db: TestDb;
let adminCookie: string;
let nextSite = 0;
/** A real visitor: an address in a /48 no one else uses. */
const visitorIp = () => `2001:db8:${(++nextSite).toString(16)}::1`;

beforeAll(async () => {
  server = await startServerWithAdmin({ TRUST_PROXY: "1", DRAW_DAILY_LIMIT: "20", DRAW_RATE_LIMIT: "300", DRAW_SOFT_LIMIT: "3" });
  db = openTestDb(server.dbFile);
  adminCookie = (await signInAsAdmin(server))
    .split("; ")
    .filter((c) => c.startsWith("__session="))
    .join("; ");
});
afterAll(async () => {
  await db?.destroy();
  await server?.stop();
});

let proofsSolved = 0;

/**
 * One draw as a script that passes the browser step makes it: the draw page's action (the form's
 * post) and, past the soft bound, again with a solved proof. The last answer.
 */
async function drawAnswer(slug: string, ip: string): Promise<Response> {
  const headers = { "Fly-Client-IP": ip };
  const step = await postForm(`${server.url}/${slug}/get-code`, { intent: "draw" }, { headers });
  if (step.status !== 403) return step;
  const challenge = /name="draw-proof" value="([^"]+)"/.exec(await step.text())![1]!;
  proofsSolved++;
  return postForm(
    `${server.url}/${slug}/get-code`,
    { intent: "draw", "draw-proof": challenge, "draw-proof-nonce": solveDrawProof(challenge) },
    { headers },
  );
}

/** One draw; the served code, or null when refused (429). */
async function draw(slug: string, ip = visitorIp()): Promise<string | null> {
  const res = await drawAnswer(slug, ip);
  if (res.status === 429) return null;
  expect(res.status).toBe(303);
  const location = res.headers.get("location")!;
  const id = Number(/[?&]draw=(\d+)\./.exec(location)![1]);
  const row = await db.selectFrom("random_requests").select("served_code").where("id", "=", id).executeTakeFirstOrThrow();
  return row.served_code;
}

async function drawMany(slug: string, n: number): Promise<string[]> {
  const served = [];
  for (let i = 0; i < n; i++) served.push((await draw(slug))!);
  return served;
}

/** A platform whose `others` codes were each served `level` times. */
async function platformAtLevel(others: number, level: number) {
  const p = await createPlatform(db);
  const codes = [];
  for (let i = 0; i < others; i++) codes.push((await createCode(db, p.id, { times_served: level })).code);
  return { p, codes };
}

/**
 * The entering bound: after `entering` came in, it is served at most once before every other code of
 * `others` has been served once more. Draws until they all were (two rounds at most).
 */
async function expectEntersAtLevel(slug: string, entering: string, others: string[]) {
  const waiting = new Set(others);
  let served = 0;
  for (let i = 0; i < 2 * (others.length + 1) && waiting.size > 0; i++) {
    const code = await draw(slug);
    if (code === entering) served++;
    waiting.delete(code!);
  }
  expect(waiting.size).toBe(0);
  expect(served).toBeLessThanOrEqual(1);
}

async function submit(slug: string, code: string): Promise<string> {
  const res = await postForm(
    `${server.url}/submit`,
    { intent: "submit", platform: slug, code },
    { headers: { "Fly-Client-IP": visitorIp() } },
  );
  expect(res.status).toBe(303);
  const thanks = await (await fetch(`${server.url}/submit?thanks=1`, { headers: { Cookie: cookiesFrom(res) } })).text();
  return /<a href="https?:\/\/[^/"]+(\/my-code\/[\w-]+)" data-testid="owner-link"/.exec(thanks)![1]!;
}

const owner = (path: string, fields: Record<string, string>) =>
  postForm(`${server.url}${path}`, fields, { headers: { "Fly-Client-IP": visitorIp() } });

const admin = (fields: Record<string, string>) => postForm(`${server.url}/admin/codes`, fields, { cookie: adminCookie });

const codeRow = (platformId: number, code: string) =>
  db
    .selectFrom("referral_codes")
    .selectAll()
    .where("platform_id", "=", platformId)
    .where("code", "=", code)
    .executeTakeFirstOrThrow();

describe("entering the rotation at the level (issue 55)", () => {
  it("a new code gets one turn in the round, not every draw until it catches up", async () => {
    const { p, codes } = await platformAtLevel(3, 20);
    await submit(p.slug, "NEWCODE1");
    await expectEntersAtLevel(p.slug, "NEWCODE1", codes);
    // What the owner sees stays the truth: its real serves, not the level it was raised to.
    expect((await codeRow(p.id, "NEWCODE1")).times_served).toBeLessThanOrEqual(1);
  });

  it("deleting a code and submitting it again gives back its history, kept by a keyed hash only", async () => {
    const { p, codes } = await platformAtLevel(3, 20);
    const path = await submit(p.slug, "AGAIN001");
    await drawMany(p.slug, 12); // three rounds: everyone at 23
    const before = await codeRow(p.id, "AGAIN001");
    expect(before.times_served).toBe(3);
    expect((await owner(path, { intent: "delete", confirm: "yes" })).status).toBe(303);
    // Not the code in clear: its keyed hash and counts.
    const history = await db.selectFrom("code_history").selectAll().where("platform_id", "=", p.id).execute();
    expect(history).toHaveLength(1);
    expect(JSON.stringify(history)).not.toContain("AGAIN001");
    expect(history[0]).toMatchObject({ rotation_count: before.rotation_count, times_served: 3 });
    await drawMany(p.slug, 15); // the others 5 more each
    await submit(p.slug, "again001"); // the same code (normalised)
    expect((await codeRow(p.id, "AGAIN001")).times_served).toBe(3);
    await expectEntersAtLevel(p.slug, "AGAIN001", codes);
  });

  it("resumed after a pause, a code comes back at the level", async () => {
    const { p, codes } = await platformAtLevel(3, 20);
    const path = await submit(p.slug, "PAUSED01");
    expect((await owner(path, { intent: "pause" })).status).toBe(303);
    await drawMany(p.slug, 60);
    expect((await owner(path, { intent: "resume" })).status).toBe(303);
    await expectEntersAtLevel(p.slug, "PAUSED01", codes);
  });

  it("when its monthly cap ends (time passing, nobody acting), a code comes back at the level", async () => {
    const { p, codes } = await platformAtLevel(3, 20);
    const capped = await createCode(db, p.id, { times_served: 20, capped_until: new Date(Date.now() + 3_600_000).toISOString() });
    await drawMany(p.slug, 30);
    // The first of the month arrives.
    await db
      .updateTable("referral_codes")
      .set({ capped_until: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", capped.id)
      .execute();
    await expectEntersAtLevel(p.slug, capped.code, codes);
  });

  it("restored, re-activated or made permanent (no longer expired) by the admin, a code comes back at the level", async () => {
    const { p, codes } = await platformAtLevel(3, 20);
    const reported = await createCode(db, p.id, { times_served: 20, is_active: 0, paused_reason: "reports" });
    const off = await createCode(db, p.id, { times_served: 20, is_active: 0 });
    const expired = await createCode(db, p.id, { times_served: 20, expires_at: new Date(Date.now() - 1000).toISOString() });
    await drawMany(p.slug, 30);
    expect((await admin({ intent: "restore", id: String(reported.id) })).status).toBe(303);
    await expectEntersAtLevel(p.slug, reported.code, codes);
    await drawMany(p.slug, 20);
    expect((await admin({ intent: "toggle-active", id: String(off.id) })).status).toBe(303);
    await expectEntersAtLevel(p.slug, off.code, [...codes, reported.code]);
    await drawMany(p.slug, 25);
    expect((await admin({ intent: "toggle-permanent", id: String(expired.id) })).status).toBe(303);
    await expectEntersAtLevel(p.slug, expired.code, [...codes, reported.code, off.code]);
  });

  it("its monthly cap lifted by the admin, a code comes back at the level", async () => {
    const { p, codes } = await platformAtLevel(3, 20);
    const capped = await createCode(db, p.id, { times_served: 20, capped_until: new Date(Date.now() + 3_600_000).toISOString() });
    await drawMany(p.slug, 30);
    expect((await admin({ intent: "lift-cap", id: String(capped.id) })).status).toBe(303);
    await expectEntersAtLevel(p.slug, capped.code, codes);
  });

  it("a whole platform re-activated by the admin: its codes, and one let in while it was off, come back level", async () => {
    const { p, codes } = await platformAtLevel(3, 20);
    const off = await createCode(db, p.id, { times_served: 0, is_active: 0 });
    await drawMany(p.slug, 6);
    const platformAdmin = (fields: Record<string, string>) =>
      postForm(`${server.url}/admin/platforms`, fields, { cookie: adminCookie });
    expect((await platformAdmin({ intent: "toggle-active", id: String(p.id), confirm: "yes" })).status).toBe(303);
    expect(
      (await db.selectFrom("platforms").select("is_active").where("id", "=", p.id).executeTakeFirstOrThrow()).is_active,
    ).toBe(0);
    expect((await admin({ intent: "toggle-active", id: String(off.id) })).status).toBe(303);
    expect((await platformAdmin({ intent: "toggle-active", id: String(p.id), confirm: "yes" })).status).toBe(303);
    await expectEntersAtLevel(p.slug, off.code, codes);
  });

  it("an admin's edit of a code's text renews its key: deleted, then submitted again as it now reads, it takes its turns back", async () => {
    const { p, codes } = await platformAtLevel(3, 20);
    await submit(p.slug, "EDITME01");
    await drawMany(p.slug, 12); // three rounds: everyone at 23
    const before = await codeRow(p.id, "EDITME01");
    expect(before.times_served).toBe(3);
    const edited = await admin({ intent: "update", id: String(before.id), code: "EDITED01", referral_url: "" });
    expect(edited.status).toBe(303);
    expect((await admin({ intent: "delete", id: String(before.id), confirm: "yes" })).status).toBe(303);
    await drawMany(p.slug, 15);
    await submit(p.slug, "EDITED01");
    expect((await codeRow(p.id, "EDITED01")).times_served).toBe(3);
    await expectEntersAtLevel(p.slug, "EDITED01", codes);
  });
});

/**
 * A script against the rotation: 5 IPv6 /64s in one /48, a day's draw budget (the /48's daily
 * bound on one platform: 10), and better knowledge than the owner page or a learnt order give: it reads the rotation's
 * true state before each real visitor. It draws whenever a real visitor's draw would not go its way.
 */
describe("a script with five /64s in one /48 (issue 55)", () => {
  const VISITORS = 80;
  const CODES = 4;

  async function rotation(platformId: number) {
    return db.selectFrom("referral_codes").select(["code", "rotation_count"]).where("platform_id", "=", platformId).execute();
  }

  type State = Array<{ code: string; rotation_count: number }>;
  /** `target` is the platform's first code; `goodForScript` says whether a real visitor's draw now suits the script. */
  async function run(goodForScript: (state: State, target: string) => boolean) {
    const { p, codes } = await platformAtLevel(CODES, 0);
    const target = codes[0]!;
    const site = crypto.randomBytes(2).toString("hex");
    const scriptIps = Array.from({ length: 5 }, (_, i) => `2001:db8:${site}:${i + 1}::1`);
    let scriptDraws = 0;
    let budgetLeft = true;
    const proofsBefore = proofsSolved;
    const visitors = new Map<string, number>();
    for (let v = 0; v < VISITORS; v++) {
      while (budgetLeft && !goodForScript(await rotation(p.id), target)) {
        const drawn = await draw(p.slug, scriptIps[scriptDraws % scriptIps.length]);
        if (drawn === null) budgetLeft = false;
        else scriptDraws++;
      }
      const code = (await draw(p.slug))!;
      visitors.set(code, (visitors.get(code) ?? 0) + 1);
    }
    return { target: visitors.get(target) ?? 0, scriptDraws, proofs: proofsSolved - proofsBefore };
  }

  it("the script's own code gets at most twice its fair share of real visitors", async () => {
    // A visitor should draw only while the script's code is among the least served of the round.
    const result = await run((state, mine) => {
      const level = Math.min(...state.map((c) => c.rotation_count));
      return state.find((c) => c.code === mine)!.rotation_count === level;
    });
    process.stdout.write(
      `script own code: ${result.target} of ${VISITORS} visitors, ${result.scriptDraws} script draws, ${result.proofs} proofs\n`,
    );
    expect(result.scriptDraws).toBeLessThanOrEqual(10); // the /48's day on one platform
    expect(result.target).toBeLessThanOrEqual((2 * VISITORS) / CODES);
  });

  it("a victim still gets at least half of its fair share of real visitors", async () => {
    // A visitor should draw only once the victim has had its turn in the round.
    const result = await run((state, victim) => {
      const level = Math.min(...state.map((c) => c.rotation_count));
      return state.find((c) => c.code === victim)!.rotation_count > level;
    });
    process.stdout.write(
      `victim: ${result.target} of ${VISITORS} visitors, ${result.scriptDraws} script draws, ${result.proofs} proofs\n`,
    );
    expect(result.scriptDraws).toBeLessThanOrEqual(10);
    expect(result.target).toBeGreaterThanOrEqual(VISITORS / CODES / 2);
  });
});

describe("the daily draw bounds per network (issue 55, decision 312)", () => {
  it("5 draws a day per /64 on one platform, 10 per /48; then 429 with Retry-After and nothing written; other platforms and networks draw", async () => {
    const { p } = await platformAtLevel(3, 0);
    const other = await platformAtLevel(2, 0);
    const net = `2001:db8:${crypto.randomBytes(2).toString("hex")}`;
    const logged = async () =>
      Number(
        (
          await db
            .selectFrom("random_requests")
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    for (let i = 0; i < 5; i++) expect(await draw(p.slug, `${net}:1::1`)).not.toBeNull();
    // The same /64 (another address in it): its fifth draw on this platform was its last today.
    const before = await logged();
    // Past the soft bound too: refused after the browser step's proof (decision 350).
    const refused = await drawAnswer(p.slug, `${net}:1::99`);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3600);
    expect(await logged()).toBe(before);
    // Another platform: still drawn.
    expect(await draw(other.p.slug, `${net}:1::1`)).not.toBeNull();
    // Other /64s of the same /48: five more on this platform, then the /48 is done with it.
    for (let i = 0; i < 5; i++) expect(await draw(p.slug, `${net}:2::1`)).not.toBeNull();
    expect(await draw(p.slug, `${net}:3::1`)).toBeNull();
    // Another /48 is not concerned.
    expect(await draw(p.slug)).not.toBeNull();
  });
});
