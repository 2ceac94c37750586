import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAsAdmin, startServerWithAdmin } from "../support/admin";
import { openRawDb } from "../support/fixtures";
import { tmpPath } from "../support/paths";
import { postForm, type RunningServer } from "../support/server";

/**
 * Every /admin page and every intent of the table refuses a stranger: GET is sent to the
 * login page, POST gets 403, and the database is byte-for-byte the same afterwards.
 * The ids posted are real rows, so a missing guard would show as a changed table.
 */
const PAGES = [
  "/admin",
  "/admin/assistant",
  "/admin/assistant/1",
  "/admin/codes",
  "/admin/codes?platform=tesla",
  "/admin/platforms",
  "/admin/platforms/new",
  "/admin/platforms/new?suggestion=1",
  "/admin/platforms/1",
  "/admin/partnerships",
  "/admin/requests",
  "/admin/deletions",
  "/admin/suggestions",
  "/admin/suggestions?reject=1",
  "/admin/scores",
  "/admin/settings",
  "/admin/no-such-tab",
];

const ID = "1";
const INTENTS: Array<[string, Record<string, string>]> = [
  ["/admin/codes", { intent: "toggle-active", id: ID }],
  ["/admin/codes", { intent: "toggle-permanent", id: ID }],
  ["/admin/codes", { intent: "set-expiry", id: ID, days: "3" }],
  ["/admin/codes", { intent: "update", id: ID, code: "HACKED123", referral_url: "" }],
  ["/admin/codes", { intent: "delete", id: ID, confirm: "yes" }],
  ["/admin/platforms", { intent: "toggle-active", id: ID }],
  ["/admin/platforms", { intent: "update", id: ID, name: "Hacked", slug: "hacked", code_pattern: ".*" }],
  ["/admin/platforms", { intent: "remove-logo", id: ID, variant: "light" }],
  ["/admin/platforms", { intent: "delete", id: ID, confirm: "yes" }],
  ["/admin/platforms/1", { intent: "update", id: ID, name: "Hacked", slug: "hacked", code_pattern: ".*" }],
  ["/admin/platforms/1", { intent: "update-offer", id: ID, offer_referee: "Hacked" }],
  ["/admin/platforms/new", { intent: "create", name: "Hacked", slug: "hacked", description: "x", code_pattern: ".*" }],
  ["/admin/platforms/new", { intent: "create", suggestion_id: ID, name: "Hacked", slug: "hacked-2", code_pattern: ".*" }],
  ["/admin/partnerships", { intent: "create", name: "Hacked", url: "https://evil.example", display_mode: "both" }],
  ["/admin/partnerships", { intent: "update", id: ID, name: "Hacked", url: "https://evil.example", display_mode: "both" }],
  ["/admin/partnerships", { intent: "delete", id: ID, confirm: "yes" }],
  ["/admin/partnerships", { intent: "move-up", id: ID }],
  ["/admin/partnerships", { intent: "move-down", id: ID }],
  ["/admin/deletions", { intent: "approve", id: ID }],
  ["/admin/deletions", { intent: "reject", id: ID }],
  ["/admin/deletions", { intent: "delete", id: ID, confirm: "yes" }],
  ["/admin/suggestions", { intent: "approve", id: ID }],
  ["/admin/suggestions", { intent: "reject", id: ID, confirm: "yes" }],
  ["/admin/scores", { intent: "update", id: ID, player_name: "Hacker", score: "999999" }],
  ["/admin/scores", { intent: "delete", id: ID, confirm: "yes" }],
  ["/admin/settings", { intent: "save", key: "enable_theme_toggle", value: "false" }],
  ["/admin/no-such-tab", { intent: "delete", id: ID, confirm: "yes" }],
  ["/admin/assistant", { intent: "send", message: "Bonjour", provider: "anthropic", conversation_id: "" }],
  ["/admin/assistant", { intent: "delete-conversation", conversation_id: ID, confirm: "yes" }],
  ["/admin/assistant/1", { intent: "send", message: "Bonjour", provider: "anthropic", conversation_id: ID }],
  ["/admin/assistant/stream", { intent: "send", message: "Bonjour", provider: "anthropic", conversation_id: "" }],
];

