import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "~db/schema";
import { RATE_LIMIT_WINDOW_MINUTES, RETENTION } from "~db/retention";
import { pseudonymKey } from "~db/repositories/pseudonym-keys.server";
import {
  forgetAnswerAddresses,
  removeDecidedDeletionRequests,
  removeDecidedSuggestions,
  removeDoneRemovalRequests,
  removeEndedRateLimits,
  removeOldVotes,
  runRetention,
} from "~db/repositories/retention.server";
import { runHistoryJob } from "~db/repositories/history.server";
import { onPostgres, useFreshDatabase, type DB } from "../support/db";
import { createCode, createPlatform, createUser, openTestDb } from "../support/fixtures";
import { ROOT } from "../support/paths";
import { cookiesFrom, postForm, startServer, type RunningServer } from "../support/server";
import { signInQuietly, startServerWithAdmin } from "../support/admin";

/**
 * What visitors are told about their data, and that it holds (issue 57, decisions 320-324), on both
 * databases: the privacy page from the publisher's settings and the retention list; each retention
 * job; the captcha and tags behind consent and never on private pages; pseudonyms under the month's
 * own key; removal requests without a code.
 */

const DAY_MS = 86_400_000;
const LANGUAGES = ["fr", "en", "de", "es"] as const;

/** The text of a page, as a reader sees it (tags out, entities back). */
function textOf(html: string): string {
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/g, "")
    .replace(/<[^>]+>/g, "")
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">");
}

type Tree = { [key: string]: string | Tree };
function legal(lng: string): Tree {
  return (JSON.parse(fs.readFileSync(path.join(ROOT, "app/locales", lng, "legal.json"), "utf8")) as Tree).privacy as Tree;
}
const at = (tree: Tree, dotted: string) =>
  dotted.split(".").reduce<string | Tree>((node, key) => (node as Tree)[key]!, tree) as string;
const fill = (text: string, values: Record<string, string | number>) =>
  text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name]));

const PUBLISHER = {
  publisher_name: "Camille Martin EI",
  publisher_email: "privacy@parrainly.example",
  publisher_address: "12 rue des Lilas, 75011 Paris",
  host_details: "Example Host SAS, 1 quai du Test, 69000 Lyon",
};

