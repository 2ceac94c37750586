import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInQuietly, startServerWithAdmin } from "../support/admin";
import { withRawDb } from "../support/fixtures";
import { cookiesFrom, postForm, type RunningServer } from "../support/server";

let server: RunningServer;
let cookie: string;
beforeAll(async () => {
  server = await startServerWithAdmin();
  cookie = await signInQuietly(server);
});
afterAll(async () => {
  await server?.stop();
});

const all = <T>(query: string, ...params: unknown[]) => withRawDb(server.dbFile, (db) => db.all<T>(query, ...params));
const post = (path: string, fields: Record<string, string>) => postForm(`${server.url}${path}`, fields, { cookie });
/** GET as the admin; `after` is the redirect that carries a toast cookie to read. */
const get = (path: string, after?: Response) =>
  fetch(`${server.url}${path}`, { headers: { Cookie: after ? cookiesFrom(after, cookie) : cookie }, redirect: "manual" });

type PartnershipRow = {
  id: number;
  name: string;
  url: string;
  logo_url: string | null;
  display_mode: string;
  is_active: number;
  display_order: number;
  description: string | null;
  description_en?: string | null;
  description_de?: string | null;
  description_es?: string | null;
};
const partnerships = () => all<PartnershipRow>("select * from partnerships order by display_order, id");

