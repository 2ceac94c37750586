import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~db/schema";
import { brandMarkOf } from "~/features/codes/brand-marks.server";
import { createCode, openTestDb } from "../support/fixtures";
import { startServer, type RunningServer } from "../support/server";

/**
 * Issue 59: the seeded platforms' brand marks (simple-icons) drawn as inline SVG in the server's HTML
 * (no script needed), the emoji where there is none, the admin's logo over both; and the home cards'
 * count of codes a draw could serve now, in each language with its plurals.
 */
describe("brand marks and the home cards' counts over HTTP", () => {
  let server: RunningServer;
  let db: Kysely<Database>;
  beforeAll(async () => {
    server = await startServer();
    db = openTestDb(server.dbFile);
  });
  afterAll(async () => {
    await db?.destroy();
    await server?.stop();
  });

  const page = async (path: string) => {
    const res = await fetch(`${server.url}${path}`, { headers: { Cookie: "fresh=1" } });
    expect(res.status).toBe(200);
    return res.text();
  };
  /** The home card (carousel slide) or /platforms item of one platform, by its link. */
  const cardOf = (html: string, slug: string) => {
    const items = [...html.matchAll(/<li[^>]*data-testid="platform-(?:slide|item)"[^>]*>([\s\S]*?)<\/li>/g)].map((m) => m[1]!);
    const found = items.find((item) => item.includes(`href="/${slug}"`));
    expect(found, slug).toBeDefined();
    return found!;
  };

  it("draws Tesla's mark, Trade Republic's emoji, and an uploaded logo over a mark, with counts", async () => {
    // The seeded platforms (db/seed-data.ts), as every fresh database has them.
    const seeded = async (slug: string) =>
      db.selectFrom("platforms").select(["id", "emoji_icon"]).where("slug", "=", slug).executeTakeFirstOrThrow();
    const tesla = await seeded("tesla");
    const trade = await seeded("trade-republic");
    const revolut = await seeded("revolut");
    await db
      .updateTable("platforms")
      .set({
        custom_logo_dark_url: "https://cdn.example/revolut-dark.png",
        custom_logo_light_url: "https://cdn.example/revolut-light.png",
      })
      .where("id", "=", revolut.id)
      .execute();
    await createCode(db, tesla.id, { code: "TESLAONE1" });
    await createCode(db, tesla.id, { code: "TESLATWO2" });
    // Not in the draw: paused, or expired (the kept count less the expired range).
    await createCode(db, tesla.id, { code: "TESLAOFF3", is_active: 0 });
    await createCode(db, tesla.id, { code: "TESLAOLD4", expires_at: new Date(Date.now() - 60_000).toISOString() });
    await createCode(db, trade.id, { code: "TRADEONE1" });
    const teslaPath = brandMarkOf("tesla")!.path;

    const home = await page("/");
    const teslaCard = cardOf(home, "tesla");
    expect(teslaCard).toContain('data-testid="brand-mark"');
    expect(teslaCard).toContain(`<path d="${teslaPath}" fill="#CC0000">`);
    expect(teslaCard).not.toContain(tesla.emoji_icon);
    expect(teslaCard).toMatch(/data-testid="platform-available"[^>]*>2 codes disponibles</);
    const tradeCard = cardOf(home, "trade-republic");
    expect(tradeCard).not.toContain('data-testid="brand-mark"');
    expect(tradeCard).toContain(trade.emoji_icon);
    expect(tradeCard).toMatch(/data-testid="platform-available"[^>]*>1 code disponible</);
    // The admin's upload overrides the mark everywhere (the dark one: the default theme); no code yet.
    const revolutCard = cardOf(home, "revolut");
    expect(revolutCard).toContain('src="https://cdn.example/revolut-dark.png"');
    expect(revolutCard).not.toContain('data-testid="brand-mark"');
    expect(revolutCard).toMatch(/data-testid="platform-available"[^>]*>Aucun code disponible pour le moment</);

    const en = await page("/?lng=en");
    expect(cardOf(en, "tesla")).toMatch(/>2 codes available</);
    expect(cardOf(en, "trade-republic")).toMatch(/>1 code available</);
    expect(cardOf(await page("/?lng=de"), "tesla")).toMatch(/>2 Codes verfügbar</);
    expect(cardOf(await page("/?lng=es"), "trade-republic")).toMatch(/>1 código disponible</);

    const list = await page("/platforms");
    expect(cardOf(list, "tesla")).toContain(`<path d="${teslaPath}"`);
    expect(cardOf(list, "trade-republic")).toContain(trade.emoji_icon);
    expect(cardOf(list, "revolut")).toContain('src="https://cdn.example/revolut-dark.png"');

    const landing = await page("/tesla");
    expect(landing).toContain(`<path d="${teslaPath}"`);
    // The admin's upload overrides the mark on the platform's own pages.
    const revolutPage = await page("/revolut");
    expect(revolutPage).toContain('src="https://cdn.example/revolut-dark.png"');
    expect(revolutPage).not.toContain('data-testid="brand-mark"');
    expect(await page("/trade-republic")).toContain(trade.emoji_icon);
  });
});
