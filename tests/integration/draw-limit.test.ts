import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCode, createPlatform, openRawDb, openTestDb, type RawDb, type TestDb } from "../support/fixtures";
import { postForm, startServer, type RunningServer } from "../support/server";

/**
 * Draws per address (decision 298): a script drawing in a loop wrote a draw row (kept 30 days) per
 * request, thousands a second, enough to fill the volume, and walked the fairness order at will.
 * Here 3 draws per address in 10 minutes (DRAW_RATE_LIMIT=3), addresses given as Fly's edge gives
 * them (TRUST_PROXY=1): the fourth is refused in the visitor's language with Retry-After, nothing
 * drawn or written, through the endpoint and the page's action, with and without JavaScript; another
 * address still draws.
 */
let server: RunningServer;
let db: TestDb;
let raw: RawDb;
let slug: string;

beforeAll(async () => {
  server = await startServer({ TRUST_PROXY: "1", DRAW_RATE_LIMIT: "3" });
  db = openTestDb(server.dbFile);
  raw = openRawDb(server.dbFile);
  const p = await createPlatform(db);
  slug = p.slug;
  for (let i = 0; i < 4; i++) await createCode(db, p.id);
});
afterAll(async () => {
  await raw?.close();
  await db?.destroy();
  await server?.stop();
});

const draws = async () => (await raw.get<{ n: number }>("select cast(count(*) as integer) as n from random_requests"))!.n;

function draw(path: string, address: string) {
  return postForm(`${server.url}${path}`, { intent: "draw" }, { headers: { "Fly-Client-IP": address, "Accept-Language": "fr" } });
}

describe("draws per address", () => {
  it("the fourth draw in 10 minutes is refused (429, Retry-After, the message), nothing written; another address draws", async () => {
    const address = "198.51.100.7";
    for (let i = 0; i < 3; i++) expect((await draw(`/${slug}/get-code`, address)).status).toBe(303);
    expect(await draws()).toBe(3);

    // Without JavaScript: the form's post, answered by the page's action in the visitor's language.
    const refused = await draw(`/${slug}/get-code`, address);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(500);
    expect(await refused.text()).toContain("Trop de tentatives en peu de temps. Réessayez dans 10 minutes.");
    // With JavaScript: Remix's own request to the same action.
    const enhanced = await draw(`/${slug}/get-code.data`, address);
    expect(enhanced.status).toBe(429);
    expect(enhanced.headers.get("retry-after")).toMatch(/^\d+$/);
    // The draw across platforms counts the same draws.
    expect((await draw("/random", address)).status).toBe(429);
    expect(await draws()).toBe(3);

    // Another address (an IPv6 /64 of its own) is not concerned.
    expect((await draw(`/${slug}/get-code`, "2001:db8:1:2::5")).status).toBe(303);
    expect(await draws()).toBe(4);
  });
});
