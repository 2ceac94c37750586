import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { checkSimilarNames } from "~/features/community/similarity";
import { signInQuietly, startServerWithAdmin } from "../support/admin";
import { openTestDb, withRawDb } from "../support/fixtures";
import { MEDIUM, MEDIUM_DAY, seedMediumData } from "../support/medium-data";
import { postForm, type RunningServer } from "../support/server";

/**
 * Every paged list on a medium data set (tens of thousands of rows), over real HTTP against the
 * built server running with the production heap limit: each page shows at most 50 rows, the
 * next links reach every row exactly once and the previous links walk back over the same rows,
 * filters narrow, and the server is alive after every page.
 */
// Walking every page of a list is hundreds of requests on a shared 2-core machine.
vi.setConfig({ testTimeout: 240_000 });

let server: RunningServer;
let cookie: string;
let ids: { bigId: number; midId: number };

beforeAll(async () => {
  // The data set is dated in January 2026 on purpose (fixed day boundaries), older than the retention
  // periods: the server's jobs (the first a minute after the start) would remove it while a slow run
  // still reads it. They wait a day here; the jobs have their own tests.
  server = await startServerWithAdmin({ NODE_OPTIONS: "--max-old-space-size=128", JOB_INTERVAL_SECONDS: "86400" });
  cookie = await signInQuietly(server);
  const db = openTestDb(server.dbFile);
  try {
    ids = await seedMediumData(db);
  } finally {
    await db.destroy();
  }
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

const column = <T>(query: string, ...params: unknown[]) =>
  withRawDb(server.dbFile, async (db) => (await db.all<{ v: T }>(query, ...params)).map((r) => r.v));

async function page(path: string, status = 200): Promise<string> {
  const res = await fetch(`${server.url}${path}`, { headers: { Cookie: cookie }, redirect: "manual" });
  const html = await res.text();
  expect(res.status, `${path}: ${html.slice(0, 300)}`).toBe(status);
  return html;
}

const unescape = (href: string) => href.replace(/&amp;/g, "&");
function linkOf(html: string, rel: "next" | "prev"): string | null {
  const tag = new RegExp(`<a[^>]*data-testid="pager-${rel}"[^>]*>`).exec(html)?.[0];
  if (!tag) return null;
  expect(tag).toContain(`rel="${rel}"`);
  return unescape(/href="([^"]+)"/.exec(tag)![1]!);
}

const PAGE_SIZE = 50;

/**
 * Follows the next links from `start` to the last page, then the previous links back to the
 * first; answers the rows seen going forward (each page at most 50 rows, no row twice, the same
 * rows coming back).
 */
async function walk(start: string, rowPattern: RegExp): Promise<string[]> {
  const rowsOf = (html: string) => [...html.matchAll(rowPattern)].map((m) => m[1]!);
  const forward: string[][] = [];
  let href: string | null = start;
  let last = start;
  while (href) {
    const html = await page(href);
    const rows = rowsOf(html);
    expect(rows.length).toBeLessThanOrEqual(PAGE_SIZE);
    forward.push(rows);
    last = href;
    href = linkOf(html, "next");
    if (href) expect(rows.length).toBe(PAGE_SIZE);
  }
  const backward: string[][] = [];
  href = last;
  while (href) {
    const html = await page(href);
    backward.unshift(rowsOf(html));
    href = linkOf(html, "prev");
  }
  expect(backward).toEqual(forward);
  const seen = forward.flat();
  expect(new Set(seen).size).toBe(seen.length);
  return seen;
}

const sorted = (values: Array<string | number>) => values.map(String).sort();

describe("admin lists on a medium data set", () => {
  it("codes: a platform of 20,000 codes shows 50 rows and a capped total; pages go on", async () => {
    const html = await page("/admin/codes?platform=m-big");
    expect([...html.matchAll(/data-testid="code-row-/g)].length).toBe(PAGE_SIZE);
    expect(html).toMatch(/data-testid="pager-total" data-count="10000" data-capped="true"/);
    let next = linkOf(html, "next");
    for (let i = 0; i < 3; i++) {
      const more = await page(next!);
      expect([...more.matchAll(/data-testid="code-row-/g)].length).toBe(PAGE_SIZE);
      next = linkOf(more, "next");
    }
    expect(linkOf(html, "prev")).toBeNull();
  });

  it("codes: every code of a platform exactly once, forwards and back (ties on the date included)", async () => {
    const seen = await walk("/admin/codes?platform=m-mid", /data-testid="code-row-([^"]+)"/g);
    expect(sorted(seen)).toEqual(
      sorted(await column<string>("select code as v from referral_codes where platform_id = ?", ids.midId)),
    );
  });

  it.each(Object.entries(MEDIUM.midStates))("codes: the %s filter narrows to its %i codes", async (state, count) => {
    const seen = await walk(`/admin/codes?platform=m-mid&state=${state}`, /data-testid="code-row-([^"]+)"/g);
    expect(seen.length).toBe(count);
  });

  it("codes: the search finds a code by part of it, any case; % and _ match themselves", async () => {
    const html = await page("/admin/codes?platform=m-mid&q=d0012");
    expect(sorted([...html.matchAll(/data-testid="code-row-([^"]+)"/g)].map((m) => m[1]!))).toEqual(
      sorted(Array.from({ length: 10 }, (_, i) => `MID0012${i}`)),
    );
    expect(await page("/admin/codes?platform=m-mid&q=%25")).toContain('data-testid="codes-empty"');
    expect(await page("/admin/codes?platform=m-mid&q=_")).toContain('data-testid="codes-empty"');
  });

  it("draw log: one platform's draws exactly once, and one day's", async () => {
    const all = await walk("/admin/requests?platform=m-mid", /data-testid="draw-row" data-id="(\d+)"/g);
    expect(all.length).toBe(MEDIUM.midDraws);
    const day = await walk(`/admin/requests?platform=m-mid&date=${MEDIUM_DAY}`, /data-testid="draw-row" data-id="(\d+)"/g);
    expect(day.length).toBe(MEDIUM.midDrawsPerDay);
    const first = await page("/admin/requests");
    expect([...first.matchAll(/data-testid="draw-row"/g)].length).toBe(PAGE_SIZE);
    await page("/admin/requests?date=2026-02-31", 400);
  });

  it("deletion requests: filtered by status and platform, exactly once", async () => {
    const seen = await walk("/admin/deletions?status=approved&platform=m-mid", /data-testid="deletion-row-([^"]+)"/g);
    expect(sorted(seen)).toEqual(
      sorted(
        await column<string>("select code as v from deletion_requests where status = 'approved' and platform_id = ?", ids.midId),
      ),
    );
    expect(seen.length).toBe(500);
  });

  it("suggestions (admin): one status, exactly once", async () => {
    const seen = await walk("/admin/suggestions?status=approved", /data-testid="suggestion-row-(\d+)"/g);
    expect(sorted(seen)).toEqual(
      sorted(await column<number>("select id as v from platform_suggestions where status = 'approved'")),
    );
  });

  it("scores: one device on one day, exactly once; the whole list pages", async () => {
    const seen = await walk(`/admin/scores?device=mobile&date=${MEDIUM_DAY}`, /data-testid="score-row" data-id="(\d+)"/g);
    expect(seen.length).toBeGreaterThan(PAGE_SIZE);
    const devices = await column<string>(
      `select device_type as v from game_scores where id in (${seen.map(() => "?").join(",")})`,
      ...seen.map(Number),
    );
    expect(new Set(devices)).toEqual(new Set(["mobile"]));
    const html = await page("/admin/scores");
    expect([...html.matchAll(/data-testid="score-row"/g)].length).toBe(PAGE_SIZE);
  });

  it("platforms and partnerships: every row exactly once", async () => {
    const platforms = await walk("/admin/platforms", /data-testid="platform-row-([^"]+)"/g);
    expect(sorted(platforms)).toEqual(sorted(await column<string>("select slug as v from platforms")));
    const partners = await walk("/admin/partnerships", /data-testid="partnership-item" data-id="(\d+)"/g);
    expect(partners.length).toBe(MEDIUM.partnerships);
  });

  it("a cursor no page handed out is a 400, not a 500", async () => {
    await page("/admin/codes?platform=m-mid&after=garbage", 400);
    await page(`/admin/codes?platform=m-mid&after=${Buffer.from('["x"]').toString("base64url")}`, 400);
    await page(`/admin/scores?before=${Buffer.from('[1, "2"]').toString("base64url")}`, 400);
  });
});

describe("public suggestions on a medium data set", () => {
  it("most voted first and newest first, each suggestion shown exactly once", async () => {
    const visible = sorted(
      await column<number>("select id as v from platform_suggestions where status in ('pending', 'approved')"),
    );
    const pattern = /data-suggestion-id="(\d+)"/g;
    const top = await walk("/suggest-platform", pattern);
    expect(sorted(top)).toEqual(visible);
    const newest = await walk("/suggest-platform?sort=new", pattern);
    expect(newest.map(Number)).toEqual([...newest.map(Number)].sort((a, b) => b - a));
    expect(sorted(newest)).toEqual(visible);
  });

  it("the similar-name check reads a bounded set yet answers as the check over every name", async () => {
    const names = await withRawDb(server.dbFile, async (db) => [
      // A live platform carries its slug (the similar names link to its page), as the server reads it.
      ...(
        await db.all<{ id: number; name: string; slug: string; is_active: number | boolean }>(
          "select id, name, slug, is_active from platforms",
        )
      ).map((r) => ({ id: r.id, name: r.name, kind: "platform" as const, slug: r.is_active ? r.slug : null })),
      ...(
        await db.all<{ id: number; name: string }>(
          "select id, name from platform_suggestions where status in ('pending', 'approved')",
        )
      ).map((r) => ({ ...r, kind: "suggestion" as const })),
    ]);
    for (const typed of [
      "Kalober12 Bank",
      "Trazu7",
      "Quarisondy2999 France",
      "Medium m-mid",
      "Ka",
      "Pelgorvinoxnufaka",
      "Revolut",
    ]) {
      const res = await fetch(`${server.url}/resources/similar-names?name=${encodeURIComponent(typed)}`);
      const body = (await res.json()) as { similar: unknown[] };
      expect(body.similar, typed).toEqual(checkSimilarNames(typed, names).similar);
    }
  });
});

describe("destructive actions ask first", () => {
  it("without confirm=yes nothing is deleted and the page asks, on the same list page", async () => {
    const code = (await column<number>("select id as v from referral_codes where code = 'MID00007'"))[0]!;
    const asked = await postForm(
      `${server.url}/admin/codes?platform=m-mid&state=expired`,
      { intent: "delete", id: String(code) },
      { cookie },
    );
    expect(asked.status).toBe(303);
    const location = asked.headers.get("location")!;
    expect(location).toBe(`/admin/codes?platform=m-mid&state=expired&delete=${code}`);
    expect(await column<number>("select id as v from referral_codes where id = ?", code)).toEqual([code]);
    const html = await page(location);
    expect(html).toContain('data-testid="delete-code-confirm"');
    const done = await postForm(`${server.url}${location}`, { intent: "delete", id: String(code), confirm: "yes" }, { cookie });
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toBe("/admin/codes?platform=m-mid&state=expired");
    expect(await column<number>("select id as v from referral_codes where id = ?", code)).toEqual([]);
  });

  it.each([
    ["/admin/platforms", "delete", "select id as v from platforms where slug = 'm-p07'", "delete-platform-confirm"],
    ["/admin/deletions", "delete", "select id as v from deletion_requests where code = 'DEL4'", "delete-request-confirm"],
    ["/admin/scores", "delete", "select id as v from game_scores where player_name = 'Player7'", "scores-confirm"],
  ])("%s: intent=%s without confirm=yes keeps the row and asks", async (path, intent, query, testId) => {
    const id = (await column<number>(query))[0]!;
    const asked = await postForm(`${server.url}${path}`, { intent, id: String(id) }, { cookie });
    expect(asked.status).toBe(303);
    expect(await column<number>(query)).toEqual([id]);
    const html = await page(asked.headers.get("location")!);
    if (testId !== "scores-confirm") expect(html).toContain(`data-testid="${testId}"`);
    expect(html).toContain('name="confirm" value="yes"');
    const done = await postForm(`${server.url}${path}`, { intent, id: String(id), confirm: "yes" }, { cookie });
    expect(done.status).toBe(303);
    expect(await column<number>(query)).toEqual([]);
  });
});

describe("after every page", () => {
  it("the server is alive, within its 128 MB heap", async () => {
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    expect(server.output()).not.toMatch(/heap out of memory/i);
  });
});
