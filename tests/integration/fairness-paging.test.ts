import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~db/schema";
import { createCode, createPlatform, openTestDb } from "../support/fixtures";
import { startServer, type RunningServer } from "../support/server";

// /fairness lists the active platforms a page at a time (12 cards, keyset links that work without
// JavaScript), so the page stays the same size however many platforms the admin adds (issue 24).

describe("/fairness, paged", () => {
  let server: RunningServer;
  let db: Kysely<Database>;
  beforeAll(async () => {
    server = await startServer();
    db = openTestDb(server.dbFile);
    // 30 more platforms beside the seeded ones, one inactive (never listed), each with a code.
    for (let i = 0; i < 30; i++) {
      const p = await createPlatform(db, { display_order: 100 + (i % 7), is_active: i === 5 ? 0 : 1 });
      await createCode(db, p.id, { code: `PAGED${i}` });
    }
  });
  afterAll(async () => {
    await db?.destroy();
    await server?.stop();
  });

  const slugsOf = (html: string) => [...html.matchAll(/data-testid="fairness-platform" data-slug="([^"]+)"/g)].map((m) => m[1]!);
  const linkOf = (html: string, rel: "next" | "prev") => {
    const tag = html.match(new RegExp(`<a[^>]*rel="${rel}"[^>]*>`))?.[0];
    return tag ? tag.match(/href="([^"]+)"/)![1]!.replaceAll("&amp;", "&") : null;
  };

  it("every active platform once, 12 at most per page, forwards and back", async () => {
    const active = await db.selectFrom("platforms").select("slug").where("is_active", "=", 1).execute();
    const seen: string[] = [];
    const pages: string[] = [];
    let href: string | null = "/fairness";
    while (href) {
      const res = await fetch(`${server.url}${href}`);
      expect(res.status).toBe(200);
      const html = await res.text();
      const slugs = slugsOf(html);
      expect(slugs.length).toBeGreaterThan(0);
      expect(slugs.length).toBeLessThanOrEqual(12);
      expect(html).toMatch(new RegExp(`data-testid="pager-total" data-count="${active.length}"`));
      seen.push(...slugs);
      pages.push(href);
      href = linkOf(html, "next");
      expect(pages.length).toBeLessThan(10);
    }
    expect(pages.length).toBe(Math.ceil(active.length / 12));
    expect([...seen].sort()).toEqual(active.map((p) => p.slug).sort());
    // Back from the last page, the previous links give the same pages in reverse.
    let back = linkOf(await (await fetch(`${server.url}${pages.at(-1)}`)).text(), "prev");
    const backwards: string[] = [];
    while (back) {
      const html = await (await fetch(`${server.url}${back}`)).text();
      backwards.unshift(...slugsOf(html));
      back = linkOf(html, "prev");
    }
    expect([...backwards, ...slugsOf(await (await fetch(`${server.url}${pages.at(-1)}`)).text())]).toEqual(seen);
  });

  it("?platform= shows that platform alone; an unknown one shows none; a forged cursor is a 400", async () => {
    const [one] = await db.selectFrom("platforms").select("slug").where("is_active", "=", 1).limit(1).execute();
    const html = await (await fetch(`${server.url}/fairness?platform=${one!.slug}`)).text();
    expect(slugsOf(html)).toEqual([one!.slug]);
    expect(html).toContain('data-testid="fairness-all"');
    expect(slugsOf(await (await fetch(`${server.url}/fairness?platform=nope-none`)).text())).toEqual([]);
    expect((await fetch(`${server.url}/fairness?after=forged`)).status).toBe(400);
  });
});
