import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { followRedirect, signInAsAdmin, startServerWithAdmin } from "../support/admin";
import { openRawDb, type RawDb } from "../support/fixtures";
import { tmpPath } from "../support/paths";
import { postForm, type RunningServer } from "../support/server";

/**
 * The catalog tabs over real HTTP, as a browser without JavaScript uses them: every intent's
 * success (303 + toast, row changed) and its rejection (4xx, page with the message, nothing written).
 */
let server: RunningServer;
let cookie: string;
let uploads: string;
let raw: RawDb;

beforeAll(async () => {
  uploads = tmpPath("uploads");
  server = await startServerWithAdmin({ UPLOADS_DIR: uploads });
  // Only the session: the sign-in's own toast must not shadow the ones under test.
  cookie = (await signInAsAdmin(server))
    .split("; ")
    .filter((c) => c.startsWith("__session="))
    .join("; ");
  raw = openRawDb(server.dbFile);
});
afterAll(async () => {
  await raw?.close();
  await server?.stop();
});

const now = () => new Date().toISOString();
let counter = 0;
async function platform(overrides: Record<string, unknown> = {}) {
  const slug = `cat-${++counter}-${Math.random().toString(36).slice(2, 6)}`;
  const row = {
    name: `Cat ${slug}`,
    slug,
    description: "Plateforme de test",
    code_pattern: "^[A-Z0-9]{4,}$",
    gradient_from: "#000000",
    gradient_to: "#ffffff",
    hosts: `${slug}.example`,
    referral_url_template: `https://${slug}.example/r/{code}`,
    url_rules: JSON.stringify([{ type: "path", after: "r" }]),
    created_at: now(),
    ...overrides,
  };
  return { id: await insertRow("platforms", row), slug, name: String(row.name) };
}
async function code(platformId: number, value: string, overrides: Record<string, unknown> = {}) {
  const row = {
    platform_id: platformId,
    code: value,
    referral_url: null,
    is_permanent: 0,
    expires_at: new Date(Date.now() + 86_400_000 * 30).toISOString(),
    created_at: now(),
    ...overrides,
  };
  return insertRow("referral_codes", row);
}
/** Inserts one row of `table` and answers its id. */
async function insertRow(table: string, row: Record<string, unknown>): Promise<number> {
  const cols = Object.keys(row);
  const query = `insert into ${table} (${cols.join(",")}) values (${cols.map(() => "?").join(",")}) returning id`;
  return (await raw.get<{ id: number }>(query, ...Object.values(row)))!.id;
}
const get = async <T>(query: string, ...params: unknown[]) => (await raw.get(query, ...params)) as T;
const codeRow = async (id: number) =>
  get<
    { code: string; referral_url: string | null; is_active: number; is_permanent: number; expires_at: string | null } | undefined
  >("select * from referral_codes where id = ?", id);
const platformRow = async (id: number) =>
  get<Record<string, string | number | null> | undefined>("select * from platforms where id = ?", id);

async function post(pathname: string, fields: Record<string, string>) {
  return postForm(`${server.url}${pathname}`, fields, { cookie });
}
/** The page's HTML with React's entity escapes undone, to search for French texts. */
async function textOf(res: Response): Promise<string> {
  return (await res.text())
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");
}
async function toastOf(res: Response): Promise<string> {
  expect(res.status).toBe(303);
  const html = await followRedirect(server, res, cookie);
  return /data-testid="toast"[^>]*>\s*<p[^>]*>([^<]*)<\/p>/.exec(html)?.[1] ?? "";
}

