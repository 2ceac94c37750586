import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCode, createPlatform, openTestDb, type TestDb } from "../support/fixtures";
import { countDraws, solveDrawProof } from "../support/draw-proof";
import { postForm, startServer, type RunningServer } from "../support/server";

/**
 * The soft bound's browser proof (issue 55, decision 350), over HTTP against the built server, on
 * both databases: past DRAW_SOFT_LIMIT draws a day from a /64 (twice that from its /48), a draw counts
 * only with a proof; a script without one gets the translated "one moment" step (403) and no draw.
 */
const SECRET = "integration-secret-0123456789";
let server: RunningServer;
let db: TestDb;
let slug: string;
let nextSite = 0;
/** A /48 of its own, and its first /64's address. */
const freshNetwork = () => `2001:db8:${(++nextSite).toString(16)}`;

beforeAll(async () => {
  server = await startServer({ TRUST_PROXY: "1", DRAW_SOFT_LIMIT: "2", SESSION_SECRET: SECRET });
  db = openTestDb(server.dbFile);
  const platform = await createPlatform(db);
  slug = platform.slug;
  await createCode(db, platform.id);
});
afterAll(async () => {
  await db?.destroy();
  await server?.stop();
});

const drawCount = () => countDraws(db);

/** A draw without a proof, as the form posts it: the result page's address, or null when the step is asked. */
async function plainDraw(ip: string): Promise<string | null> {
  const res = await pageDraw(ip);
  if (res.status === 403) return null;
  expect(res.status).toBe(303);
  return res.headers.get("location");
}

/** A draw posted to the draw page (what a form without JavaScript, or the step, sends). */
function pageDraw(ip: string, fields: Record<string, string> = {}, cookie = "language=en", page = `/${slug}/get-code`) {
  return postForm(`${server.url}${page}`, { intent: "draw", ...fields }, { cookie, headers: { "Fly-Client-IP": ip } });
}

async function stepOf(res: Response): Promise<{ reason: string; challenge: string; html: string }> {
  expect(res.status).toBe(403);
  const html = await res.text();
  const reason = /data-testid="draw-proof" data-reason="(\w+)"/.exec(html)?.[1];
  const challenge = /name="draw-proof" value="([^"]+)"/.exec(html)?.[1];
  expect(reason).toBeTruthy();
  expect(challenge).toBeTruthy();
  return { reason: reason!, challenge: challenge!, html };
}

/** Draws without a proof from `ip` until the soft bound asks for one; the step's first answer. */
async function pastTheBound(ip: string) {
  expect(await plainDraw(ip)).toMatch(/\?draw=/);
  expect(await plainDraw(ip)).toMatch(/\?draw=/);
  const before = await drawCount();
  // The endpoint draws nothing past the bound: the enhanced form then posts to the page.
  expect(await plainDraw(ip)).toBeNull();
  const step = await stepOf(await pageDraw(ip));
  expect(await drawCount()).toBe(before);
  return step;
}

