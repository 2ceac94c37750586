import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Kysely } from "kysely";
import { decode } from "turbo-stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~db/schema";
import { createPlatform, openTestDb, refuseDrawLogOf } from "../support/fixtures";
import { cookiesFrom, postForm, startServer, type RunningServer } from "../support/server";

async function counts(db: Kysely<Database>) {
  const [codes, requests, deletions] = await Promise.all([
    db
      .selectFrom("referral_codes")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("random_requests")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("deletion_requests")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return { codes: Number(codes.n), requests: Number(requests.n), deletions: Number(deletions.n) };
}

/** A server of its own for a describe block, and a connection to its database. */
function serverWithDb() {
  const ctx = {} as { server: RunningServer; db: Kysely<Database> };
  beforeAll(async () => {
    ctx.server = await startServer();
    ctx.db = openTestDb(ctx.server.dbFile);
  });
  afterAll(async () => {
    await ctx.db?.destroy();
    await ctx.server?.stop();
  });
  return ctx;
}

describe("the code loop over HTTP", () => {
  const ctx = serverWithDb();
  let server: RunningServer;
  let db: Kysely<Database>;
  beforeAll(() => ({ server, db } = ctx));

  it("200 simultaneous draws on 4 codes: serve counts differ by at most 1, one log row per draw, no error", async () => {
    const p = await createPlatform(db);
    for (const code of ["AAA111", "BBB222", "CCC333", "DDD444"]) {
      await db.insertInto("referral_codes").values({ platform_id: p.id, code, created_at: new Date().toISOString() }).execute();
    }
    const responses = await Promise.all(
      Array.from({ length: 200 }, () => postForm(`${server.url}/${p.slug}/get-code`, { intent: "draw" })),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(200).fill(303));
    const locations = responses.map((r) => r.headers.get("location")!);
    expect(new Set(locations).size).toBe(200);
    const served = await db.selectFrom("referral_codes").select("times_served").where("platform_id", "=", p.id).execute();
    const n = served.map((r) => r.times_served);
    expect(n.reduce((a, b) => a + b, 0)).toBe(200);
    expect(Math.max(...n) - Math.min(...n)).toBeLessThanOrEqual(1);
    const logged = await db.selectFrom("random_requests").select("id").where("platform_id", "=", p.id).execute();
    expect(logged).toHaveLength(200);
    expect(server.output()).not.toMatch(/error/i);
  });

  it("the result page shows the served code, never draws again on reload, and cannot be guessed", async () => {
    const p = await createPlatform(db);
    await db
      .insertInto("referral_codes")
      .values({
        platform_id: p.id,
        code: "ONLY01",
        referral_url: `https://${p.slug}.example/r/only01`,
        created_at: new Date().toISOString(),
      })
      .execute();
    const before = await counts(db);
    // A crawler's GET never spends a serve.
    const ready = await fetch(`${server.url}/${p.slug}/get-code`);
    expect(await ready.text()).toContain("Lancer le tirage au sort");
    expect(await counts(db)).toEqual(before);

    const res = await postForm(`${server.url}/${p.slug}/get-code`, { intent: "draw" });
    expect(res.status).toBe(303);
    const location = res.headers.get("location")!;
    expect(location).toMatch(new RegExp(`^/${p.slug}/get-code\\?draw=\\d+\\.[\\w-]{22}$`));
    for (let i = 0; i < 2; i++) {
      const html = await (await fetch(`${server.url}${location}`)).text();
      expect(html).toMatch(/data-testid="drawn-code"[^>]*>ONLY01</);
      expect(html).toMatch(
        new RegExp(
          `<a data-testid="referral-link"[^>]*href="https://${p.slug}\\.example/r/only01" target="_blank" rel="noopener noreferrer"`,
        ),
      );
      expect(html).toContain('name="robots" content="noindex, nofollow"');
    }
    expect((await counts(db)).requests).toBe(before.requests + 1);
    const id = /draw=(\d+)\./.exec(location)![1]!;
    expect((await fetch(`${server.url}/${p.slug}/get-code?draw=${id}.AAAAAAAAAAAAAAAAAAAAAA`)).status).toBe(404);
    expect((await fetch(`${server.url}/${p.slug}/get-code?draw=${Number(id) - 1}`)).status).toBe(404);
    // Another platform's page does not show this result.
    expect((await fetch(`${server.url}/tesla${location.slice(p.slug.length + 1)}`)).status).toBe(404);
  });

  it("no eligible code: the message, nothing written", async () => {
    const p = await createPlatform(db);
    await db
      .insertInto("referral_codes")
      .values({ platform_id: p.id, code: "OLD111", expires_at: "2020-01-01T00:00:00.000Z", created_at: new Date().toISOString() })
      .execute();
    const before = await counts(db);
    const res = await postForm(`${server.url}/${p.slug}/get-code`, { intent: "draw" });
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/data-testid="no-code"[^>]*>Aucun code disponible pour cette plateforme</);
    expect(await counts(db)).toEqual(before);
    expect((await postForm(`${server.url}/${p.slug}/get-code`, { intent: "other" })).status).toBe(400);
  });

  it("/random draws across active platforms and names the platform", async () => {
    const res = await postForm(`${server.url}/random`, { intent: "draw" });
    expect(res.status).toBe(303);
    const location = res.headers.get("location")!;
    expect(location).toMatch(/^\/random\?draw=\d+\.[\w-]{22}$/);
    const html = await (await fetch(`${server.url}${location}`)).text();
    expect(html).toMatch(/data-testid="drawn-platform"[^>]*>Plateforme\u00a0: Test p-/);
    expect(html).toContain('data-testid="drawn-code"');
  });

  it("landing: active page with its live count; unknown slug 404 'Plateforme introuvable'; inactive redirects home", async () => {
    const p = await createPlatform(db, { description_en: "English description" });
    await db
      .insertInto("referral_codes")
      .values({ platform_id: p.id, code: "LIVE01", created_at: new Date().toISOString() })
      .execute();
    const html = await (await fetch(`${server.url}/${p.slug}`)).text();
    expect(html).toContain("1 code disponible");
    expect(html).toContain("Plateforme de test");
    expect(html).toContain(`href="/${p.slug}/get-code"`);
    expect(html).toContain(`href="/submit?platform=${p.slug}"`);
    expect(html).toContain('"@type":"BreadcrumbList"');
    expect(await (await fetch(`${server.url}/${p.slug}?lng=en`)).text()).toContain("English description");

    const unknown = await fetch(`${server.url}/no-such-platform`);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain("Plateforme introuvable");
    expect((await fetch(`${server.url}/no-such-platform/get-code`)).status).toBe(404);

    const off = await createPlatform(db, { is_active: 0 });
    for (const path of [`/${off.slug}`, `/${off.slug}/get-code`]) {
      const res = await fetch(`${server.url}${path}`, { redirect: "manual" });
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe("/");
      const home = await (await fetch(server.url, { headers: { Cookie: cookiesFrom(res) } })).text();
      expect(home).toContain("Cette plateforme n&#x27;est pas disponible");
    }
  });

  it("submit: rejected input answers 400 with the message and writes nothing", async () => {
    const p = await createPlatform(db);
    const before = await counts(db);
    const cases: Array<[Record<string, string>, string]> = [
      [{ intent: "submit", platform: p.slug, code: "   " }, "Veuillez saisir un code ou une URL"],
      [{ intent: "submit", platform: "", code: "ABC123" }, "Veuillez sélectionner une plateforme"],
      [{ intent: "submit", platform: "no-such-platform", code: "ABC123" }, "Plateforme introuvable"],
      [{ intent: "submit", platform: p.slug, code: "javascript:alert(1)" }, "Seuls les liens http(s) sont acceptés."],
      [
        { intent: "submit", platform: p.slug, code: "https://evil.example/r/abc123" },
        "Ce lien n&#x27;appartient pas à la plateforme choisie.",
      ],
      [{ intent: "submit", platform: p.slug, code: "x".repeat(5000) }, "trop long"],
      [{ intent: "submit", platform: p.slug, code: "ABC123", website_confirm: "i am a bot" }, "anti-spam"],
    ];
    for (const [fields, message] of cases) {
      const res = await postForm(`${server.url}/submit`, fields);
      expect(res.status, JSON.stringify(fields).slice(0, 80)).toBe(400);
      const html = await res.text();
      expect(html).toContain(message);
      if (fields.code && fields.code.length < 100 && fields.code.trim())
        expect(html).toContain(`value="${fields.code.replace(/&/g, "&amp;")}"`);
    }
    expect(await counts(db)).toEqual(before);
  });

  it("submit: a URL of the platform gives its code, stored for 6 months, then the thank-you step", async () => {
    const p = await createPlatform(db);
    const res = await postForm(`${server.url}/submit`, {
      intent: "submit",
      platform: p.slug,
      code: `  https://www.${p.slug}.example/r/julien48?x=1 `,
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/submit?thanks=1");
    const row = await db.selectFrom("referral_codes").selectAll().where("platform_id", "=", p.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      code: "JULIEN48",
      // The platform's standard link for that code, not the link as typed (decision 317).
      referral_url: `https://${p.slug}.example/r/julien48`,
      is_permanent: 0,
      is_active: 1,
    });
    const days = (Date.parse(row.expires_at!) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(180);
    expect(days).toBeLessThan(185);
    const thanks = await (await fetch(`${server.url}/submit?thanks=1`, { headers: { Cookie: cookiesFrom(res) } })).text();
    expect(thanks).toContain("Code ajouté avec succès\u00a0!");
    expect(thanks).toContain('data-testid="share-twitter"');
    expect(thanks).toContain("https://wa.me/?text=");
  });

  it("duplicate, then yes: a deletion request with its reason; duplicate, then no: nothing written", async () => {
    const p = await createPlatform(db);
    expect((await postForm(`${server.url}/submit`, { intent: "submit", platform: p.slug, code: "DUPE01" })).status).toBe(303);
    const before = await counts(db);
    const dupe = await postForm(`${server.url}/submit`, { intent: "submit", platform: p.slug, code: "dupe01" });
    expect(dupe.status).toBe(409);
    const html = await dupe.text();
    expect(html).toContain(
      "Ce code existe déjà dans notre base de données. Voulez-vous envoyer une demande de suppression à l&#x27;administrateur\u00a0?",
    );
    // The specification's order: the question, yes or no; the reason box only after yes.
    expect(html).toContain('name="intent" value="deletion-reason"');
    expect(html).toContain('name="intent" value="cancel"');
    expect(html).not.toContain('name="intent" value="request-deletion"');
    expect(html).not.toContain("<textarea");
    expect(html).toContain("C&#x27;est votre propre code\u00a0? Il est déjà en rotation\u00a0: rien à faire.");
    expect(await counts(db)).toEqual(before);

    // Yes: the second step asks for the optional reason, and writes nothing yet.
    const asked = await postForm(`${server.url}/submit`, { intent: "deletion-reason", platform: p.slug, code: "dupe01" });
    expect(asked.status).toBe(200);
    const reasonStep = await asked.text();
    expect(reasonStep).toContain('name="intent" value="request-deletion"');
    expect(reasonStep).toContain('name="reason"');
    expect(reasonStep).toContain('name="intent" value="cancel"');
    expect(await counts(db)).toEqual(before);
    const askedForNothing = await postForm(`${server.url}/submit`, {
      intent: "deletion-reason",
      platform: p.slug,
      code: "NOPE98",
    });
    expect(askedForNothing.status).toBe(400);
    expect(await askedForNothing.text()).not.toContain('name="reason"');

    const no = await postForm(`${server.url}/submit`, { intent: "cancel" });
    expect(no.status).toBe(303);
    expect(await (await fetch(`${server.url}/submit`, { headers: { Cookie: cookiesFrom(no) } })).text()).toContain(
      "Code non ajouté",
    );
    expect(await counts(db)).toEqual(before);

    const yes = await postForm(`${server.url}/submit`, {
      intent: "request-deletion",
      platform: p.slug,
      code: "DUPE01",
      reason: "Ce code ne marche plus",
    });
    expect(yes.status).toBe(303);
    expect(await (await fetch(`${server.url}/submit`, { headers: { Cookie: cookiesFrom(yes) } })).text()).toContain(
      "Demande de suppression envoyée\u00a0!",
    );
    const request = await db
      .selectFrom("deletion_requests")
      .selectAll()
      .where("platform_id", "=", p.id)
      .executeTakeFirstOrThrow();
    expect(request).toMatchObject({ code: "DUPE01", reason: "Ce code ne marche plus", status: "pending" });

    // A deletion request only for a code that exists.
    const bogus = await postForm(`${server.url}/submit`, { intent: "request-deletion", platform: p.slug, code: "NOPE99" });
    expect(bogus.status).toBe(400);
    expect((await counts(db)).deletions).toBe(before.deletions + 1);
  });
});

describe("captcha and rate limit", () => {
  let server: RunningServer;
  let verifier: http.Server;
  const seen: Array<Record<string, string>> = [];
  let db: Kysely<Database>;
  let slug: string;

  beforeAll(async () => {
    // A local server speaking Google's siteverify protocol.
    verifier = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        const form = Object.fromEntries(new URLSearchParams(body));
        seen.push({ ...form, contentType: req.headers["content-type"] ?? "" });
        res.setHeader("Content-Type", "application/json");
        res.end(JSON.stringify({ success: form.secret === "test-secret" && form.response === "good-token" }));
      });
    });
    await new Promise<void>((resolve) => verifier.listen(0, "127.0.0.1", resolve));
    const verifyUrl = `http://127.0.0.1:${(verifier.address() as AddressInfo).port}/recaptcha/api/siteverify`;
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
    server = await startServer({
      DATABASE_FILE: first.dbFile,
      RECAPTCHA_VERIFY_URL: verifyUrl,
      RECAPTCHA_SECRET_KEY: "test-secret",
    });
    db = openTestDb(server.dbFile);
    slug = (await createPlatform(db)).slug;
  });
  afterAll(async () => {
    await db?.destroy();
    await server?.stop();
    await new Promise((resolve) => verifier?.close(resolve));
  });

  it("with consent, renders the widget, refuses a missing or rejected token, accepts a verified one", async () => {
    // Google's captcha runs only for a visitor who accepted Google's services (decision 323; the
    // visitor who did not is in privacy.test.ts).
    const consent = { cookie: "consent=granted" };
    const page = await fetch(`${server.url}/submit`, { headers: { Cookie: consent.cookie } });
    const html = await page.text();
    const nonce = /nonce-([^']+)'/.exec(page.headers.get("content-security-policy")!)![1];
    expect(html).toContain('data-sitekey="test-site-key"');
    expect(html).toContain(`<script src="https://www.google.com/recaptcha/api.js" async="" defer="" nonce="${nonce}"`);

    const before = await counts(db);
    const missing = await postForm(`${server.url}/submit`, { intent: "submit", platform: slug, code: "CAPTCHA1" }, consent);
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain("Veuillez valider le captcha");
    const wrong = await postForm(
      `${server.url}/submit`,
      { intent: "submit", platform: slug, code: "CAPTCHA1", "g-recaptcha-response": "bad-token" },
      consent,
    );
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain("La vérification anti-spam a échoué. Veuillez réessayer.");
    expect(await counts(db)).toEqual(before);

    const good = await postForm(
      `${server.url}/submit`,
      { intent: "submit", platform: slug, code: "CAPTCHA1", "g-recaptcha-response": "good-token" },
      consent,
    );
    expect(good.status).toBe(303);
    expect((await counts(db)).codes).toBe(before.codes + 1);
    expect(seen.at(-1)).toMatchObject({
      secret: "test-secret",
      response: "good-token",
      contentType: "application/x-www-form-urlencoded",
    });
    expect(seen).toHaveLength(2);
  });

  it("limits submissions per address with a clear 429 page", async () => {
    let status = 0;
    let res: Response | undefined;
    for (let i = 0; i < 40 && status !== 429; i++) {
      res = await postForm(`${server.url}/submit`, { intent: "submit", platform: slug, code: `RATE${i}X` });
      status = res.status;
    }
    expect(status).toBe(429);
    expect(await res!.text()).toContain("Trop de tentatives");
  });
});

describe("the draw: the draw page's action, where the draw forms post", () => {
  const ctx = serverWithDb();
  let server: RunningServer;
  let db: Kysely<Database>;
  beforeAll(() => ({ server, db } = ctx));

  async function addCode(platformId: number, code: string) {
    await db
      .insertInto("referral_codes")
      .values({ platform_id: platformId, code, created_at: new Date().toISOString() })
      .execute();
  }

  it("no JS: a draw answers 303 to the signed result page, with the draws cookie; one serve, one log row", async () => {
    const p = await createPlatform(db);
    await addCode(p.id, "FAST01");
    const before = await counts(db);
    const res = await postForm(`${server.url}/${p.slug}/get-code`, { intent: "draw" });
    expect(res.status).toBe(303);
    const location = res.headers.get("location")!;
    expect(location).toMatch(new RegExp(`^/${p.slug}/get-code\\?draw=\\d+\\.[\\w-]{22}$`));
    expect(cookiesFrom(res)).toMatch(/(^|; )draws=/);
    expect(await (await fetch(`${server.url}${location}`)).text()).toMatch(/data-testid="drawn-code"[^>]*>FAST01</);
    expect(await counts(db)).toEqual({ ...before, requests: before.requests + 1 });

    const random = await postForm(`${server.url}/random`, { intent: "draw" });
    expect(random.status).toBe(303);
    expect(random.headers.get("location")).toMatch(/^\/random\?draw=\d+\.[\w-]{22}$/);
  });

  it("JS: Remix's own request to the page draws once and answers its single-fetch redirect to the result, with the cookie", async () => {
    const p = await createPlatform(db);
    await addCode(p.id, "JSON01");
    const before = await counts(db);
    const res = await postForm(`${server.url}/${p.slug}/get-code.data`, { intent: "draw" });
    expect(res.status).toBe(202);
    expect(cookiesFrom(res)).toMatch(/(^|; )draws=/);
    const answer = (await decode(res.body as ReadableStream<Uint8Array>)).value as { redirect: string; status: number };
    expect(answer).toMatchObject({ redirect: expect.stringMatching(new RegExp(`^/${p.slug}/get-code\\?draw=`)), status: 303 });
    expect(await (await fetch(`${server.url}${answer.redirect}`)).text()).toMatch(/data-testid="drawn-code"[^>]*>JSON01</);
    expect(await counts(db)).toEqual({ ...before, requests: before.requests + 1 });
  });

  it("nothing drawn: the page says why (no code, unknown, inactive); the old endpoint's address draws nothing; nothing written", async () => {
    const empty = await createPlatform(db);
    const off = await createPlatform(db, { is_active: 0 });
    await addCode(off.id, "OFF001");
    const live = await createPlatform(db);
    await addCode(live.id, "LIVE01");
    const before = await counts(db);
    const noCode = await postForm(`${server.url}/${empty.slug}/get-code`, { intent: "draw" });
    expect(noCode.status).toBe(200);
    expect(await noCode.text()).toMatch(/data-testid="no-code"[^>]*>Aucun code disponible pour cette plateforme</);
    const noCodeData = await postForm(`${server.url}/${empty.slug}/get-code.data`, { intent: "draw" });
    expect(noCodeData.status).toBe(200);
    expect((await decode(noCodeData.body as ReadableStream<Uint8Array>)).value).toEqual({ data: { noCode: true } });
    const unknown = await postForm(`${server.url}/no-such-platform/get-code`, { intent: "draw" });
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain("Plateforme introuvable");
    const inactive = await postForm(`${server.url}/${off.slug}/get-code`, { intent: "draw" });
    expect(inactive.status).toBe(303);
    expect(inactive.headers.get("location")).toBe("/");
    // The endpoint of decision 041 is gone: its address is a page like any other, and draws nothing.
    for (const path of [`/${live.slug}/get-code/draw`, "/random/draw"]) {
      expect((await postForm(`${server.url}${path}`, { intent: "draw" })).status, path).toBeGreaterThanOrEqual(400);
    }
    // Only a POST draws.
    expect((await fetch(`${server.url}/${live.slug}/get-code`)).status).toBe(200);
    expect(await counts(db)).toEqual(before);
  });

  it("the page's own action still draws (urlencoded; multipart is refused, as on every public form); another intent answers 400 in the visitor's language", async () => {
    const p = await createPlatform(db);
    await addCode(p.id, "MULTI1");
    await addCode(p.id, "MULTI2");
    const before = await counts(db);
    const other = await postForm(
      `${server.url}/${p.slug}/get-code`,
      { intent: "steal", extra: "x" },
      { headers: { "Accept-Language": "en" } },
    );
    expect(other.status).toBe(400);
    expect(await other.text()).toContain("Unknown action.");
    expect(await counts(db)).toEqual(before);

    const form = new FormData();
    form.set("intent", "draw");
    const multipart = await fetch(`${server.url}/${p.slug}/get-code`, {
      method: "POST",
      body: form,
      redirect: "manual",
      headers: { Origin: server.url, "Accept-Language": "en" },
    });
    expect(multipart.status).toBe(415);
    expect(await multipart.text()).toContain("this is not a form");
    expect(await counts(db)).toEqual(before);
    const urlencoded = await postForm(`${server.url}/${p.slug}/get-code`, { intent: "draw" });
    expect(urlencoded.status).toBe(303);
    expect(urlencoded.headers.get("location")).toMatch(new RegExp(`^/${p.slug}/get-code\\?draw=`));
    expect((await counts(db)).requests).toBe(before.requests + 1);
  });

  it("a draw that fails writes nothing; the page answers the visitor's error page, no stack trace", async () => {
    const p = await createPlatform(db);
    await addCode(p.id, "FAIL01");
    // A real failure in the real database: logging this code is refused.
    const allow = await refuseDrawLogOf(db, "FAIL01");
    try {
      const before = await counts(db);
      const res = await postForm(
        `${server.url}/${p.slug}/get-code`,
        { intent: "draw" },
        { headers: { "Accept-Language": "fr" } },
      );
      expect(res.status).toBe(500);
      const html = await res.text();
      expect(html).toContain("Une erreur est survenue");
      expect(html).not.toMatch(/refused|at .*\.js:\d+/);
      // The JS form's request gets Remix's own (sanitised) error answer, which its error boundary shows.
      const data = await postForm(`${server.url}/${p.slug}/get-code.data`, { intent: "draw" });
      expect(data.status).toBe(500);
      expect(data.headers.get("x-remix-response")).toBe("yes");
      expect(await data.text()).not.toContain("refused");
      expect(await counts(db)).toEqual(before);
      expect(
        await db.selectFrom("referral_codes").select("times_served").where("platform_id", "=", p.id).executeTakeFirstOrThrow(),
      ).toEqual({ times_served: 0 });
    } finally {
      await allow();
    }
  });

  it("a cross-site draw is refused before it draws", async () => {
    const p = await createPlatform(db);
    await addCode(p.id, "CROSS1");
    const before = await counts(db);
    for (const path of [`/${p.slug}/get-code`, `/${p.slug}/get-code.data`, "/random", "/random.data"]) {
      const res = await postForm(`${server.url}${path}`, { intent: "draw" }, { headers: { Origin: "https://evil.example" } });
      expect(res.status, path).toBe(403);
    }
    expect(await counts(db)).toEqual(before);
  });
});