describe("codes tab", () => {
  it("lists a platform's codes newest first with 'Pseudo' and dates in the reader's language", async () => {
    const p = await platform();
    await code(p.id, "OLDER1", { created_at: "2026-01-02T10:00:00.000Z" });
    await code(p.id, "NEWER1", { created_at: "2026-03-04T10:00:00.000Z" });
    const html = await (await fetch(`${server.url}/admin/codes?platform=${p.slug}`, { headers: { Cookie: cookie } })).text();
    expect(html).toContain("Pseudo");
    expect(html.indexOf("NEWER1")).toBeLessThan(html.indexOf("OLDER1"));
    expect(html).toContain("04/03/2026");
    // 'Pseudo' is the French admin's word; English, German and Spanish readers get 'Code'/'Código'.
    // The date in the reader's form too (decision 307): German's 04.03.2026.
    for (const [lng, word, date] of [
      ["en", "Code", "4 Mar 2026"],
      ["de", "Code", "04.03.2026"],
      ["es", "Código", "04/03/2026"],
    ] as const) {
      const page = await (
        await fetch(`${server.url}/admin/codes?platform=${p.slug}&lng=${lng}`, { headers: { Cookie: cookie } })
      ).text();
      expect(page).toMatch(new RegExp(`<th[^>]*>${word}</th>`));
      expect(page).not.toContain("Pseudo");
      expect(page).toContain(date);
    }
  });

  it("toggle-active and toggle-permanent flip the flags with their toasts", async () => {
    const p = await platform();
    const id = await code(p.id, "TOGGLE1");
    expect(await toastOf(await post("/admin/codes", { intent: "toggle-active", id: String(id) }))).toBe("Code désactivé");
    expect((await codeRow(id))!.is_active).toBe(0);
    expect(await toastOf(await post("/admin/codes", { intent: "toggle-active", id: String(id) }))).toBe("Code activé");
    expect((await codeRow(id))!.is_active).toBe(1);
    expect(await toastOf(await post("/admin/codes", { intent: "toggle-permanent", id: String(id) }))).toBe(
      "Code permanent (ne expire jamais)",
    );
    expect((await codeRow(id))!.is_permanent).toBe(1);
    expect(await toastOf(await post("/admin/codes", { intent: "toggle-permanent", id: String(id) }))).toBe(
      "Expiration réactivée",
    );
    expect((await codeRow(id))!.is_permanent).toBe(0);
  });

  it("row actions on an unknown id answer 404, a malformed one 400, never 500", async () => {
    for (const intent of ["toggle-active", "toggle-permanent", "delete", "update", "set-expiry"]) {
      const res = await post("/admin/codes", { intent, id: "999999", code: "ABCD", days: "3" });
      expect(res.status, intent).toBe(404);
    }
    const garbage = await post("/admin/codes", { intent: "delete", id: "abc" });
    expect(garbage.status).toBe(400);
    const unknown = await post("/admin/codes", { intent: "explode", id: "1" });
    expect(unknown.status).toBe(400);
  });

  it("update normalises like a submission: a link of the platform gives its code; foreign links and bad codes are refused", async () => {
    const p = await platform();
    const id = await code(p.id, "ORIGINAL1");
    const ok = await post(`/admin/codes?platform=${p.slug}`, {
      intent: "update",
      id: String(id),
      code: `https://${p.slug}.example/r/newcode42`,
      referral_url: "",
    });
    expect(await toastOf(ok)).toBe("Code modifié");
    expect(await codeRow(id)).toMatchObject({ code: "NEWCODE42", referral_url: `https://${p.slug}.example/r/newcode42` });

    const plain = await post(`/admin/codes?platform=${p.slug}`, {
      intent: "update",
      id: String(id),
      code: "plain99",
      referral_url: "",
    });
    expect(plain.status).toBe(303);
    expect(await codeRow(id)).toMatchObject({ code: "PLAIN99", referral_url: `https://${p.slug}.example/r/PLAIN99` });

    for (const [fields, message] of [
      [{ code: "https://evil.example/r/X1234" }, "n'appartient pas à cette plateforme"],
      [{ code: "" }, "Veuillez remplir tous les champs obligatoires"],
      [{ code: "ab" }, "ne correspond pas au format"],
      [{ code: "GOOD1234", referral_url: "javascript:alert(1)" }, "adresse http(s) de cette plateforme"],
      [{ code: "GOOD1234", referral_url: "https://evil.example/r/GOOD1234" }, "adresse http(s) de cette plateforme"],
    ] as const) {
      const res = await post(`/admin/codes?platform=${p.slug}`, {
        intent: "update",
        id: String(id),
        referral_url: "",
        ...fields,
      });
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(await textOf(res)).toContain(message);
    }
    expect(await codeRow(id)).toMatchObject({ code: "PLAIN99" });

    await code(p.id, "TAKEN123");
    const taken = await post(`/admin/codes?platform=${p.slug}`, {
      intent: "update",
      id: String(id),
      code: "TAKEN123",
      referral_url: "",
    });
    expect(taken.status).toBe(400);
    expect(await textOf(taken)).toContain("existe déjà");
  });

  it("a changed code gets the link of its new code unless a new link is given; the old code's link is never kept", async () => {
    const p = await platform();
    const id = await code(p.id, "CHLOE10ZZZ", { referral_url: `https://${p.slug}.example/r/CHLOE10ZZZ` });
    // The form sends the stored link back as it was: it belongs to the old code.
    const changed = await post(`/admin/codes?platform=${p.slug}`, {
      intent: "update",
      id: String(id),
      code: "MARIE2024",
      referral_url: `https://${p.slug}.example/r/CHLOE10ZZZ`,
    });
    expect(await toastOf(changed)).toBe("Code modifié");
    expect(await codeRow(id)).toMatchObject({ code: "MARIE2024", referral_url: `https://${p.slug}.example/r/MARIE2024` });

    // Same code, the stored link untouched: kept.
    await raw.run("update referral_codes set referral_url = ? where id = ?", `https://${p.slug}.example/r/MARIE2024?x=1`, id);
    await post(`/admin/codes?platform=${p.slug}`, {
      intent: "update",
      id: String(id),
      code: "MARIE2024",
      referral_url: `https://${p.slug}.example/r/MARIE2024?x=1`,
    });
    expect(await codeRow(id)).toMatchObject({ referral_url: `https://${p.slug}.example/r/MARIE2024?x=1` });

    // A new code with a new valid link of the platform: that link.
    await post(`/admin/codes?platform=${p.slug}`, {
      intent: "update",
      id: String(id),
      code: "PAUL3000",
      referral_url: `https://${p.slug}.example/r/PAUL3000?from=admin`,
    });
    expect(await codeRow(id)).toMatchObject({
      code: "PAUL3000",
      referral_url: `https://${p.slug}.example/r/PAUL3000?from=admin`,
    });
  });

  it("a renamed code keeps the rest of its link: only the code in it changes (a Revolut link's !JAN)", async () => {
    const p = await platform({
      hosts: "revolut-like.example",
      referral_url_template: "https://revolut-like.example/referral/?referral-code={code}",
      url_rules: JSON.stringify([{ type: "query", param: "referral-code" }]),
    });
    const stored = "https://revolut-like.example/referral/?referral-code=julien48!JAN";
    const id = await code(p.id, "JULIEN48", { referral_url: stored });
    const changed = await post(`/admin/codes?platform=${p.slug}`, {
      intent: "update",
      id: String(id),
      code: "marie99",
      referral_url: stored,
    });
    expect(await toastOf(changed)).toBe("Code modifié");
    expect(await codeRow(id)).toMatchObject({
      code: "MARIE99",
      referral_url: "https://revolut-like.example/referral/?referral-code=marie99!JAN",
    });
  });

  it("delete removes the code", async () => {
    const p = await platform();
    const id = await code(p.id, "DELETE12");
    expect(await toastOf(await post("/admin/codes", { intent: "delete", id: String(id), confirm: "yes" }))).toBe("Code supprimé");
    expect(await codeRow(id)).toBeUndefined();
  });
});