let server: RunningServer;
let uploads: string;
beforeAll(async () => {
  uploads = tmpPath("uploads");
  server = await startServerWithAdmin({ UPLOADS_DIR: uploads });
  // One row of each kind, id 1, so every intent above has something it could change.
  const db = openRawDb(server.dbFile);
  const now = new Date().toISOString();
  // Expiring in a year: the cleanup job (switched on below) has nothing to remove whenever it runs.
  const later = new Date(Date.now() + 365 * 86_400_000).toISOString();
  await db.run("insert into referral_codes (platform_id, code, expires_at, created_at) values (1, 'GUARDED1', ?, ?)", later, now);
  await db.run("insert into deletion_requests (code, platform_id, created_at) values ('GUARDED1', 1, ?)", now);
  await db.run("insert into platform_suggestions (name, normalized_name, created_at) values ('Guarded', 'guarded', ?)", now);
  await db.run(
    "insert into partnerships (name, url, display_order, created_at) values ('P1', 'https://p1.example', 0, ?), ('P2', 'https://p2.example', 1, ?)",
    now,
    now,
  );
  await db.run("insert into game_scores (player_name, score, device_type, created_at) values ('Alice', 10, 'desktop', ?)", now);
  await db.run("update settings set value = 'true' where key = 'enable_auto_cleanup'");
  await db.run("update platforms set custom_logo_light_url = '/uploads/kept.png' where id = 1");
  await db.close();
});
afterAll(async () => {
  await server?.stop();
});

/**
 * Every row of every table, in a stable order. rate_limits is left out: on PostgreSQL the refused
 * requests count in its windows (shared by the processes), which is not data an admin writes.
 */
async function dump(): Promise<string> {
  const db = openRawDb(server.dbFile);
  try {
    const tables = (await db.tables()).filter((name) => name !== "rate_limits");
    const rows = async (name: string) => (await db.all(`select * from "${name}"`)).map((row) => JSON.stringify(row)).sort();
    return JSON.stringify(await Promise.all(tables.map(async (name) => [name, await rows(name)])));
  } finally {
    await db.close();
  }
}

describe("strangers", () => {
  it.each(PAGES)("GET %s is redirected to the login page", async (page) => {
    const res = await fetch(`${server.url}${page}`, { redirect: "manual" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/admin/login?redirectTo=${encodeURIComponent(page)}`);
  });

  it("POST of every intent gets 403 and changes nothing, with or without a forged cookie", async () => {
    const before = await dump();
    const filesBefore = fs.readdirSync(uploads);
    for (const cookie of [undefined, "__session=forged.value; toast=x"]) {
      for (const [page, fields] of INTENTS) {
        const res = await postForm(`${server.url}${page}`, fields, { cookie });
        expect(res.status, `${page} ${fields.intent}`).toBe(403);
      }
      const body = new FormData();
      body.set("intent", "upload-logo");
      body.set("id", ID);
      body.set("variant", "dark");
      body.set(
        "file",
        new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0])], { type: "image/png" }),
        "x.png",
      );
      const upload = await fetch(`${server.url}/admin/platforms`, {
        method: "POST",
        body,
        redirect: "manual",
        headers: { Origin: server.url, ...(cookie ? { Cookie: cookie } : {}) },
      });
      expect(upload.status, "upload-logo").toBe(403);
    }
    expect(await dump()).toBe(before);
    expect(fs.readdirSync(uploads)).toEqual(filesBefore);
  });
});

describe("a signed-in admin from another origin", () => {
  it("is refused with 403 on catalog writes, nothing changes", async () => {
    const cookie = await signInAsAdmin(server);
    const before = await dump();
    for (const [page, fields] of INTENTS.filter(([p]) => /codes|platforms|deletions|suggestions/.test(p))) {
      const res = await postForm(`${server.url}${page}`, fields, { cookie, headers: { Origin: "https://evil.example" } });
      expect(res.status, `${page} ${fields.intent}`).toBe(403);
    }
    expect(await dump()).toBe(before);
  });
});
