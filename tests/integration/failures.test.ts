import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAsAdmin, startServerWithAdmin } from "../support/admin";
import { failWritesTo, openRawDb, openTestDb, type RawDb, type TestDb } from "../support/fixtures";
import { postForm, type RunningServer } from "../support/server";

/**
 * Failures say what failed. The database really fails here (a trigger that aborts a write, a
 * table renamed away under the running server), never a mock: each page answers with the spec's own
 * message in the visitor's language, keeps the input, and never a bare 500.
 */
let server: RunningServer;
let cookie: string;
let raw: RawDb;
let db: TestDb;

beforeAll(async () => {
  server = await startServerWithAdmin();
  cookie = (await signInAsAdmin(server))
    .split("; ")
    .filter((c) => c.startsWith("__session="))
    .join("; ");
  raw = openRawDb(server.dbFile);
  db = openTestDb(server.dbFile);
});
afterAll(async () => {
  await raw?.close();
  await db?.destroy();
  await server?.stop();
});

const text = async (res: Response) =>
  (await res.text())
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");
const page = (path: string, withCookie = "") => fetch(`${server.url}${path}`, { headers: { Cookie: withCookie } });

/** Runs `check` while writes to `table` abort, as a full disk or a locked file would. */
async function whileWritesFail(table: string, event: "insert" | "update" | "delete", check: () => Promise<void>) {
  const restore = await failWritesTo(db, table, event);
  try {
    await check();
  } finally {
    await restore();
  }
}
/** Runs `check` while `table` cannot be read at all. */
async function whileTableIsGone(table: string, check: () => Promise<void>) {
  await raw.run(`alter table ${table} rename to ${table}_away`);
  try {
    await check();
  } finally {
    await raw.run(`alter table ${table}_away rename to ${table}`);
  }
}