describe("platforms tab", () => {
  it("lists platforms newest first and toggles one's status", async () => {
    const a = await platform({ created_at: "2020-01-01T00:00:00.000Z" });
    const b = await platform();
    const html = await (await fetch(`${server.url}/admin/platforms`, { headers: { Cookie: cookie } })).text();
    expect(html.indexOf(`/${b.slug}`)).toBeLessThan(html.indexOf(`/${a.slug}`));
    expect(await toastOf(await post("/admin/platforms", { intent: "toggle-active", id: String(b.id) }))).toContain("désactivée");
    expect((await platformRow(b.id))!.is_active).toBe(0);
    expect((await post("/admin/platforms", { intent: "toggle-active", id: "999999" })).status).toBe(404);
  });

  it("update saves name, slug, pattern, hosts and template; refuses a broken pattern and a taken slug", async () => {
    const p = await platform();
    const other = await platform();
    const fields = {
      intent: "update",
      id: String(p.id),
      name: "Renamed",
      slug: `${p.slug}-x`,
      code_pattern: "^[A-Z]{3,}$",
      hosts: "renamed.example",
      referral_url_template: "https://renamed.example/?ref={code}",
      description: "Nouvelle",
    };
    expect(await toastOf(await post("/admin/platforms", fields))).toContain("mise à jour");
    expect(await platformRow(p.id)).toMatchObject({
      name: "Renamed",
      slug: `${p.slug}-x`,
      code_pattern: "^[A-Z]{3,}$",
      hosts: "renamed.example",
      url_rules: JSON.stringify([{ type: "query", param: "ref" }]),
    });

    const broken = await post("/admin/platforms", { ...fields, code_pattern: "([A-Z" });
    expect(broken.status).toBe(400);
    const brokenText = await textOf(broken);
    expect(brokenText).toContain("expression régulière valide");
    // Posted to the list, whose rows hold no form: the message there, with the way to the editor.
    expect(brokenText).toContain(`href="/admin/platforms/${p.id}"`);
    const taken = await post("/admin/platforms", { ...fields, slug: other.slug });
    expect(taken.status).toBe(400);
    expect(await textOf(taken)).toContain("Ce slug existe déjà. Veuillez en choisir un autre.");
    const empty = await post("/admin/platforms", { ...fields, name: "" });
    expect(empty.status).toBe(400);
    expect(await platformRow(p.id)).toMatchObject({ name: "Renamed", slug: `${p.slug}-x`, code_pattern: "^[A-Z]{3,}$" });
  });

  it("the list is compact rows, each linking to the platform's own editor page; an unknown id is a 404", async () => {
    const p = await platform({ description: "Décrite ici" });
    const list = await textOf(await fetch(`${server.url}/admin/platforms`, { headers: { Cookie: cookie } }));
    expect(list).toContain(`data-testid="platform-row-${p.slug}"`);
    expect(list).toMatch(
      new RegExp(`<a [^>]*href="/admin/platforms/${p.id}"[^>]*>Modifier<span[^>]*> (<!-- -->)?${p.name}</span></a>`),
    );
    // No editor inline: not one field of an edit, offer or logo form.
    expect(list).not.toContain('name="code_pattern"');
    expect(list).not.toContain('name="offer_referee"');
    expect(list).not.toContain('type="file"');

    const editor = await fetch(`${server.url}/admin/platforms/${p.id}`, { headers: { Cookie: cookie } });
    expect(editor.status).toBe(200);
    const html = await textOf(editor);
    expect(html).toContain(`<title>Modifier la plateforme ${p.name} | `);
    expect(html).toContain(`data-testid="offer-editor-${p.id}"`);
    expect(html).toMatch(/name="code_pattern"[^>]*value="\^\[A-Z0-9\]\{4,\}\$"/);
    expect(html).toContain(">Décrite ici</textarea>");
    expect(html.match(/type="file"/g)).toHaveLength(2);
    expect(html).toContain('href="/admin/platforms"');

    for (const bad of ["abc", "0", "999999", "1.5", `${p.id}x`]) {
      const res = await fetch(`${server.url}/admin/platforms/${bad}`, { headers: { Cookie: cookie } });
      expect(res.status, bad).toBe(404);
      expect(await textOf(res), bad).toContain("Élément introuvable");
    }
    const en = await fetch(`${server.url}/admin/platforms/abc?lng=en`, { headers: { Cookie: cookie } });
    expect(en.status).toBe(404);
    expect(await en.text()).not.toContain("Élément introuvable");
    expect((await fetch(`${server.url}/admin/platforms/new`, { headers: { Cookie: cookie } })).status).toBe(200);
  });

  it("the editor page takes the same intents: an edit stays there, a refused one keeps its input, a deletion ends on the list", async () => {
    const p = await platform();
    const other = await platform();
    const editor = `/admin/platforms/${p.id}`;
    const fields = { intent: "update", id: String(p.id), name: "Edited Here", slug: p.slug, code_pattern: "^[A-Z]{4}$" };
    const saved = await post(editor, fields);
    expect(saved.headers.get("location")).toBe(editor);
    expect(await toastOf(saved)).toContain("Plateforme Edited Here mise à jour");
    expect(await platformRow(p.id)).toMatchObject({ name: "Edited Here", code_pattern: "^[A-Z]{4}$" });

    const broken = await post(editor, { ...fields, name: "Kept Input", code_pattern: "([A-Z" });
    expect(broken.status).toBe(400);
    const html = await textOf(broken);
    expect(html).toContain("expression régulière valide");
    expect(html).toMatch(/name="name"[^>]*value="Kept Input"/);
    expect(await platformRow(p.id)).toMatchObject({ name: "Edited Here" });

    const offer = await post(editor, { intent: "update-offer", id: String(p.id), offer_referee: "Un mois offert" });
    expect(offer.headers.get("location")).toBe(editor);
    expect(
      await get<{ offer_referee: string }>("select offer_referee from platform_offers where platform_id = ?", p.id),
    ).toMatchObject({
      offer_referee: "Un mois offert",
    });

    // Another platform's id on this page: refused, nothing written.
    expect((await post(editor, { ...fields, id: String(other.id), name: "Wrong Page" })).status).toBe(400);
    expect(await platformRow(other.id)).toMatchObject({ name: other.name });

    const ask = await post(editor, { intent: "delete", id: String(p.id) });
    expect(ask.headers.get("location")).toBe(`/admin/platforms?delete=${p.id}`);
    const deleted = await post(editor, { intent: "delete", id: String(p.id), confirm: "yes" });
    expect(deleted.headers.get("location")).toBe("/admin/platforms");
    expect(await toastOf(deleted)).toContain("supprimée");
    expect((await fetch(`${server.url}${editor}`, { headers: { Cookie: cookie } })).status).toBe(404);
  });

  it("delete removes the platform and its codes", async () => {
    const p = await platform();
    const c = await code(p.id, "GONE1234");
    expect(await toastOf(await post("/admin/platforms", { intent: "delete", id: String(p.id), confirm: "yes" }))).toContain(
      "supprimée",
    );
    expect(await platformRow(p.id)).toBeUndefined();
    expect(await codeRow(c)).toBeUndefined();
  });
});

