import crypto from "node:crypto";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~db/schema";
import { signInQuietly, startServerWithAdmin } from "../support/admin";
import { createCode, createPlatform as createTestPlatform, openTestDb } from "../support/fixtures";
import { cookiesFrom, postForm, type RunningServer } from "../support/server";

// Links are absolute on SITE_URL (what the test servers are given).
const SITE = "https://parrainly.test";

// The server trusts Fly-Client-IP here (TRUST_PROXY=1), so each answer comes from an address of its own.
let nextIp = 1;
// Each address in a /24 of its own: the pause and the cap count drawing networks (decision 315).
const freshIp = () => `${31 + Math.floor(nextIp / 250)}.0.${nextIp++ % 250}.1`;

/** React escapes apostrophes and quotes in text: read the page as a person does. */
const unescape = (html: string) => html.replaceAll("&#x27;", "'").replaceAll("&quot;", '"').replaceAll("&amp;", "&");

const FULL_OFFER = {
  offer_referee: "10 € offerts après le premier achat",
  offer_referee_en: "€10 after your first purchase",
  offer_referee_de: "",
  offer_referee_es: "10 € tras tu primera compra",
  offer_referrer: "",
  offer_referrer_en: "",
  offer_referrer_de: "",
  offer_referrer_es: "",
  offer_conditions: "Commander la carte sous 30 jours",
  offer_conditions_en: "Order the card within 30 days",
  offer_conditions_de: "",
  offer_conditions_es: "",
  offer_steps: "Ouvrez le lien\nCréez votre compte\n\nCommandez la carte",
  offer_steps_en: "Open the link\nSign up",
  offer_steps_de: "",
  offer_steps_es: "",
};