describe("the soft bound's browser proof", () => {
  it("refuses a script past the bound without a proof (translated step, nothing drawn) and serves it with one", async () => {
    const ip = `${freshNetwork()}:1::1`;
    const step = await pastTheBound(ip);
    expect(step.reason).toBe("needed");
    expect(step.html).toContain("Many codes were drawn from your network today.");
    expect(step.html).toMatch(/<html[^>]*lang="en"/);
    // In French too (each language has its words; a unit test checks every key).
    expect(await (await pageDraw(ip, {}, "language=fr")).text()).toContain("Beaucoup de codes ont été tirés depuis votre réseau");

    const before = await drawCount();
    const served = await pageDraw(ip, { "draw-proof": step.challenge, "draw-proof-nonce": solveDrawProof(step.challenge) });
    expect(served.status).toBe(303);
    expect(served.headers.get("location")).toMatch(new RegExp(`^/${slug}/get-code\\?draw=\\d+\\.`));
    expect(await drawCount()).toBe(before + 1);
    // /random asks the same.
    expect((await stepOf(await pageDraw(ip, {}, "language=en", "/random"))).reason).toBe("needed");
  });

  it("refuses a replayed, stale, altered or another network's proof, and a wrong proof of work too soon", async () => {
    const network = freshNetwork();
    const ip = `${network}:1::1`;
    const { challenge } = await pastTheBound(ip);
    const nonce = solveDrawProof(challenge);
    expect((await pageDraw(ip, { "draw-proof": challenge, "draw-proof-nonce": nonce })).status).toBe(303);
    // Another network's challenge, fetched past the bound there.
    const other = await pastTheBound(`${freshNetwork()}:1::1`);
    const before = await drawCount();

    // Replayed: the same proof again.
    expect((await stepOf(await pageDraw(ip, { "draw-proof": challenge, "draw-proof-nonce": nonce }))).reason).toBe("replayed");

    // Stale: signed for this address six minutes ago (the key and the format are the server's).
    const address = `${network}:1::/64`;
    const body = `${(Date.now() - 6 * 60_000).toString(36)}.${crypto.randomBytes(12).toString("base64url")}.12`;
    const sig = crypto.createHmac("sha256", SECRET).update(`draw-proof:${body}:${address}`).digest("base64url").slice(0, 22);
    const stale = `${body}.${sig}`;
    expect((await stepOf(await pageDraw(ip, { "draw-proof": stale, "draw-proof-nonce": solveDrawProof(stale) }))).reason).toBe(
      "stale",
    );

    // Altered: fewer zero bits asked than the server signed.
    const fresh = (await stepOf(await pageDraw(ip))).challenge;
    const altered = fresh.replace(/\.12\./, ".1.");
    expect(
      (await stepOf(await pageDraw(ip, { "draw-proof": altered, "draw-proof-nonce": solveDrawProof(altered) }))).reason,
    ).toBe("wrong");

    // Another network's, sent from here.
    const sent = await pageDraw(ip, { "draw-proof": other.challenge, "draw-proof-nonce": solveDrawProof(other.challenge) });
    expect((await stepOf(sent)).reason).toBe("wrong");

    // A nonce that is no proof, sent at once: the same challenge comes back, to be sent a moment later.
    const wrongWork = await stepOf(await pageDraw(ip, { "draw-proof": fresh, "draw-proof-nonce": "nope" }));
    expect(wrongWork.reason).toBe("wait");
    expect(wrongWork.challenge).toBe(fresh);
    expect(await drawCount()).toBe(before);
  });

  it("without JavaScript, takes the challenge back after a few seconds, not sooner", async () => {
    const ip = `${freshNetwork()}:1::1`;
    const { challenge } = await pastTheBound(ip);
    const before = await drawCount();
    const tooSoon = await stepOf(await pageDraw(ip, { "draw-proof": challenge }));
    expect(tooSoon.reason).toBe("wait");
    expect(tooSoon.html).toContain("That was too quick: wait 3 seconds, then press Continue.");
    expect(await drawCount()).toBe(before);
    await new Promise((resolve) => setTimeout(resolve, 3_200));
    const served = await pageDraw(ip, { "draw-proof": challenge });
    expect(served.status).toBe(303);
    expect(await drawCount()).toBe(before + 1);
  });

  it("counts per /48 as well as per /64: a fresh /64 of a busy /48 needs the proof at once", async () => {
    const network = freshNetwork();
    // Two /64s of one /48 spend the /48's four draws (2 × DRAW_SOFT_LIMIT).
    for (const sub of ["1", "2"]) {
      expect(await plainDraw(`${network}:${sub}::1`)).toMatch(/\?draw=/);
      expect(await plainDraw(`${network}:${sub}::1`)).toMatch(/\?draw=/);
    }
    expect(await plainDraw(`${network}:3::1`)).toBeNull();
    expect((await stepOf(await pageDraw(`${network}:3::1`))).reason).toBe("needed");
    // Another /48 is not concerned.
    expect(await plainDraw(`${freshNetwork()}:1::1`)).toMatch(/\?draw=/);
  });
});

describe("the proof is the captcha when one is configured and the visitor accepted it", () => {
  let captchaServer: RunningServer;
  let captchaDb: TestDb;
  let verifier: http.Server;
  let captchaSlug: string;

  beforeAll(async () => {
    verifier = http.createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () => {
        const form = new URLSearchParams(body);
        res.setHeader("Content-Type", "application/json");
        res.end(JSON.stringify({ success: form.get("secret") === "test-secret" && form.get("response") === "good-token" }));
      });
    });
    await new Promise<void>((resolve) => verifier.listen(0, "127.0.0.1", resolve));
    // Settings are cached per process: migrate, write the site key, then start for real.
    const first = await startServer();
    await first.stop();
    const setup = openTestDb(first.dbFile);
    await setup
      .insertInto("settings")
      .values({ key: "google_recaptcha_site_key", value: "test-site-key", updated_at: new Date().toISOString() })
      .onConflict((oc) => oc.column("key").doUpdateSet({ value: "test-site-key" }))
      .execute();
    await setup.destroy();
    captchaServer = await startServer({
      DATABASE_FILE: first.dbFile,
      TRUST_PROXY: "1",
      DRAW_SOFT_LIMIT: "1",
      RECAPTCHA_VERIFY_URL: `http://127.0.0.1:${(verifier.address() as AddressInfo).port}/recaptcha/api/siteverify`,
      RECAPTCHA_SECRET_KEY: "test-secret",
    });
    captchaDb = openTestDb(captchaServer.dbFile);
    const platform = await createPlatform(captchaDb);
    captchaSlug = platform.slug;
    await createCode(captchaDb, platform.id);
  });
  afterAll(async () => {
    await captchaDb?.destroy();
    await captchaServer?.stop();
    await new Promise((resolve) => verifier?.close(resolve));
  });

  it("asks the captcha, not the proof of work, and serves a verified one", async () => {
    const ip = "2001:db8:ca::1";
    const consent = "consent=granted; language=en";
    const post = (fields: Record<string, string>) =>
      postForm(
        `${captchaServer.url}/${captchaSlug}/get-code`,
        { intent: "draw", ...fields },
        { cookie: consent, headers: { "Fly-Client-IP": ip } },
      );
    expect((await post({})).status).toBe(303);
    const step = await stepOf(await post({}));
    expect(step.html).toContain('data-sitekey="test-site-key"');
    const work = { "draw-proof": step.challenge, "draw-proof-nonce": solveDrawProof(step.challenge) };
    expect((await stepOf(await post(work))).reason).toBe("captcha");
    expect((await stepOf(await post({ ...work, "g-recaptcha-response": "bad-token" }))).reason).toBe("captcha");
    expect((await post({ ...work, "g-recaptcha-response": "good-token" })).status).toBe(303);
  });
});