// Tiny files that are what their first bytes say.
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32)]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(32), Buffer.from([0xff, 0xd9])]);
const WEBP = Buffer.concat([Buffer.from("RIFF"), Buffer.from([0x24, 0, 0, 0]), Buffer.from("WEBPVP8 "), Buffer.alloc(24)]);

async function upload(id: number, variant: string, bytes: Buffer, name: string, type: string) {
  const body = new FormData();
  body.set("intent", "upload-logo");
  body.set("id", String(id));
  body.set("variant", variant);
  body.set("file", new Blob([new Uint8Array(bytes)], { type }), name);
  return fetch(`${server.url}/admin/platforms`, {
    method: "POST",
    body,
    redirect: "manual",
    headers: { Cookie: cookie, Origin: server.url },
  });
}

describe("logo upload", () => {
  it("still serves a logo file an older server wrote on UPLOADS_DIR, and unknown names are a 404", async () => {
    fs.writeFileSync(path.join(uploads, "legacy-light-1.png"), PNG);
    const served = await fetch(`${server.url}/uploads/legacy-light-1.png`);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(PNG);
    expect((await fetch(`${server.url}/uploads/nothing-here.png`)).status).toBe(404);
    expect((await fetch(`${server.url}/uploads/a/b.png`)).status).toBe(404);
  });

  it.each([
    ["png", PNG, "image/png"],
    ["jpg", JPEG, "image/jpeg"],
    ["webp", WEBP, "image/webp"],
  ] as const)("accepts a %s, stores it in the database and serves it cached for an hour", async (ext, bytes, type) => {
    const p = await platform();
    const res = await upload(p.id, "dark", bytes, `logo.${ext}`, type);
    expect(await toastOf(res)).toContain("enregistré");
    const url = (await platformRow(p.id))!.custom_logo_dark_url as string;
    expect(url).toMatch(new RegExp(`^/uploads/${p.slug}-dark-\\d+\\.${ext}$`));
    // Not a file on this VM's disk: every server process on the database serves it.
    expect(fs.existsSync(path.join(uploads, path.basename(url)))).toBe(false);
    const served = await fetch(`${server.url}${url}`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe(type);
    expect(served.headers.get("cache-control")).toContain("max-age=3600");
    expect(Buffer.from(await served.arrayBuffer())).toEqual(bytes);
  });

  it("refuses a text file renamed .png, whatever type it claims", async () => {
    const p = await platform();
    const res = await upload(p.id, "light", Buffer.from("just some text, not an image"), "logo.png", "image/png");
    expect(res.status).toBe(400);
    expect(await textOf(res)).toContain("PNG, JPEG ou WebP uniquement");
    expect((await platformRow(p.id))!.custom_logo_light_url).toBeNull();
  });

  it("refuses an oversize image with 413 and a message, never 500, and writes nothing", async () => {
    const p = await platform();
    const stored = async () => (await get<{ n: number }>("select cast(count(*) as integer) as n from uploaded_files")).n;
    const before = await stored();
    const big = Buffer.concat([PNG, Buffer.alloc(600 * 1024)]);
    const res = await upload(p.id, "light", big, "big.png", "image/png");
    expect(res.status).toBe(413);
    expect(await textOf(res)).toContain("Image trop volumineuse");
    expect((await platformRow(p.id))!.custom_logo_light_url).toBeNull();
    expect(await stored()).toBe(before);
  });

  it("refuses an unknown variant and an unknown platform; remove-logo clears the URL and the file", async () => {
    const p = await platform();
    expect((await upload(p.id, "purple", PNG, "a.png", "image/png")).status).toBe(400);
    expect((await upload(999999, "light", PNG, "a.png", "image/png")).status).toBe(404);
    expect((await upload(p.id, "light", PNG, "a.png", "image/png")).status).toBe(303);
    const url = (await platformRow(p.id))!.custom_logo_light_url as string;
    expect(
      await toastOf(await post("/admin/platforms", { intent: "remove-logo", id: String(p.id), variant: "light" })),
    ).toContain("supprimé");
    expect((await platformRow(p.id))!.custom_logo_light_url).toBeNull();
    expect((await fetch(`${server.url}${url}`)).status).toBe(404);
    expect((await post("/admin/platforms", { intent: "remove-logo", id: String(p.id), variant: "x" })).status).toBe(400);
  });
});

describe("create platform", () => {
  const base = {
    intent: "create",
    name: "",
    slug: "",
    description: "Une plateforme",
    code_pattern: "^[A-Z0-9]{8,}$",
    emoji: "",
    gradient: "pink-violet",
    display_order: "",
    hosts: "",
    referral_url_template: "",
  };

  it("derives the slug from the name, applies the defaults and names the pages created", async () => {
    const name = `Crème Brûlée ${++counter}!`;
    const res = await post("/admin/platforms/new", {
      ...base,
      name,
      is_active: "on",
      show_in_homepage: "on",
      hosts: "creme.example",
      referral_url_template: "https://creme.example/r/{code}",
    });
    const slug = `creme-brulee-${counter}`;
    expect(await toastOf(res)).toBe(`Plateforme créée\u00a0: /${slug} et /${slug}/get-code`);
    const row = await get<Record<string, unknown>>("select * from platforms where slug = ?", slug);
    expect(row).toMatchObject({
      name,
      emoji_icon: "🌐",
      gradient_from: "#be185d",
      gradient_to: "#6d28d9",
      display_order: 10,
      is_active: 1,
      show_in_homepage: 1,
      show_in_partnerships: 0,
      hosts: "creme.example",
      url_rules: JSON.stringify([{ type: "path", after: "r" }]),
    });
  });

  it("refuses missing fields, a taken slug, a long emoji, a bad gradient, order or pattern, writing nothing", async () => {
    const existing = await platform();
    const count = async () => (await get<{ n: number }>("select cast(count(*) as integer) as n from platforms")).n;
    const before = await count();
    const cases: Array<[Record<string, string>, string]> = [
      [{ name: "" }, "Veuillez remplir tous les champs obligatoires"],
      [{ name: "Sans description", description: "   " }, "Veuillez remplir tous les champs obligatoires"],
      [{ name: "Sans format", code_pattern: "" }, "Veuillez remplir tous les champs obligatoires"],
      [{ name: "Pris", slug: existing.slug }, "Ce slug existe déjà. Veuillez en choisir un autre."],
      [{ name: existing.slug }, "Ce slug existe déjà. Veuillez en choisir un autre."],
      [{ name: "Emoji", emoji: "😀😀😀😀😀" }, "4 caractères au maximum"],
      [{ name: "Dégradé", gradient: "rainbow" }, "dégradés proposés"],
      [{ name: "Ordre", display_order: "-1" }, "entier positif ou nul"],
      [{ name: "Format", code_pattern: "(unclosed" }, "expression régulière valide"],
      [{ name: "Réservé", slug: "admin" }, "réservé"],
      [{ name: "Lien", referral_url_template: "javascript:alert({code})" }, "http(s)"],
    ];
    for (const [fields, message] of cases) {
      const res = await post("/admin/platforms/new", { ...base, ...fields });
      expect(res.status, JSON.stringify(fields)).toBe(400);
      const html = await textOf(res);
      expect(html, JSON.stringify(fields)).toContain(message);
      if (fields.name) expect(html).toContain(`value="${fields.name}"`);
    }
    expect(await count()).toBe(before);
  });

  it("counts an emoji with modifiers as one character", async () => {
    const res = await post("/admin/platforms/new", { ...base, name: `Family ${++counter}`, emoji: "👨‍👩‍👧‍👦👍🏽🇫🇷⚡" });
    expect(res.status).toBe(303);
  });
});

describe("deletions tab", () => {
  function deletion(platformId: number, value: string, status = "pending") {
    return insertRow("deletion_requests", {
      code: value,
      platform_id: platformId,
      reason: "doublon",
      status,
      created_at: now(),
      resolved_at: status === "pending" ? null : now(),
    });
  }
  const request = async (id: number) =>
    get<{ status: string; resolved_at: string | null } | undefined>("select * from deletion_requests where id = ?", id);

  it("lists requests newest first with the platform's name", async () => {
    const p = await platform();
    await deletion(p.id, "LISTED01");
    const html = await (await fetch(`${server.url}/admin/deletions`, { headers: { Cookie: cookie } })).text();
    expect(html).toContain("LISTED01");
    expect(html).toContain(`Cat ${p.slug}`);
  });

  it("approve deletes the code and marks the request approved", async () => {
    const p = await platform();
    const c = await code(p.id, "DOOMED01");
    const id = await deletion(p.id, "DOOMED01");
    expect(await toastOf(await post("/admin/deletions", { intent: "approve", id: String(id) }))).toBe(
      "Code supprimé avec succès",
    );
    expect(await codeRow(c)).toBeUndefined();
    expect(await request(id)).toMatchObject({ status: "approved" });
    expect((await request(id))!.resolved_at).not.toBeNull();
    expect((await post("/admin/deletions", { intent: "approve", id: String(id) })).status).toBe(404);
  });

  it("reject keeps the code; only processed requests can be deleted", async () => {
    const p = await platform();
    const c = await code(p.id, "KEPT0001");
    const id = await deletion(p.id, "KEPT0001");
    expect((await post("/admin/deletions", { intent: "delete", id: String(id), confirm: "yes" })).status).toBe(404);
    expect(await toastOf(await post("/admin/deletions", { intent: "reject", id: String(id) }))).toBe("Demande rejetée");
    expect(await codeRow(c)).toBeDefined();
    expect(await request(id)).toMatchObject({ status: "rejected" });
    expect((await post("/admin/deletions", { intent: "reject", id: String(id) })).status).toBe(404);
    expect(await toastOf(await post("/admin/deletions", { intent: "delete", id: String(id), confirm: "yes" }))).toBe(
      "Demande supprimée",
    );
    expect(await request(id)).toBeUndefined();
  });
});

describe("suggestions tab", () => {
  function suggestion(name: string, status = "pending") {
    return insertRow("platform_suggestions", {
      name,
      normalized_name: name.toLowerCase(),
      description: "Suggérée",
      website_url: "https://www.suggested.example/home",
      status,
      votes_count: 3,
      created_at: now(),
    });
  }
  const status = async (id: number) =>
    (await get<{ status: string }>("select status from platform_suggestions where id = ?", id)).status;

  it("shows buttons only on pending suggestions", async () => {
    const pending = await suggestion(`Pending ${++counter}`);
    const done = await suggestion(`Done ${++counter}`, "rejected");
    const html = await (await fetch(`${server.url}/admin/suggestions`, { headers: { Cookie: cookie } })).text();
    const rowOf = (id: number) =>
      html.slice(
        html.indexOf(`data-testid="suggestion-row-${id}"`),
        html.indexOf("</tr>", html.indexOf(`data-testid="suggestion-row-${id}"`)),
      );
    expect(rowOf(pending)).toContain('value="approve"');
    expect(rowOf(done)).not.toContain('value="approve"');
    expect(rowOf(done)).not.toContain("?reject=");
  });

  it("approve opens the prefilled form; creating there makes the platform inactive and approves the suggestion", async () => {
    const name = `Suggested Bank ${++counter}`;
    const id = await suggestion(name);
    const open = await post("/admin/suggestions", { intent: "approve", id: String(id) });
    expect(open.status).toBe(303);
    expect(open.headers.get("location")).toBe(`/admin/platforms/new?suggestion=${id}`);
    const form = await (await fetch(`${server.url}${open.headers.get("location")}`, { headers: { Cookie: cookie } })).text();
    expect(form).toContain(`value="${name}"`);
    expect(form).toContain('value="^[A-Z0-9]{8,}$"');
    expect(form).toContain('value="suggested.example"');

    const slug = `suggested-bank-${counter}`;
    const noPattern = await post("/admin/platforms/new", {
      intent: "create",
      suggestion_id: String(id),
      name,
      slug,
      code_pattern: "",
      description: "",
    });
    expect(noPattern.status).toBe(400);
    expect(await status(id)).toBe("pending");

    const res = await post("/admin/platforms/new", {
      intent: "create",
      suggestion_id: String(id),
      name,
      slug: "",
      code_pattern: "^[A-Z0-9]{8,}$",
      description: "",
      is_active: "on",
      gradient: "gray",
    });
    expect(await toastOf(res)).toContain("Plateforme créée\u00a0!");
    expect(await get<Record<string, unknown>>("select * from platforms where slug = ?", slug)).toMatchObject({
      is_active: 0,
      gradient_from: "#4b5563",
    });
    expect(await status(id)).toBe("approved");

    const again = await post("/admin/suggestions", { intent: "approve", id: String(id) });
    expect(again.status).toBe(404);
  });

  it("reject asks for confirmation first, then rejects", async () => {
    const id = await suggestion(`Rejectable ${++counter}`);
    const unconfirmed = await post("/admin/suggestions", { intent: "reject", id: String(id) });
    expect(unconfirmed.status).toBe(303);
    expect(unconfirmed.headers.get("location")).toBe(`/admin/suggestions?reject=${id}`);
    expect(await status(id)).toBe("pending");
    const confirmPage = await (
      await fetch(`${server.url}/admin/suggestions?reject=${id}`, { headers: { Cookie: cookie } })
    ).text();
    expect(confirmPage).toContain('data-testid="reject-confirm"');
    expect(await toastOf(await post("/admin/suggestions", { intent: "reject", id: String(id), confirm: "yes" }))).toBe(
      "Suggestion rejetée",
    );
    expect(await status(id)).toBe("rejected");
    expect((await post("/admin/suggestions", { intent: "reject", id: String(id), confirm: "yes" })).status).toBe(404);
    expect((await post("/admin/suggestions", { intent: "reject", id: "999999", confirm: "yes" })).status).toBe(404);
  });
});

describe("set-expiry", () => {
  it("is refused while auto-cleanup is off", async () => {
    const p = await platform();
    const id = await code(p.id, "EXPIRYOFF");
    const before = (await codeRow(id))!.expires_at;
    const res = await post(`/admin/codes?platform=${p.slug}`, { intent: "set-expiry", id: String(id), days: "5" });
    expect(res.status).toBe(400);
    expect(await textOf(res)).toContain("nettoyage automatique est activé");
    expect((await codeRow(id))!.expires_at).toBe(before);
  });

  it("sets the date from now when auto-cleanup is on; refuses bad days and permanent codes", async () => {
    // Settings are cached by the server: this one starts on a database where the setting is on.
    const file = tmpPath("cleanup.db");
    const first = await startServerWithAdmin({ DATABASE_FILE: file });
    await first.stop();
    const db = openRawDb(file);
    await db.run("update settings set value = 'true' where key = 'enable_auto_cleanup'");
    const { id: pid } = (await db.get<{ id: number }>(
      "insert into platforms (name, slug, description, code_pattern, gradient_from, gradient_to, hosts, created_at) values ('Exp', 'exp-on', 'x', '^[A-Z0-9]{4,}$', '#000', '#fff', 'exp.example', ?) returning id",
      now(),
    ))!;
    const insert = async (...values: unknown[]) =>
      (await db.get<{ id: number }>(
        "insert into referral_codes (platform_id, code, is_permanent, expires_at, created_at) values (?, ?, ?, ?, ?) returning id",
        ...values,
      ))!.id;
    const id = await insert(pid, "EXPIRY1", 0, new Date(Date.now() + 86_400_000).toISOString(), now());
    const permanent = await insert(pid, "PERMA1", 1, null, now());
    await db.close();
    const on = await startServerWithAdmin({ DATABASE_FILE: file });
    try {
      const session = (await signInAsAdmin(on))
        .split("; ")
        .filter((c) => c.startsWith("__session="))
        .join("; ");
      const send = (fields: Record<string, string>) =>
        postForm(`${on.url}/admin/codes?platform=exp-on`, fields, { cookie: session });
      const read = async () => {
        const check = openRawDb(file);
        try {
          return (await check.get<{ expires_at: string }>("select expires_at from referral_codes where id = ?", id))!.expires_at;
        } finally {
          await check.close();
        }
      };
      const before = await read();
      for (const days of ["-3", "", "2.5", "abc", "99999"]) {
        const bad = await send({ intent: "set-expiry", id: String(id), days });
        expect(bad.status, days).toBe(400);
        expect(await textOf(bad)).toContain("Veuillez entrer un nombre de jours valide");
      }
      expect(await read()).toBe(before);
      expect((await send({ intent: "set-expiry", id: String(permanent), days: "5" })).status).toBe(400);

      const ok = await send({ intent: "set-expiry", id: String(id), days: "10" });
      expect(ok.status).toBe(303);
      expect(await followRedirect(on, ok, session)).toMatch(/Expiration mise à jour\u00a0: \d{2}\/\d{2}\/\d{4}/);
      expect(Math.abs(Date.parse(await read()) - (Date.now() + 10 * 86_400_000))).toBeLessThan(60_000);
    } finally {
      await on.stop();
    }
  });
});
