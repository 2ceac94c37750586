import http from "node:http";
import { decode } from "turbo-stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCode, createPlatform, openRawDb, openTestDb, type RawDb, type TestDb } from "../support/fixtures";
import { startServer, type RunningServer } from "../support/server";

/**
 * Visitors drawing at the same moment, through the draw page's action as the browsers post it, then
 * asking for their result page: admission control (server/admission.ts, decision 330) queues page
 * renders and refuses by expected wait, but never the result page of a draw that was stored, and
 * refuses a draw only before it is made (issue 58). The same on SQLite and PostgreSQL.
 */

let server: RunningServer;
let db: TestDb;
let raw: RawDb;
beforeAll(async () => {
  server = await startServer();
  db = openTestDb(server.dbFile);
  raw = openRawDb(server.dbFile);
});
afterAll(async () => {
  await raw?.close();
  await db?.destroy();
  await server?.stop();
});

type Answer = { status: number; location: string | null };

/** One POST on its own keep-alive socket; the redirect's address, from the header (no JS) or the single-fetch answer (JS). */
function post(agent: http.Agent, path: string, address: string): Promise<Answer> {
  const body = "intent=draw";
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        agent,
        host: new URL(server.url).hostname,
        port: new URL(server.url).port,
        path,
        method: "POST",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          "Content-Length": Buffer.byteLength(body),
          Origin: server.url,
          "Fly-Client-IP": address,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const status = res.statusCode ?? 0;
          if (status !== 202) return resolve({ status, location: res.headers.location ?? null });
          const stream = new Blob([Buffer.concat(chunks)]).stream();
          decode(stream).then(
            (decoded) => resolve({ status, location: (decoded.value as { redirect?: string }).redirect ?? null }),
            reject,
          );
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** `visitors` draws at once, half as a browser without JavaScript posts them, half as Remix's own request; then each result page. */
async function burst(slug: string, visitors: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: visitors });
  try {
    return await Promise.all(
      Array.from({ length: visitors }, async (_, i) => {
        const address = `2001:db8:58:${i.toString(16)}::1`;
        const js = i % 2 === 1;
        const drawn = await post(agent, `/${slug}/get-code${js ? ".data" : ""}`, address);
        if (!drawn.location) return { drawn: drawn.status, page: null };
        // With JavaScript the browser asks the result's data (`.data?draw=`), without it the page.
        const url = new URL(drawn.location, server.url);
        if (js) url.pathname += ".data";
        const page = await fetch(url, { headers: { "Fly-Client-IP": address } });
        await page.arrayBuffer();
        return { drawn: drawn.status, page: page.status };
      }),
    );
  } finally {
    agent.destroy();
  }
}

const logRows = async (platformId: number) =>
  (await raw.get<{ n: number }>("select cast(count(*) as integer) as n from random_requests where platform_id = ?", platformId))!
    .n;

describe("visitors drawing at the same moment", () => {
  it("50 at once: all 50 drawn (none refused) and every result page answered 200", async () => {
    const p = await createPlatform(db);
    for (let i = 0; i < 10; i++) await createCode(db, p.id, { code: `BURST${i}` });
    const answers = await burst(p.slug, 50);
    expect(answers.map((a) => a.drawn)).toEqual(Array.from({ length: 50 }, (_, i) => (i % 2 ? 202 : 303)));
    expect(answers.map((a) => a.page)).toEqual(Array(50).fill(200));
    expect(await logRows(p.id)).toBe(50);
  }, 60_000);

  it("100 at once: every committed draw's result page is served; a draw refused wrote nothing", async () => {
    const p = await createPlatform(db);
    for (let i = 0; i < 10; i++) await createCode(db, p.id, { code: `HUNDRED${i}` });
    const answers = await burst(p.slug, 100);
    const committed = answers.filter((a) => a.drawn === 303 || a.drawn === 202);
    // A refusal is admission control's, before the draw: 503, and no row for it.
    expect(answers.filter((a) => a.drawn !== 303 && a.drawn !== 202).every((a) => a.drawn === 503)).toBe(true);
    expect(committed.map((a) => a.page)).toEqual(Array(committed.length).fill(200));
    expect(await logRows(p.id)).toBe(committed.length);
    expect(committed.length).toBeGreaterThan(0);
  }, 60_000);
});