describe("offer, claim guide, failure reasons and freshness over HTTP", () => {
  let server: RunningServer;
  let db: Kysely<Database>;
  let admin: string;
  beforeAll(async () => {
    server = await startServerWithAdmin({ TRUST_PROXY: "1" });
    db = openTestDb(server.dbFile);
    admin = await signInQuietly(server);
  });
  afterAll(async () => {
    await db?.destroy();
    await server?.stop();
  });

  /** A page as a fresh visitor sees it (a cookie outside the page cache's keys: always rendered now). */
  const page = async (path: string, extraCookie = "") => {
    const res = await fetch(`${server.url}${path}`, { headers: { Cookie: `fresh=1${extraCookie}` } });
    return { status: res.status, html: unescape(await res.text()), res };
  };
  const createPlatform = () => createTestPlatform(db);
  const saveOffer = (id: number, fields: Record<string, string>) =>
    postForm(`${server.url}/admin/platforms`, { intent: "update-offer", id: String(id), ...fields }, { cookie: admin });

  /** Each draw's `draws` cookie: only the browser that drew may answer (decision 315). */
  const drawCookies = new Map<string, string>();
  async function draw(slug: string | null) {
    const path = slug ? `/${slug}/get-code` : "/random";
    const res = await postForm(`${server.url}${path}`, { intent: "draw" }, { headers: { "Fly-Client-IP": freshIp() } });
    expect(res.status).toBe(303);
    const location = res.headers.get("location")!;
    const token = new URL(location, server.url).searchParams.get("draw")!;
    drawCookies.set(token, cookiesFrom(res));
    return { path, location, token };
  }
  const answer = (path: string, fields: Record<string, string>, ip = freshIp()) => {
    const cookie = drawCookies.get(fields.draw ?? "");
    return postForm(
      `${server.url}${path}`,
      { intent: "report", ...fields },
      { headers: { "Fly-Client-IP": ip, ...(cookie ? { Cookie: cookie } : {}) } },
    );
  };
  const reportCount = async () =>
    Number(
      (
        await db
          .selectFrom("code_reports")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const codeRow = (id: number) => db.selectFrom("referral_codes").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

  it("the admin's offer form (no JS) writes every language; /{slug} shows it, hides empty fields, falls back to French", async () => {
    const p = await createPlatform();
    const checked = new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10);
    const res = await saveOffer(p.id, { ...FULL_OFFER, offer_checked_on: checked });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/admin/platforms");
    const row = await db.selectFrom("platform_offers").selectAll().where("platform_id", "=", p.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      offer_referee_en: "€10 after your first purchase",
      offer_referrer: null,
      offer_checked_on: checked,
    });

    const fr = await page(`/${p.slug}`);
    expect(fr.html).toContain('data-testid="platform-offer"');
    expect(fr.html).toMatch(/data-testid="offer-referee"[^>]*>10 € offerts après le premier achat</);
    // Empty fields are not shown at all.
    expect(fr.html).not.toContain('data-testid="offer-referrer"');
    // One step per non-empty line, in order.
    expect(fr.html).toMatch(/<li>Ouvrez le lien<\/li><li>Créez votre compte<\/li><li>Commandez la carte<\/li>/);
    expect(fr.html).toMatch(/data-testid="offer-checked" data-stale="false"[^>]*>Offre vérifiée le \d\d\/\d\d\/\d{4}\.</);

    const en = await page(`/${p.slug}?lng=en`);
    expect(en.html).toContain("€10 after your first purchase");
    expect(en.html).toMatch(/<li>Open the link<\/li><li>Sign up<\/li><\/ol>/);
    // German is empty: French is shown.
    const de = await page(`/${p.slug}?lng=de`);
    expect(de.html).toContain("10 € offerts après le premier achat");
    expect(de.html).toContain("Commander la carte sous 30 jours");

    // Structured data: a HowTo with its steps, the offers, and the checked-on day.
    const ld = [...fr.html.matchAll(/<script type="application\/ld\+json"[^>]*>(.*?)<\/script>/gs)].map((m) => JSON.parse(m[1]!));
    const howTo = ld.flat().find((d) => d["@type"] === "HowTo");
    expect(howTo).toMatchObject({ dateModified: checked, inLanguage: "fr", description: "Commander la carte sous 30 jours" });
    expect(howTo.step.map((s: { text: string }) => s.text)).toEqual([
      "Ouvrez le lien",
      "Créez votre compte",
      "Commandez la carte",
    ]);
    expect(howTo.offers).toEqual([
      { "@type": "Offer", description: "10 € offerts après le premier achat", url: expect.any(String) },
    ]);

    // The platform's editor page shows the form filled in.
    const tab = await fetch(`${server.url}/admin/platforms/${p.id}`, { headers: { Cookie: admin } }).then((r) => r.text());
    expect(tab).toContain(`data-testid="offer-editor-${p.id}"`);
    expect(tab).toContain(">Ouvrez le lien\nCréez votre compte\n\nCommandez la carte</textarea>");
  });

  it("a check older than 90 days is said; an offer with nothing in it shows nothing", async () => {
    const p = await createPlatform();
    expect((await saveOffer(p.id, { offer_referee: "Un mois offert", offer_checked_on: "2020-02-29" })).status).toBe(303);
    const { html } = await page(`/${p.slug}`);
    expect(html).toMatch(
      /data-testid="offer-checked" data-stale="true"[^>]*>Offre vérifiée le 29\/02\/2020, il y a plus de 90 jours/,
    );
    expect((await saveOffer(p.id, {})).status).toBe(303);
    expect((await page(`/${p.slug}`)).html).not.toContain('data-testid="platform-offer"');
  });

  it("what the admin writes stays text: escaped on the page and inside the structured data", async () => {
    const p = await createPlatform();
    const hostile = "</script><script>alert(1)</script><img src=x onerror=alert(2)>";
    expect((await saveOffer(p.id, { offer_referee: hostile, offer_steps: `javascript:alert(3)\n${hostile}` })).status).toBe(303);
    const res = await fetch(`${server.url}/${p.slug}`, { headers: { Cookie: "fresh=1" } });
    const raw = await res.text();
    expect(raw).not.toContain("<script>alert(1)");
    expect(raw).not.toContain("<img src=x");
    expect(raw).not.toContain('href="javascript:');
    expect(raw).toContain("&lt;/script&gt;&lt;script&gt;alert(1)");
  });

  it("bad offer input: 400 with the message next to the field, nothing written; unknown platform 404; strangers refused", async () => {
    const p = await createPlatform();
    for (const [fields, message] of [
      [{ offer_checked_on: "2026-13-45" }, "Date invalide (AAAA-MM-JJ)."],
      [{ offer_checked_on: "25/11/2026" }, "Date invalide (AAAA-MM-JJ)."],
      [{ offer_checked_on: "2999-01-01" }, "La date de vérification ne peut pas être dans le futur."],
      [{ offer_referee_en: "x".repeat(601) }, "Texte trop long."],
    ] as const) {
      const res = await saveOffer(p.id, { offer_referee: "Gardé ?", ...fields });
      expect(res.status).toBe(400);
      const html = await res.text();
      expect(html).toContain(message);
      // The admin's input is kept.
      expect(html).toContain("Gardé ?");
    }
    expect(
      await db.selectFrom("platform_offers").select("platform_id").where("platform_id", "=", p.id).executeTakeFirst(),
    ).toBeUndefined();
    expect((await saveOffer(999_999, { offer_referee: "x" })).status).toBe(404);
    const stranger = await postForm(`${server.url}/admin/platforms`, {
      intent: "update-offer",
      id: String(p.id),
      offer_referee: "x",
    });
    expect([302, 303, 401, 403]).toContain(stranger.status);
    expect(
      await db.selectFrom("platform_offers").select("platform_id").where("platform_id", "=", p.id).executeTakeFirst(),
    ).toBeUndefined();
  });

  it("every draw result carries the claim guide: the platform's result and /random's", async () => {
    const p = await createPlatform();
    await createCode(db, p.id, { code: "GUIDE1" });
    expect((await saveOffer(p.id, { offer_referee_en: "A free month", offer_steps: "Ouvrez le lien" })).status).toBe(303);
    // Before the draw, on the draw page, too.
    expect((await page(`/${p.slug}/get-code`)).html).toContain('data-testid="platform-offer"');
    const d = await draw(p.slug);
    const result = await page(d.location);
    expect(result.html).toContain('data-testid="claim-guide"');
    expect(result.html).toContain("<li>Ouvrez le lien</li>");
    // English result: the English referee text, the French steps (none in English).
    const en = await page(d.location, "; language=en");
    expect(en.html).toContain("A free month");
    expect(en.html).toContain("<li>Ouvrez le lien</li>");

    // /random: make this the only platform with a code left, then draw there.
    await db.updateTable("referral_codes").set({ is_active: 0 }).where("platform_id", "!=", p.id).execute();
    const r = await draw(null);
    const random = await page(r.location);
    expect(random.html).toContain('data-testid="drawn-code"');
    expect(random.html).toContain('data-testid="claim-guide"');
    expect(random.html).toContain("<li>Ouvrez le lien</li>");
  });

  it("the report forms: one button per reason, each stored; an unknown reason or a reason on 'worked' is a 400 that stores nothing", async () => {
    const p = await createPlatform();
    const code = await createCode(db, p.id);
    const d = await draw(p.slug);
    const { html } = await page(d.location);
    for (const reason of ["expired", "limit-reached", "wrong-region", "conditions-not-met", "other"]) {
      // Each reason is its own form: outcome=failed + that button's reason, one click without JS.
      expect(html).toMatch(
        new RegExp(
          `<input type="hidden" name="outcome" value="failed"/><button type="submit"[^>]*name="reason" value="${reason}"[^>]*data-testid="report-reason-${reason}"`,
        ),
      );
    }
    const before = await reportCount();
    for (const fields of [
      { outcome: "failed", reason: "no-idea" },
      { outcome: "failed", reason: "<script>" },
      { outcome: "worked", reason: "expired" },
    ]) {
      const res = await answer(d.path, { ...fields, draw: d.token });
      expect(res.status).toBe(400);
      const text = unescape(await res.text());
      expect(text).toMatch(
        /Raison inconnue\u00a0: choisissez l'un des boutons proposés\.|Une réponse « a fonctionné » ne prend pas de raison\./,
      );
    }
    expect(await reportCount()).toBe(before);
    const en = await postForm(
      `${server.url}${d.path}`,
      { intent: "report", outcome: "failed", reason: "nope", draw: d.token },
      { headers: { "Fly-Client-IP": freshIp(), Cookie: "language=en" } },
    );
    expect(en.status).toBe(400);
    expect(await en.text()).toContain("Unknown reason: choose one of the buttons offered.");

    expect((await answer(d.path, { outcome: "failed", reason: "wrong-region", draw: d.token })).status).toBe(303);
    const stored = await db.selectFrom("code_reports").select(["outcome", "reason"]).where("code_id", "=", code.id).execute();
    expect(stored).toEqual([{ outcome: "failed", reason: "wrong-region" }]);
  });

  it("wrong-region and conditions-not-met never pause a code: they show as hints on the platform page and the result", async () => {
    const p = await createPlatform();
    const code = await createCode(db, p.id);
    for (const reason of ["wrong-region", "wrong-region", "conditions-not-met", "wrong-region"]) {
      const d = await draw(p.slug);
      expect((await answer(d.path, { outcome: "failed", reason, draw: d.token })).status).toBe(303);
    }
    expect(await codeRow(code.id)).toMatchObject({ is_active: 1, paused_reason: null, capped_until: null });
    const { html } = await page(`/${p.slug}`);
    expect(html).toContain('data-testid="offer-hints"');
    expect(html).toContain("3 visiteurs ont signalé que l'offre n'est pas disponible dans leur région");
    expect(html).toContain("1 visiteur n'a pas rempli les conditions de l'offre");
  });

  it("limit-reached at the edge caps the code for the month: out of the draw, owner and admin see why; back when the month is over", async () => {
    const p = await createPlatform();
    const token = crypto.randomBytes(32).toString("base64url");
    const code = await createCode(db, p.id, {
      code: "CAPME1",
      owner_token_hash: crypto.createHash("sha256").update(token).digest("base64url"),
    });
    for (let i = 0; i < 3; i++) {
      const d = await draw(p.slug);
      expect((await answer(d.path, { outcome: "failed", reason: "limit-reached", draw: d.token })).status).toBe(303);
    }
    const now = new Date();
    const firstOfNext = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();
    expect(await codeRow(code.id)).toMatchObject({ is_active: 1, paused_reason: null, capped_until: firstOfNext });
    // Out of the draw: nothing to draw on this platform now.
    const none = await postForm(
      `${server.url}/${p.slug}/get-code`,
      { intent: "draw" },
      { headers: { "Fly-Client-IP": freshIp() } },
    );
    expect(none.status).toBe(200);
    expect(await none.text()).toContain('data-testid="no-code"');

    const owner = await page(`/my-code/${token}`);
    expect(owner.html).toMatch(/data-testid="owned-status" data-status="capped"[^>]*>Limite mensuelle atteinte</);
    expect(owner.html).toContain('data-testid="capped-why"');
    expect(owner.html).toMatch(/data-reason="limit-reached">limite atteinte\u00a0: 3</);

    const tab = await fetch(`${server.url}/admin/codes`, { headers: { Cookie: admin } }).then((r) => r.text());
    expect(tab).toContain('data-testid="capped-CAPME1"');
    expect(tab).toMatch(/data-testid="capped-state"[^>]*>de retour le \d\d\/\d\d\/\d{4}</);

    // The month is over (set in the data): the code is drawn again without anyone acting, and the
    // answers before the cap's end no longer count (one more 'limit reached' does not cap it again).
    await new Promise((resolve) => setTimeout(resolve, 20));
    const past = new Date().toISOString();
    await db
      .updateTable("referral_codes")
      .set({ capped_until: past, reports_reset_at: past })
      .where("id", "=", code.id)
      .execute();
    const d = await draw(p.slug);
    expect((await page(d.location)).html).toContain("CAPME1");
    expect((await answer(d.path, { outcome: "failed", reason: "limit-reached", draw: d.token })).status).toBe(303);
    // The draw lifted the ended cap, the code raised to the level of the others (issue 55).
    expect((await codeRow(code.id)).capped_until).toBeNull();
    expect((await page(`/my-code/${token}`)).html).toMatch(/data-testid="owned-status" data-status="active"/);
  });

  it("the admin can put a capped code back before the month is over", async () => {
    const p = await createPlatform();
    const code = await createCode(db, p.id, { code: "LIFTME", capped_until: "2999-01-01T00:00:00.000Z" });
    const tab = await fetch(`${server.url}/admin/codes`, { headers: { Cookie: admin } }).then((r) => r.text());
    expect(tab).toContain('data-testid="capped-LIFTME"');
    // Not destructive (the code only comes back sooner): no confirmation step, like "restore".
    const res = await postForm(`${server.url}/admin/codes`, { intent: "lift-cap", id: String(code.id) }, { cookie: admin });
    expect(res.status).toBe(303);
    expect((await codeRow(code.id)).capped_until).toBeNull();
    // A code that is not capped: nothing to lift.
    expect(
      (await postForm(`${server.url}/admin/codes`, { intent: "lift-cap", id: String(code.id) }, { cookie: admin })).status,
    ).toBe(404);
    expect(await codeRow(code.id)).toMatchObject({ is_active: 1, capped_until: null });
  });

  it("freshness: the share that worked and the time since the last 'worked' answer, from 5 answers", async () => {
    const p = await createPlatform();
    await createCode(db, p.id);
    for (let i = 0; i < 4; i++) {
      const d = await draw(p.slug);
      expect(
        (await answer(d.path, { outcome: i < 3 ? "worked" : "failed", reason: i < 3 ? "" : "other", draw: d.token })).status,
      ).toBe(303);
    }
    // 4 answers: no figure, no freshness.
    expect((await page(`/${p.slug}`)).html).not.toContain('data-testid="platform-last-worked"');
    const d = await draw(p.slug);
    expect((await answer(d.path, { outcome: "failed", reason: "wrong-region", draw: d.token })).status).toBe(303);
    // The last 'worked' answer was 3 hours ago (set in the data).
    const threeHoursAgo = new Date(Date.now() - 3 * 3600_000 - 60_000).toISOString();
    await db
      .updateTable("code_reports")
      .set({ created_at: threeHoursAgo })
      .where("platform_id", "=", p.id)
      .where("outcome", "=", "worked")
      .execute();
    const fr = await page(`/${p.slug}`);
    expect(fr.html).toMatch(/data-testid="answer-figure"[^>]*>Ça a marché pour 60 % des 5 réponses/);
    expect(fr.html).toMatch(/data-testid="platform-last-worked"[^>]*>A fonctionné il y a 3 heures</);
    const result = await page(d.location, "; language=en");
    expect(result.html).toMatch(/data-testid="platform-last-worked"[^>]*>Worked 3 hours ago</);
  });

  it("owner page: the place in the rotation as a range of draws and dates at the current pace, kept for the hour", async () => {
    const p = await createPlatform();
    const owned = (code: string, extra: Record<string, unknown>) => {
      const token = crypto.randomBytes(32).toString("base64url");
      const hash = crypto.createHash("sha256").update(token).digest("base64url");
      return createCode(db, p.id, { code, owner_token_hash: hash, ...extra }).then(() => token);
    };
    const token = await owned("MINE01", { draw_key: 0 });
    const before = await page(`/my-code/${token}`);
    expect(before.html).toMatch(/data-testid="owned-place"[^>]*>Au prochain tirage \(aucun tirage ces 7 derniers jours/);
    await createCode(db, p.id, { code: "OTHER1", draw_key: 2 ** 30 });
    await draw(p.slug); // serves ours (the smaller tie-break key): the other one now goes first
    // Not live (issue 55): the page says the same thing for the rest of the hour.
    const after = await page(`/my-code/${token}`);
    expect(after.html).toMatch(/data-testid="owned-place"[^>]*>Au prochain tirage \(aucun tirage ces 7 derniers jours/);
    expect(after.html).toMatch(/data-testid="reason-tally"[^>]*>aucun échec</);
    // A code worked out now: OTHER1 (fewer turns) first, then ours or it in a random order.
    const second = await owned("MINE02", { times_served: 1 });
    expect((await page(`/my-code/${second}`)).html).toMatch(
      /data-testid="owned-place"[^>]*>Prochain passage dans 2 à 3 tirages\u00a0; au rythme actuel, entre le \d\d\/\d\d\/\d{4} et le \d\d\/\d\d\/\d{4} \(estimation revue une fois par heure\)</,
    );
  });

  it("GET /api/platforms.json: active platforms with counts, answers, last worked and the offer in ?lng=; never a code", async () => {
    const p = await createPlatform();
    const hidden = await createTestPlatform(db, { is_active: 0 });
    await createCode(db, p.id, { code: "SECRETCODE1" });
    await createCode(db, hidden.id, { code: "SECRETCODE2" });
    expect(
      (await saveOffer(p.id, { offer_referee: "Dix euros", offer_referee_en: "Ten euros", offer_checked_on: "2026-01-02" }))
        .status,
    ).toBe(303);
    const d = await draw(p.slug);
    expect((await answer(d.path, { outcome: "worked", draw: d.token })).status).toBe(303);

    const res = await fetch(`${server.url}/api/platforms.json?lng=en`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.headers.get("cache-control")).toBe("public, max-age=60");
    const text = await res.text();
    expect(text).not.toContain("SECRETCODE");
    const body = JSON.parse(text);
    expect(body).toMatchObject({ language: "en", answers_window_days: 90, share_shown_from_answers: 5 });
    expect(body.platforms.find((x: { slug: string }) => x.slug === hidden.slug)).toBeUndefined();
    const entry = body.platforms.find((x: { slug: string }) => x.slug === p.slug);
    expect(entry).toMatchObject({
      name: p.name,
      url: `${SITE}/${p.slug}`,
      available_codes: 1,
      answers_90_days: 1,
      worked_percent_90_days: null,
      offer: { referee: "Ten euros", referrer: null, steps: [], checked_on: "2026-01-02" },
    });
    expect(Date.parse(entry.last_worked_at)).toBeGreaterThan(Date.now() - 60_000);
    const fr = await (await fetch(`${server.url}/api/platforms.json`)).json();
    expect(fr.platforms.find((x: { slug: string }) => x.slug === p.slug).offer.referee).toBe("Dix euros");

    const bad = await fetch(`${server.url}/api/platforms.json?lng=xx`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: "bad-language" });
  });

  it("GET /llms.txt describes the site and points at the platform pages and the JSON; /platforms links both", async () => {
    const p = await createPlatform();
    await createCode(db, p.id, { code: "NOTINLLMS" });
    const res = await fetch(`${server.url}/llms.txt`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    const text = await res.text();
    expect(text.startsWith("# Parrainly\n\n> ")).toBe(true);
    expect(text).toContain(`(${SITE}/api/platforms.json)`);
    expect(text).toContain(`- [${p.name}](${SITE}/${p.slug}): 1 codes available`);
    expect(text).not.toContain("NOTINLLMS");
    const list = await page("/platforms?lng=de");
    expect(list.html).toContain('href="/api/platforms.json?lng=de"');
    expect(list.html).toContain('href="/llms.txt"');
  });
});