describe("the privacy page", () => {
  let server: RunningServer;
  let admin: string;
  const save = (key: string, value: string) =>
    postForm(`${server.url}/admin/settings`, { intent: "save", key, value }, { cookie: admin });

  beforeAll(async () => {
    server = await startServerWithAdmin();
    admin = await signInQuietly(server);
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("before the publisher fills the settings, says they are missing rather than leaving blanks", async () => {
    const text = textOf(await (await fetch(`${server.url}/privacy?lng=en`)).text());
    expect(text).toContain(
      fill(at(legal("en"), "controller.text"), {
        name: at(legal("en"), "controller.missing"),
        address: at(legal("en"), "controller.missing"),
      }),
    );
  });

  it("names controller, contact, basis, rights, the CNIL, recipients, transfers and each retention period, in four languages, from the settings", async () => {
    for (const [key, value] of Object.entries(PUBLISHER)) expect((await save(key, value)).status).toBe(303);
    for (const lng of LANGUAGES) {
      const res = await fetch(`${server.url}/privacy?lng=${lng}`);
      expect(res.status).toBe(200);
      const text = textOf(await res.text());
      const t = legal(lng);
      const values = {
        name: PUBLISHER.publisher_name,
        address: PUBLISHER.publisher_address,
        email: PUBLISHER.publisher_email,
        host: PUBLISHER.host_details,
      };
      // Controller and contact, from the settings; the legal notice with publisher and host.
      expect(text).toContain(fill(at(t, "controller.text"), values));
      expect(text).toContain(fill(at(t, "controller.contact"), values));
      expect(text).toContain(fill(at(t, "legal.publisher"), values));
      expect(text).toContain(fill(at(t, "legal.host"), values));
      // A legal basis for each processing, each of the four bases used.
      for (const basis of ["contract", "legitimate", "consent", "legal"])
        expect(text).toContain(at(t, `processing.bases.${basis}`));
      for (const item of ["answers", "suggestions", "limits", "assistant", "google"])
        expect(text).toContain(at(t, `processing.${item}`));
      // Every right, and the CNIL with its address and site.
      for (const right of ["access", "rectification", "erasure", "objection", "restriction", "portability", "withdraw"]) {
        expect(text).toContain(at(t, `rights.${right}`));
      }
      expect(text).toContain(at(t, "rights.complaint"));
      expect(text).toContain("3 place de Fontenoy");
      expect(text).toContain("www.cnil.fr");
      // Recipients: the host from its setting, Google, the AI provider of the settings; transfers and their safeguards.
      expect(text).toContain(fill(at(t, "recipients.host"), values));
      expect(text).toContain(at(t, "recipients.google"));
      expect(text).toContain(fill(at(t, "recipients.ai"), { provider: "Anthropic" }));
      expect(text).toContain(at(t, "transfers.text"));
      // Each retention period, the number the jobs read.
      const periods: Array<[string, number]> = [
        ["codesKept", 6],
        ["draws", RETENTION.drawDays],
        ["answers", RETENTION.answerDays],
        ["answerAddresses", RETENTION.answerAddressDays],
        ["votes", RETENTION.voteDays],
        ["suggestions", RETENTION.suggestionDays],
        ["deletions", RETENTION.deletionRequestDays],
        ["removals", RETENTION.removalRequestDays],
        ["scores", RETENTION.scoreDays],
        ["assistant", RETENTION.conversationDays],
        ["limits", RATE_LIMIT_WINDOW_MINUTES],
        ["keys", RETENTION.pseudonymKeyMonths],
        ["backups", RETENTION.backupHours],
      ];
      for (const [key, count] of periods) {
        const form = count === 1 ? "one" : "other";
        expect(text, `${lng} retention.${key}`).toContain(fill(at(t, `retention.${key}_${form}`), { count }));
      }
      // A pseudonym is called one, never "encrypted".
      expect(text).toContain(at(t, "pseudonyms.text"));
      expect(text).not.toMatch(/chiffrée|encrypted|verschlüsselt|cifrada/i);
    }
  });

  it("says what the cleanup setting does: codes removed at expiry only when it is on", async () => {
    expect((await save("enable_auto_cleanup", "true")).status).toBe(303);
    const on = textOf(await (await fetch(`${server.url}/privacy?lng=en`)).text());
    expect(on).toContain(fill(at(legal("en"), "retention.codesCleanup_other"), { count: 6 }));
    expect(on).not.toContain(fill(at(legal("en"), "retention.codesKept_other"), { count: 6 }));
    expect((await save("enable_auto_cleanup", "false")).status).toBe(303);
    const off = textOf(await (await fetch(`${server.url}/privacy?lng=en`)).text());
    expect(off).toContain(fill(at(legal("en"), "retention.codesKept_other"), { count: 6 }));
  });

  it("a removal request without a code reaches the admin; a short or hidden-field one writes nothing", async () => {
    const address = { "X-Forwarded-For": "203.0.113.57" };
    const details = `Please remove my game nickname "Zorro${crypto.randomBytes(3).toString("hex")}" saved on 3 December around 21:00.`;
    const short = await postForm(`${server.url}/privacy?lng=en`, { details: "remove" }, { headers: address });
    expect(short.status).toBe(400);
    expect(textOf(await short.text())).toContain(at(legal("en"), "removal.errors.tooShort"));
    const bot = await postForm(`${server.url}/privacy`, { details, website_confirm: "x" }, { headers: address });
    expect(bot.status).toBe(400);
    let list = await (await fetch(`${server.url}/admin/deletions`, { headers: { Cookie: admin } })).text();
    expect(list).not.toContain("Zorro");

    const sent = await postForm(`${server.url}/privacy`, { details }, { headers: address });
    expect(sent.status).toBe(303);
    list = textOf(await (await fetch(`${server.url}/admin/deletions`, { headers: { Cookie: admin } })).text());
    expect(list).toContain(details);

    // The admin marks it done: it leaves the queue.
    const db = openTestDb(server.dbFile);
    try {
      const row = await db
        .selectFrom("removal_requests")
        .select(["id", "status"])
        .where("details", "=", details)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe("pending");
      expect(
        (await postForm(`${server.url}/admin/deletions`, { intent: "removal-done", id: String(row.id) }, { cookie: admin }))
          .status,
      ).toBe(303);
      const after = await db
        .selectFrom("removal_requests")
        .select(["status", "resolved_at"])
        .where("id", "=", row.id)
        .executeTakeFirstOrThrow();
      expect(after.status).toBe("done");
      expect(after.resolved_at).not.toBeNull();
      list = textOf(await (await fetch(`${server.url}/admin/deletions`, { headers: { Cookie: admin } })).text());
      expect(list).not.toContain(details);
    } finally {
      await db.destroy();
    }
  });
});

describe("retention jobs", () => {
  let db: DB;
  const now = new Date();
  const ago = (days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();

  beforeEach(async () => {
    ({ db } = await useFreshDatabase());
  });

  it("answers: the address pseudonym past its period is emptied, on the answers a code keeps too; newer ones stay", async () => {
    const p = await createPlatform(db);
    const code = await createCode(db, p.id);
    // One answer per draw.
    const answer = async (days: number, hash: string) => {
      const draw = await db
        .insertInto("random_requests")
        .values({ platform_id: p.id, served_code_id: code.id, served_code: code.code, created_at: ago(days) })
        .returning("id")
        .executeTakeFirstOrThrow();
      await db
        .insertInto("code_reports")
        .values({
          random_request_id: draw.id,
          code_id: code.id,
          platform_id: p.id,
          outcome: "failed",
          ip_hash: hash,
          created_at: ago(days),
        })
        .execute();
    };
    await answer(RETENTION.answerAddressDays + 1, "old-a");
    await answer(RETENTION.answerAddressDays + 30, "old-b");
    await answer(RETENTION.answerAddressDays - 1, "recent");
    expect(await forgetAnswerAddresses(now, 1, db)).toBe(2);
    const hashes = (await db.selectFrom("code_reports").select("ip_hash").orderBy("created_at").execute()).map((r) => r.ip_hash);
    // The rows stay (a code's last answers feed the pause rule), their pseudonyms do not.
    expect(hashes).toEqual(["", "", "recent"]);
    // The next run starts where this one stopped: nothing more to do.
    expect(await forgetAnswerAddresses(now, 1, db)).toBe(0);
  });

  it("votes past their period go, the suggestion keeps its count; decided suggestions past theirs go, pending ones stay", async () => {
    const suggestion = (status: "pending" | "approved" | "rejected", days: number) =>
      db
        .insertInto("platform_suggestions")
        .values({
          name: `S${crypto.randomUUID()}`,
          normalized_name: crypto.randomUUID(),
          status,
          votes_count: 2,
          created_at: ago(days),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
    const open = await suggestion("pending", RETENTION.suggestionDays + 10);
    const old = await suggestion("rejected", RETENTION.suggestionDays + 1);
    const approvedOld = await suggestion("approved", RETENTION.suggestionDays + 1);
    const recent = await suggestion("approved", RETENTION.suggestionDays - 1);
    const vote = (suggestionId: number, days: number) =>
      db
        .insertInto("platform_suggestion_votes")
        .values({
          suggestion_id: suggestionId,
          ip_hash: crypto.randomUUID(),
          client_fingerprint: crypto.randomUUID(),
          created_at: ago(days),
        })
        .execute();
    await vote(open.id, RETENTION.voteDays + 1);
    await vote(open.id, RETENTION.voteDays - 1);
    expect(await removeOldVotes(now, 1, db)).toBe(1);
    expect(await db.selectFrom("platform_suggestion_votes").select("created_at").execute()).toEqual([
      { created_at: ago(RETENTION.voteDays - 1) },
    ]);
    expect(
      (await db.selectFrom("platform_suggestions").select("votes_count").where("id", "=", open.id).executeTakeFirstOrThrow())
        .votes_count,
    ).toBe(2);

    expect(await removeDecidedSuggestions(now, 1, db)).toBe(2);
    const left = (await db.selectFrom("platform_suggestions").select("id").orderBy("id").execute()).map((r) => r.id);
    expect(left).toEqual([open.id, recent.id]);
    expect(left).not.toContain(old.id);
    expect(left).not.toContain(approvedOld.id);
  });

  it("deletion and removal requests go their period after they were decided; pending ones wait for the admin", async () => {
    const p = await createPlatform(db);
    const deletion = (status: "pending" | "approved" | "rejected", resolvedDays: number | null) =>
      db
        .insertInto("deletion_requests")
        .values({
          code: "X",
          platform_id: p.id,
          reason: "a reason",
          status,
          created_at: ago(400),
          resolved_at: resolvedDays === null ? null : ago(resolvedDays),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
    const pending = await deletion("pending", null);
    await deletion("approved", RETENTION.deletionRequestDays + 1);
    await deletion("rejected", RETENTION.deletionRequestDays + 1);
    const fresh = await deletion("rejected", RETENTION.deletionRequestDays - 1);
    expect(await removeDecidedDeletionRequests(now, 1, db)).toBe(2);
    expect((await db.selectFrom("deletion_requests").select("id").orderBy("id").execute()).map((r) => r.id)).toEqual([
      pending.id,
      fresh.id,
    ]);

    const removal = (status: "pending" | "done", resolvedDays: number | null) =>
      db
        .insertInto("removal_requests")
        .values({
          details: "my nickname",
          status,
          created_at: ago(400),
          resolved_at: resolvedDays === null ? null : ago(resolvedDays),
        })
        .returning("id")
        .executeTakeFirstOrThrow();
    const waiting = await removal("pending", null);
    await removal("done", RETENTION.removalRequestDays + 1);
    const recentDone = await removal("done", RETENTION.removalRequestDays - 1);
    expect(await removeDoneRemovalRequests(now, 1, db)).toBe(1);
    expect((await db.selectFrom("removal_requests").select("id").orderBy("id").execute()).map((r) => r.id)).toEqual([
      waiting.id,
      recentDone.id,
    ]);
  });

  it("game scores and assistant conversations go their period after (the history job, by the same list)", async () => {
    await db
      .insertInto("game_scores")
      .values([
        { player_name: "old", score: 1, device_type: "mobile", created_at: ago(RETENTION.scoreDays + 1) },
        { player_name: "new", score: 2, device_type: "mobile", created_at: ago(RETENTION.scoreDays - 1) },
      ])
      .execute();
    const user = await createUser(db, { admin: true });
    const conversation = (days: number) =>
      db
        .insertInto("assistant_conversations")
        .values({
          user_id: user.id,
          title: `c${days}`,
          provider: "anthropic",
          model: "m",
          created_at: ago(days),
          updated_at: ago(days),
        })
        .execute();
    await conversation(RETENTION.conversationDays + 1);
    await conversation(RETENTION.conversationDays - 1);
    await runHistoryJob({ now, pauseMs: 0, db });
    expect((await db.selectFrom("game_scores").select("player_name").execute()).map((r) => r.player_name)).toEqual(["new"]);
    expect((await db.selectFrom("assistant_conversations").select("title").execute()).map((r) => r.title)).toEqual([
      `c${RETENTION.conversationDays - 1}`,
    ]);
  });

  it("pseudonym keys: the month's key is made once and kept; a past month's key is removed", async () => {
    const key = await pseudonymKey(now, db);
    expect(await pseudonymKey(now, db)).toEqual(key);
    const lastMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 15));
    const old = await pseudonymKey(lastMonth, db);
    expect(old).not.toEqual(key);
    const summary = await runRetention({ now, batch: 10 }, db);
    expect(summary.pseudonymKeys).toBe(1);
    expect((await db.selectFrom("pseudonym_keys").select("period").execute()).map((r) => r.period)).toEqual([
      now.toISOString().slice(0, 7),
    ]);
  });

  it.runIf(onPostgres)("rate-limit windows that ended are removed (PostgreSQL)", async () => {
    await db
      .insertInto("rate_limits")
      .values([
        { key: "ended", points: 1, expire: now.getTime() - 1 },
        { key: "open", points: 1, expire: now.getTime() + 60_000 },
      ])
      .execute();
    expect(await removeEndedRateLimits(now, db)).toBe(1);
    expect((await db.selectFrom("rate_limits").select("key").execute()).map((r) => r.key)).toEqual(["open"]);
  });
});

describe("pseudonyms and third parties over HTTP", () => {
  let server: RunningServer;
  let db: Kysely<Database>;
  let verifier: http.Server;
  const verified: string[] = [];
  let slug: string;

  beforeAll(async () => {
    verifier = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        verified.push(body);
        res.setHeader("Content-Type", "application/json");
        res.end(JSON.stringify({ success: new URLSearchParams(body).get("response") === "good-token" }));
      });
    });
    await new Promise<void>((resolve) => verifier.listen(0, "127.0.0.1", resolve));
    // Settings are cached per process: migrate, write them, then start for real.
    const first = await startServer();
    await first.stop();
    const setup = openTestDb(first.dbFile);
    const at = new Date().toISOString();
    for (const [key, value] of [
      ["google_recaptcha_site_key", "test-site-key"],
      ["gtm_id", "GTM-PRIV123"],
    ]) {
      await setup
        .insertInto("settings")
        .values({ key: key!, value: value!, updated_at: at })
        .onConflict((oc) => oc.column("key").doUpdateSet({ value: value! }))
        .execute();
    }
    await setup.destroy();
    server = await startServer({
      DATABASE_FILE: first.dbFile,
      RECAPTCHA_VERIFY_URL: `http://127.0.0.1:${(verifier.address() as AddressInfo).port}/recaptcha/api/siteverify`,
      RECAPTCHA_SECRET_KEY: "test-secret",
      TRUST_PROXY: "1",
    });
    db = openTestDb(server.dbFile);
    slug = (await createPlatform(db)).slug;
  });
  afterAll(async () => {
    await db?.destroy();
    await server?.stop();
    await new Promise((resolve) => verifier?.close(resolve));
  });

  const GOOGLE = /googletagmanager\.com|google\.com\/recaptcha|googlesyndication\.com|gstatic\.com/;

  it("consent refused or not given: /submit loads nothing of Google's, and a submission goes through without sending the address to Google", async () => {
    for (const cookie of ["", "consent=denied"]) {
      const html = await (await fetch(`${server.url}/submit`, { headers: { Cookie: cookie } })).text();
      expect(html).not.toMatch(GOOGLE);
      expect(html).toContain('data-testid="captcha-off"');
    }
    const code = `PRIV${crypto.randomBytes(3).toString("hex").toUpperCase()}`;
    const res = await postForm(
      `${server.url}/submit`,
      { intent: "submit", platform: slug, code },
      { cookie: "consent=denied", headers: { "X-Forwarded-For": "198.51.100.23" } },
    );
    expect(res.status).toBe(303);
    expect(verified).toEqual([]);
    // The honeypot still stands in.
    const bot = await postForm(
      `${server.url}/submit`,
      { intent: "submit", platform: slug, code: `${code}B`, website_confirm: "x" },
      { cookie: "consent=denied" },
    );
    expect(bot.status).toBe(400);
  });

  it("consent given: the captcha loads and is checked", async () => {
    const html = await (await fetch(`${server.url}/submit`, { headers: { Cookie: "consent=granted" } })).text();
    expect(html).toContain("https://www.google.com/recaptcha/api.js");
    const missing = await postForm(
      `${server.url}/submit`,
      { intent: "submit", platform: slug, code: "PRIVGRANT1" },
      { cookie: "consent=granted" },
    );
    expect(missing.status).toBe(400);
    const good = await postForm(
      `${server.url}/submit`,
      { intent: "submit", platform: slug, code: "PRIVGRANT1", "g-recaptcha-response": "good-token" },
      { cookie: "consent=granted" },
    );
    expect(good.status).toBe(303);
    expect(verified).toHaveLength(1);
  });

  it("consent given: tags on a public page, never on a code's owner page, a draw page or its result, /random or /submit", async () => {
    const granted = { headers: { Cookie: "consent=granted" } };
    expect(await (await fetch(`${server.url}/privacy`, granted)).text()).toContain("googletagmanager.com/gtm.js?id=GTM-PRIV123");
    const token = crypto.randomBytes(32).toString("base64url");
    await createCode(db, (await db.selectFrom("platforms").select("id").where("slug", "=", slug).executeTakeFirstOrThrow()).id, {
      code: "OWNERPRIV1",
      owner_token_hash: crypto.createHash("sha256").update(token).digest("base64url"),
    });
    const drawn = await postForm(`${server.url}/${slug}/get-code`, { intent: "draw" });
    expect(drawn.status).toBe(303);
    const result = drawn.headers.get("location")!;
    expect(result).toContain("?draw=");
    for (const page of [`/my-code/${token}`, result, `/${slug}/get-code`, "/random", "/submit"]) {
      const res = await fetch(`${server.url}${page}`, granted);
      expect(res.status, page).toBe(200);
      const html = await res.text();
      expect(html, page).not.toContain("googletagmanager.com");
      expect(res.headers.get("content-security-policy"), page).not.toContain("googletagmanager.com");
    }
  });

  it("an answer's address is stored as a pseudonym under the month's own key, not the session secret", async () => {
    const drawn = await postForm(`${server.url}/${slug}/get-code`, { intent: "draw" });
    const location = new URL(drawn.headers.get("location")!, server.url);
    const res = await postForm(
      `${server.url}${location.pathname}`,
      { intent: "report", outcome: "worked", draw: location.searchParams.get("draw")! },
      // The browser that drew answers (its draws cookie, decision 315).
      { headers: { "X-Forwarded-For": "192.0.2.44", cookie: cookiesFrom(drawn) } },
    );
    expect(res.status).toBe(303);
    const row = await db.selectFrom("code_reports").select("ip_hash").orderBy("id", "desc").executeTakeFirstOrThrow();
    const key = await db.selectFrom("pseudonym_keys").select(["period", "secret"]).executeTakeFirstOrThrow();
    expect(key.period).toBe(new Date().toISOString().slice(0, 7));
    const expected = crypto
      .createHmac("sha256", Buffer.from(key.secret, "base64url"))
      .update("report-address:192.0.2.44")
      .digest("base64url");
    expect(row.ip_hash).toBe(expected);
    // Not the former hash, keyed by the session secret.
    const former = crypto
      .createHmac(
        "sha256",
        crypto.createHmac("sha256", "integration-secret-0123456789").update("parrainly:report-address").digest(),
      )
      .update("192.0.2.44")
      .digest("base64url");
    expect(row.ip_hash).not.toBe(former);
  });

  it.runIf(onPostgres)("PostgreSQL's rate_limits holds no address, only pseudonyms", async () => {
    await postForm(
      `${server.url}/submit`,
      { intent: "submit", platform: slug, code: "" },
      { headers: { "X-Forwarded-For": "198.51.100.99" } },
    );
    const keys = (await db.selectFrom("rate_limits").select("key").execute()).map((r) => r.key);
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) expect(key).not.toMatch(/198\.51\.100|\d+\.\d+\.\d+\.\d+|::/);
  });
});