describe("partnerships tab", () => {
  it("creates a partnership at the end of the list, with a toast after the redirect", async () => {
    const before = (await partnerships()).length;
    const res = await post("/admin/partnerships", {
      intent: "create",
      name: "  Keepa ",
      url: "https://keepa.com/",
      display_mode: "name",
      is_active: "on",
    });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/admin/partnerships");
    const row = (await partnerships()).find((p) => p.name === "Keepa")!;
    expect(row).toMatchObject({
      url: "https://keepa.com/",
      display_mode: "name",
      is_active: 1,
      display_order: before,
      logo_url: null,
    });
    const page = await get("/admin/partnerships", res);
    const html = await page.text();
    expect(html).toContain("Partenariat créé");
    expect(html).toContain("Keepa");
  });

  it("defaults display_mode to both and is_active off when unchecked", async () => {
    await post("/admin/partnerships", { intent: "create", name: "Defaults", url: "http://defaults.example/" });
    expect((await partnerships()).find((p) => p.name === "Defaults")).toMatchObject({ display_mode: "both", is_active: 0 });
  });

  it.each([
    [{ name: "   ", url: "https://a.example/" }, "Le nom et l&#x27;URL sont obligatoires"],
    [{ name: "NoUrl" }, "Le nom et l&#x27;URL sont obligatoires"],
    [{ name: "Evil", url: "javascript:alert(1)" }, "L&#x27;URL doit commencer par http:// ou https://."],
    [
      { name: "EvilLogo", url: "https://ok.example/", logo_url: "data:image/png;base64,AAAA" },
      "L&#x27;URL du logo doit commencer",
    ],
    [{ name: "Mode", url: "https://ok.example/", display_mode: "huge" }, "Choisissez logo, nom ou les deux."],
  ] as Array<[Record<string, string>, string]>)(
    "refuses %j with 400, the message and the input kept, writing nothing",
    async (fields, message) => {
      const before = await partnerships();
      const res = await post("/admin/partnerships", { intent: "create", ...fields });
      expect(res.status).toBe(400);
      const html = await res.text();
      expect(html).toContain(message);
      if (fields.url) expect(html).toContain(`value="${fields.url.replace(/&/g, "&amp;")}"`);
      expect(await partnerships()).toEqual(before);
    },
  );

  it("updates a partnership; a rejected update keeps the row as it was", async () => {
    await post("/admin/partnerships", { intent: "create", name: "ToEdit", url: "https://edit.example/", is_active: "on" });
    const row = (await partnerships()).find((p) => p.name === "ToEdit")!;
    const bad = await post("/admin/partnerships", {
      intent: "update",
      id: String(row.id),
      name: "",
      url: "https://changed.example/",
    });
    expect(bad.status).toBe(400);
    const html = await bad.text();
    expect(html).toContain("Le nom et l&#x27;URL sont obligatoires");
    expect(html).toContain('value="https://changed.example/"');
    expect((await partnerships()).find((p) => p.id === row.id)).toEqual(row);

    const ok = await post("/admin/partnerships", {
      intent: "update",
      id: String(row.id),
      name: "Edited",
      url: "https://edited.example/",
      logo_url: "https://edited.example/logo.png",
      description: "Une remise",
      display_mode: "logo",
    });
    expect(ok.status).toBe(303);
    expect((await partnerships()).find((p) => p.id === row.id)).toMatchObject({
      name: "Edited",
      url: "https://edited.example/",
      logo_url: "https://edited.example/logo.png",
      description: "Une remise",
      display_mode: "logo",
      is_active: 0,
      display_order: row.display_order,
    });
    const page = await get("/admin/partnerships", ok);
    expect(await page.text()).toContain("Partenariat mis à jour");
  });

  it("a partnership has a description per language; the public pages show the visitor's, French when it is empty", async () => {
    const res = await post("/admin/partnerships", {
      intent: "create",
      name: "Polyglot",
      url: "https://polyglot.example/",
      description: "Remise en français",
      description_en: "Discount in English",
      description_de: "Rabatt auf Deutsch",
      description_es: "",
      is_active: "on",
    });
    expect(res.status).toBe(303);
    expect((await partnerships()).find((p) => p.name === "Polyglot")).toMatchObject({
      description: "Remise en français",
      description_en: "Discount in English",
      description_de: "Rabatt auf Deutsch",
      description_es: null,
    });
    const page = async (path: string) => (await fetch(`${server.url}${path}`)).text();
    for (const path of ["/partnerships", "/"]) {
      const en = await page(`${path}?lng=en`);
      expect(en).toContain("Discount in English");
      expect(en).not.toContain("Remise en français");
      expect(await page(`${path}?lng=de`)).toContain("Rabatt auf Deutsch");
      expect(await page(`${path}?lng=es`)).toContain("Remise en français");
      expect(await page(`${path}?lng=fr`)).toContain("Remise en français");
    }
    // The admin form has the four fields, filled.
    const admin = await (await get("/admin/partnerships")).text();
    for (const name of ["description", "description_en", "description_de", "description_es"])
      expect(admin).toMatch(new RegExp(`<textarea[^>]*name="${name}"`));
  });

  it("answers an unknown id with 404 and a malformed one with 400, never 500", async () => {
    expect(
      (await post("/admin/partnerships", { intent: "update", id: "999999", name: "X", url: "https://x.example/" })).status,
    ).toBe(404);
    expect((await post("/admin/partnerships", { intent: "delete", id: "999999", confirm: "yes" })).status).toBe(404);
    expect((await post("/admin/partnerships", { intent: "move-up", id: "999999" })).status).toBe(404);
    expect((await post("/admin/partnerships", { intent: "delete", id: "abc" })).status).toBe(400);
    expect((await post("/admin/partnerships", { intent: "delete" })).status).toBe(400);
    expect((await post("/admin/partnerships", { intent: "explode", id: "1" })).status).toBe(400);
  });

  it("moves a partnership up and down by swapping with its neighbour", async () => {
    for (const name of ["M1", "M2", "M3"])
      await post("/admin/partnerships", { intent: "create", name, url: `https://${name}.example/` });
    const names = async () => (await partnerships()).map((p) => p.name).filter((n) => /^M\d$/.test(n));
    const id = async (name: string) => String((await partnerships()).find((p) => p.name === name)!.id);
    expect(await names()).toEqual(["M1", "M2", "M3"]);
    const up = await post("/admin/partnerships", { intent: "move-up", id: await id("M3") });
    expect(up.status).toBe(303);
    expect(await names()).toEqual(["M1", "M3", "M2"]);
    await post("/admin/partnerships", { intent: "move-down", id: await id("M1") });
    expect(await names()).toEqual(["M3", "M1", "M2"]);
    // Orders stay distinct, so every later move is exactly one place.
    const orders = (await partnerships()).map((p) => p.display_order);
    expect(new Set(orders).size).toBe(orders.length);
    // The last one cannot go further down: nothing changes.
    const last = (await partnerships()).at(-1)!;
    const edge = await post("/admin/partnerships", { intent: "move-down", id: String(last.id) });
    expect(edge.status).toBe(303);
    expect((await partnerships()).at(-1)!.id).toBe(last.id);
  });

  it("deletes a partnership", async () => {
    await post("/admin/partnerships", { intent: "create", name: "ToDelete", url: "https://delete.example/" });
    const row = (await partnerships()).find((p) => p.name === "ToDelete")!;
    // Without the confirmation (no JS), the page asks first and nothing is deleted.
    const ask = await post("/admin/partnerships", { intent: "delete", id: String(row.id) });
    expect(ask.status).toBe(303);
    expect(ask.headers.get("location")).toBe(`/admin/partnerships?delete=${row.id}`);
    expect((await partnerships()).some((p) => p.id === row.id)).toBe(true);
    expect(await (await get(`/admin/partnerships?delete=${row.id}`, ask)).text()).toContain('role="alertdialog"');
    const res = await post("/admin/partnerships", { intent: "delete", id: String(row.id), confirm: "yes" });
    expect(res.status).toBe(303);
    expect((await partnerships()).some((p) => p.id === row.id)).toBe(false);
    expect(await (await get("/admin/partnerships", res)).text()).toContain("Partenariat supprimé");
  });
});