describe("failures say what failed", () => {
  it("/404 shows the generic not-found text, not 'Plateforme introuvable'", async () => {
    const res = await page("/404");
    expect(res.status).toBe(404);
    const html = await text(res);
    expect(html).toContain("Oops! Page introuvable");
    expect(html).not.toContain("Plateforme introuvable");
  });

  it("a suggestion that cannot be saved: 503, 'Impossible de soumettre votre suggestion', the input kept, nothing written", async () => {
    await whileWritesFail("platform_suggestions", "insert", async () => {
      const res = await postForm(`${server.url}/suggest-platform`, {
        intent: "suggest",
        name: "Plateforme Indisponible",
        description: "Une description gardée",
        website_url: "",
      });
      expect(res.status).toBe(503);
      const html = await text(res);
      expect(html).toContain("Impossible de soumettre votre suggestion");
      expect(html).toContain('value="Plateforme Indisponible"');
      expect(html).toContain("Une description gardée");
    });
    expect(
      await raw.get("select cast(count(*) as integer) as n from platform_suggestions where name = ?", "Plateforme Indisponible"),
    ).toEqual({
      n: 0,
    });
  });

  it("pages whose data cannot be loaded name it, in the visitor's language, with 503", async () => {
    await whileTableIsGone("platforms", async () => {
      for (const path of ["/", "/submit", "/platforms", "/partnerships"]) {
        const res = await page(path);
        expect(res.status, path).toBe(503);
        expect(await text(res), path).toContain("Erreur lors du chargement des plateformes");
      }
      const en = await page("/platforms?lng=en");
      expect(await text(en)).toContain("Error loading the platforms");
      const admin = await page("/admin/platforms", cookie);
      expect(admin.status).toBe(503);
      expect(await text(admin)).toContain("Erreur lors du chargement des plateformes");
    });
    await whileTableIsGone("platform_suggestions", async () => {
      const res = await page("/suggest-platform");
      expect(res.status).toBe(503);
      expect(await text(res)).toContain("Erreur lors du chargement");
    });
    await whileTableIsGone("deletion_requests", async () => {
      const res = await page("/admin/deletions", cookie);
      expect(res.status).toBe(503);
      expect(await text(res)).toContain("Erreur lors du chargement des demandes");
    });
    // Back to normal afterwards.
    expect((await page("/platforms")).status).toBe(200);
  });

  it("admin: a failing create says 'Erreur lors de la création de la plateforme' with the input kept", async () => {
    await whileWritesFail("platforms", "insert", async () => {
      const res = await postForm(
        `${server.url}/admin/platforms/new`,
        { intent: "create", name: "Échec Créé", slug: "echec-cree", description: "Texte gardé", code_pattern: "^[A-Z0-9]{4,}$" },
        { cookie },
      );
      expect(res.status).toBe(503);
      const html = await text(res);
      expect(html).toContain("Erreur lors de la création de la plateforme");
      expect(html).toContain('value="Échec Créé"');
    });
    expect(await raw.get("select cast(count(*) as integer) as n from platforms where slug = 'echec-cree'")).toEqual({ n: 0 });
  });

  it("admin: a failing partnership save says so next to the form, with the input kept", async () => {
    await whileWritesFail("partnerships", "insert", async () => {
      const res = await postForm(
        `${server.url}/admin/partnerships`,
        { intent: "create", name: "Partenaire Perdu", url: "https://perdu.example/" },
        { cookie },
      );
      expect(res.status).toBe(503);
      const html = await text(res);
      expect(html).toContain("Erreur lors de la création du partenariat");
      expect(html).toContain('value="Partenaire Perdu"');
    });
  });

  it("admin: a failing code update says 'Erreur lors de la modification', a failing delete 'Erreur lors de la suppression'", async () => {
    const platform = (await raw.get<{ id: number; slug: string }>("select id, slug from platforms order by id limit 1"))!;
    const { id } = (await raw.get<{ id: number }>(
      "insert into referral_codes (platform_id, code, created_at) values (?, 'FAILS123', ?) returning id",
      platform.id,
      new Date().toISOString(),
    ))!;
    await whileWritesFail("referral_codes", "update", async () => {
      const res = await postForm(
        `${server.url}/admin/codes?platform=${platform.slug}`,
        { intent: "update", id: String(id), code: "FAILS456", referral_url: "" },
        { cookie },
      );
      expect(res.status).toBe(503);
      expect(await text(res)).toContain("Erreur lors de la modification");
    });
    await whileWritesFail("referral_codes", "delete", async () => {
      const res = await postForm(
        `${server.url}/admin/codes?platform=${platform.slug}`,
        { intent: "delete", id: String(id), confirm: "yes" },
        { cookie },
      );
      expect(res.status).toBe(503);
      expect(await text(res)).toContain("Erreur lors de la suppression");
    });
    expect(await raw.get("select code from referral_codes where id = ?", id)).toEqual({ code: "FAILS123" });
  });
  it("admin: a failing row action in the deletions, suggestions and platforms tabs says so next to the row (503), never the error page", async () => {
    const platform = (await raw.get<{ id: number; name: string }>("select id, name from platforms order by id limit 1"))!;
    const now = new Date().toISOString();
    const { id: requestId } = (await raw.get<{ id: number }>(
      "insert into deletion_requests (code, platform_id, reason, created_at) values ('GONE42', ?, '', ?) returning id",
      platform.id,
      now,
    ))!;
    const { id: suggestionId } = (await raw.get<{ id: number }>(
      "insert into platform_suggestions (name, normalized_name, created_at) values ('Echoue Bank', 'echoue bank', ?) returning id",
      now,
    ))!;
    const post = (path: string, fields: Record<string, string>) => postForm(`${server.url}${path}`, fields, { cookie });
    const shows = async (res: Response, message: string) => {
      expect(res.status).toBe(503);
      const html = await text(res);
      expect(html).toContain(message);
      expect(html).toContain('data-testid="form-error"');
    };

    await whileWritesFail("deletion_requests", "update", async () => {
      await shows(await post("/admin/deletions", { intent: "approve", id: String(requestId) }), "Erreur lors de la suppression");
      await shows(await post("/admin/deletions", { intent: "reject", id: String(requestId) }), "Erreur lors du rejet");
    });
    expect(await raw.get("select status from deletion_requests where id = ?", requestId)).toEqual({ status: "pending" });

    await whileWritesFail("platform_suggestions", "update", async () => {
      await shows(
        await post("/admin/suggestions", { intent: "reject", id: String(suggestionId), confirm: "yes" }),
        "Erreur lors du rejet",
      );
    });
    expect(await raw.get("select status from platform_suggestions where id = ?", suggestionId)).toEqual({
      status: "pending",
    });

    const before = await raw.get("select is_active from platforms where id = ?", platform.id);
    await whileWritesFail("platforms", "update", async () => {
      await shows(
        await post("/admin/platforms", { intent: "toggle-active", id: String(platform.id) }),
        "Erreur lors du changement de statut",
      );
    });
    expect(await raw.get("select is_active from platforms where id = ?", platform.id)).toEqual(before);
  });
});