type ScoreRow = { id: number; player_name: string; score: number };
async function insertScore(name: string, score: number, createdAt = new Date().toISOString()): Promise<number> {
  const [row] = await all<{ id: number }>(
    "insert into game_scores (player_name, score, device_type, created_at) values (?, ?, 'desktop', ?) returning id",
    name,
    score,
    createdAt,
  );
  return row!.id;
}
const score = async (id: number) => (await all<ScoreRow>("select id, player_name, score from game_scores where id = ?", id))[0];

describe("scores tab", () => {
  it("lists scores newest first", async () => {
    await insertScore("Ancien", 10, "2020-01-01T00:00:00.000Z");
    await insertScore("Recent", 20);
    const html = await (await get("/admin/scores")).text();
    expect(html.indexOf("Recent")).toBeGreaterThan(0);
    expect(html.indexOf("Recent")).toBeLessThan(html.indexOf("Ancien"));
  });

  it("shows a pseudo as text, escaped, never as markup", async () => {
    await insertScore("<b onclick=a>x</b>", 30);
    const html = await (await get("/admin/scores")).text();
    expect(html).not.toContain("<b onclick");
    expect(html).toContain("&lt;b onclick=a&gt;x&lt;/b&gt;");
  });

  it("updates player_name (trimmed) and score", async () => {
    const id = await insertScore("Avant", 5);
    const res = await post("/admin/scores", { intent: "update", id: String(id), player_name: "  Après ", score: "1234" });
    expect(res.status).toBe(303);
    expect(await score(id)).toEqual({ id, player_name: "Après", score: 1234 });
    expect(await (await get("/admin/scores", res)).text()).toContain("Score modifié");
  });

  it.each([
    [{ player_name: "   ", score: "10" }, "Le pseudo doit contenir de 1 à 20 caractères."],
    [{ player_name: "x".repeat(21), score: "10" }, "Le pseudo doit contenir de 1 à 20 caractères."],
    [{ player_name: "bad\u0007name", score: "10" }, "Le pseudo contient des caractères non autorisés."],
    [{ player_name: "Ok", score: "-1" }, "Le score doit être un nombre entier positif ou nul."],
    [{ player_name: "Ok", score: "1.5" }, "Le score doit être un nombre entier positif ou nul."],
    [{ player_name: "Ok", score: "abc" }, "Le score doit être un nombre entier positif ou nul."],
    [{ player_name: "Ok" }, "Le score doit être un nombre entier positif ou nul."],
  ] as Array<[Record<string, string>, string]>)(
    "refuses %j with 400 and the message, writing nothing",
    async (fields, message) => {
      const id = await insertScore("Intact", 7);
      const res = await post("/admin/scores", { intent: "update", id: String(id), ...fields });
      expect(res.status).toBe(400);
      const html = await res.text();
      expect(html).toContain(message);
      if (fields.score) expect(html).toContain(`value="${fields.score}"`);
      expect(await score(id)).toEqual({ id, player_name: "Intact", score: 7 });
    },
  );

  it("refuses a form holding U+0000 (SQLite's length() stops at it) with 400, writing nothing", async () => {
    const id = await insertScore("Intact", 7);
    const res = await post("/admin/scores", { intent: "update", id: String(id), player_name: "\u0000", score: "10" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("le formulaire reçu est illisible");
    expect(await score(id)).toEqual({ id, player_name: "Intact", score: 7 });
  });

  it("deletes a score; unknown ids answer 404", async () => {
    const id = await insertScore("Bye", 1);
    const ask = await post("/admin/scores", { intent: "delete", id: String(id) });
    expect(ask.headers.get("location")).toBe(`/admin/scores?delete=${id}`);
    expect(await score(id)).toBeDefined();
    const res = await post("/admin/scores", { intent: "delete", id: String(id), confirm: "yes" });
    expect(res.status).toBe(303);
    expect(await score(id)).toBeUndefined();
    expect(await (await get("/admin/scores", res)).text()).toContain("Score supprimé");
    expect((await post("/admin/scores", { intent: "delete", id: String(id), confirm: "yes" })).status).toBe(404);
    expect((await post("/admin/scores", { intent: "update", id: "999999", player_name: "A", score: "1" })).status).toBe(404);
    expect((await post("/admin/scores", { intent: "update", id: "-3", player_name: "A", score: "1" })).status).toBe(400);
  });
});

const setting = async (key: string) => (await all<{ value: string }>("select value from settings where key = ?", key))[0]?.value;

describe("the admin's frame", () => {
  it("carries no public navigation (its own tabs), the public pages do", async () => {
    const html = await (await get("/admin/settings")).text();
    expect(html).not.toContain('id="main-nav"');
    expect(html).not.toContain('href="/suggest-platform"');
    // The brand still leads back to the site, and the language and theme stay at hand.
    expect(html).toMatch(/<a [^>]*href="\/"[^>]*>[^]*?Parrainly<\/a>/);
    expect(html).toContain('id="language-menu"');
    const publicPage = await (await fetch(`${server.url}/platforms`)).text();
    expect(publicPage).toContain('id="main-nav"');
  });
});

describe("settings tab", () => {
  it("shows one form per key", async () => {
    const html = await (await get("/admin/settings")).text();
    for (const key of [
      "gtm_id",
      "ga4_id",
      "adsense_head",
      "adsense_body",
      "adsense_account_id",
      "google_recaptcha_site_key",
      "enable_theme_toggle",
      "enable_auto_cleanup",
      "default_ai_provider",
      "price_tracker_name",
      "price_tracker_url",
    ]) {
      expect(html).toContain(`data-testid="setting-${key}"`);
    }
    // A yes/no setting in words, not "Activé (true)".
    expect(html).toMatch(/<option value="true"[^>]*>Activé<\/option>/);
    expect(html).toMatch(/<option value="false"[^>]*>Désactivé<\/option>/);
    expect(html).not.toContain("(true)");
  });

  it.each([
    ["default_ai_provider", "openai", "openai"],
    ["enable_auto_cleanup", "true", "true"],
    ["gtm_id", " gtm-abc123 ", "GTM-ABC123"],
    ["ga4_id", "", ""],
    ["price_tracker_url", "https://camelcamelcamel.com/", "https://camelcamelcamel.com/"],
    [
      "adsense_head",
      '<script async src="https://pagead2.googlesyndication.com/x.js"></script>',
      '<script async src="https://pagead2.googlesyndication.com/x.js"></script>',
    ],
  ])("saves %s", async (key, value, stored) => {
    const res = await post("/admin/settings", { intent: "save", key, value });
    expect(res.status).toBe(303);
    // Back at the setting just saved (its form's id), not at the top of the page.
    expect(res.headers.get("location")).toBe(`/admin/settings#save-${key}`);
    expect(await (await get("/admin/settings")).text()).toContain(`id="save-${key}"`);
    expect(await setting(key)).toBe(stored);
    expect(await (await get("/admin/settings", res)).text()).toContain("Paramètres sauvegardés");
  });

  it.each([
    ["enable_theme_toggle", "yes", "Choisissez true ou false."],
    ["enable_auto_cleanup", "TRUE", "Choisissez true ou false."],
    ["default_ai_provider", "lovable", "Choisissez anthropic ou openai."],
    ["price_tracker_url", "javascript:alert(1)", "L&#x27;adresse doit commencer par http:// ou https://."],
    ["price_tracker_url", "", "Ce paramètre est obligatoire."],
    ["price_tracker_name", "x".repeat(61), "Valeur trop longue (maximum 60 caractères)."],
    ["gtm_id", "<script>", "Format attendu\u00a0: GTM- suivi de lettres et chiffres."],
  ])("refuses %s=%j with 400, 'Erreur lors de la sauvegarde' and the message, writing nothing", async (key, value, message) => {
    const before = await setting(key);
    const res = await post("/admin/settings", { intent: "save", key, value });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("Erreur lors de la sauvegarde");
    expect(html).toContain(message);
    expect(await setting(key)).toBe(before);
  });

  it("refuses an unknown key with 400", async () => {
    const res = await post("/admin/settings", { intent: "save", key: "site_owner", value: "me" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Ce paramètre n&#x27;existe pas.");
    expect(await all("select * from settings where key = 'site_owner'")).toEqual([]);
  });

  it("sends a change of enable_theme_toggle to open pages over the event stream", async () => {
    const controller = new AbortController();
    const stream = await fetch(`${server.url}/events/settings`, { signal: controller.signal });
    const reader = stream.body!.getReader();
    const decoder = new TextDecoder();
    let received = "";
    // The first event (the current value) is sent once the subscription is in place.
    while (!received.includes('"value":"true"')) {
      const { value, done } = await reader.read();
      if (done) break;
      received += decoder.decode(value);
    }
    const res = await post("/admin/settings", { intent: "save", key: "enable_theme_toggle", value: "false" });
    expect(res.status).toBe(303);
    while (!received.includes('"value":"false"')) {
      const { value, done } = await reader.read();
      if (done) break;
      received += decoder.decode(value);
    }
    controller.abort();
    expect(received).toContain('"value":"false"');
    // A fresh page no longer offers the toggle; put it back.
    expect(await (await fetch(`${server.url}/`)).text()).not.toContain("Passer au thème clair");
    await post("/admin/settings", { intent: "save", key: "enable_theme_toggle", value: "true" });
    expect(await (await fetch(`${server.url}/`)).text()).toContain("Passer au thème clair");
  });
});

async function insertDraw(platformSlug: string, code: string, createdAt: string) {
  const [platform] = await all<{ id: number }>("select id from platforms where slug = ?", platformSlug);
  await all(
    "insert into random_requests (platform_id, served_code_id, served_code, created_at) values (?, null, ?, ?)",
    platform!.id,
    code,
    createdAt,
  );
}

describe("requests tab", () => {
  it("lists the 50 newest draws of all platforms, filterable by platform, with a chart per day", async () => {
    const now = Date.now();
    for (let i = 0; i < 55; i++) await insertDraw("tesla", `TESLA${i}`, new Date(now - i * 1000).toISOString());
    await insertDraw("revolut", "REVOCODE", new Date(now - 500).toISOString());
    await insertDraw("n26", "OLDN26", "2001-01-01T10:00:00.000Z");

    const html = await (await get("/admin/requests")).text();
    expect(html.match(/data-testid="draw-row"/g)).toHaveLength(50);
    expect(html).toContain("REVOCODE");
    expect(html).toContain("TESLA0");
    expect(html).not.toContain("TESLA54");
    expect(html).toMatch(/role="region"[^>]*aria-label="Liste des dernières demandes/);
    expect(html).toContain('tabindex="0"');
    // 30 bars; today's bar holds the 56 draws of today (Paris), the 2001 one is outside.
    expect(html.match(/<rect /g)).toHaveLength(30);
    expect(html).toContain('data-count="56"');
    expect(html).toContain('<title id="draws-chart-title">Nombre de tirages par jour</title>');

    const filtered = await (await get("/admin/requests?platform=revolut")).text();
    expect(filtered.match(/data-testid="draw-row"/g)).toHaveLength(1);
    expect(filtered).toContain("REVOCODE");
    expect(filtered).toContain('data-count="1"');
    expect(filtered).not.toContain("TESLA0");

    expect((await get("/admin/requests?platform=nope")).status).toBe(404);
  });
});

describe("strangers", () => {
  it.each(["/admin/partnerships", "/admin/requests", "/admin/scores", "/admin/settings"])(
    "GET %s redirects to the login page",
    async (path) => {
      const res = await fetch(`${server.url}${path}`, { redirect: "manual" });
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toMatch(/^\/admin\/login\?redirectTo=/);
    },
  );

  it("POSTs are refused with 403 and change nothing", async () => {
    const id = await insertScore("Guarded", 3);
    const before = (await partnerships()).length;
    const value = await setting("default_ai_provider");
    for (const [path, fields] of [
      ["/admin/partnerships", { intent: "create", name: "Nope", url: "https://nope.example/" }],
      ["/admin/scores", { intent: "delete", id: String(id), confirm: "yes" }],
      ["/admin/settings", { intent: "save", key: "default_ai_provider", value: value === "openai" ? "anthropic" : "openai" }],
    ] as const) {
      const res = await postForm(`${server.url}${path}`, fields);
      expect(res.status).toBe(403);
      expect(await res.text()).toContain("Accès non autorisé");
    }
    // Cross-origin with a valid admin session: refused too.
    const cross = await postForm(
      `${server.url}/admin/scores`,
      { intent: "delete", id: String(id) },
      { cookie, headers: { Origin: "https://evil.example" } },
    );
    expect(cross.status).toBe(403);
    expect((await partnerships()).length).toBe(before);
    expect(await score(id)).toBeDefined();
    expect(await setting("default_ai_provider")).toBe(value);
  });
});
