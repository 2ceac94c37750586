import http from "node:http";
import SQLite from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../support/server";
import { insertCodes, postThrough, recordFigures, startReliabilityServer } from "./support";

/** 1,000 draws sent at once on one platform: every code served as evenly as possible, each draw logged once. */
const DRAWS = 1_000;
const CODES = 37;

let server: RunningServer;
beforeAll(async () => {
  server = await startReliabilityServer();
});
afterAll(async () => {
  await server?.stop();
});

describe("concurrent draws", () => {
  it(`${DRAWS} draws at once over ${CODES} codes: spread at most 1, one log row each`, async () => {
    const platformId = insertCodes(server.dbFile, "holy", CODES, "CONCUR");
    const agent = new http.Agent({ keepAlive: true, maxSockets: DRAWS });
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: DRAWS }, (_, i) =>
        postThrough(agent, `${server.url}/holy/get-code`, "intent=draw", { "Fly-Client-IP": `198.51.100.${i % 250}` }),
      ),
    );
    const seconds = (Date.now() - started) / 1000;
    agent.destroy();

    const db = new SQLite(server.dbFile, { readonly: true });
    const served = (
      db.prepare("SELECT times_served AS n FROM referral_codes WHERE platform_id = ?").all(platformId) as Array<{ n: number }>
    ).map((r) => r.n);
    const logged = (
      db.prepare("SELECT count(*) AS n FROM random_requests WHERE platform_id = ?").get(platformId) as { n: number }
    ).n;
    db.close();
    const spread = Math.max(...served) - Math.min(...served);
    const drawn = answers.filter((a) => a.status === 303).length;
    recordFigures("5-draws", {
      "draws: sent at once": DRAWS,
      "draws: answered 303": drawn,
      "draws: log rows": logged,
      "draws: spread of serve counts (max - min)": spread,
      "draws: seconds for all": seconds.toFixed(1),
    });
    expect(answers.map((a) => a.status)).toEqual(Array(DRAWS).fill(303));
    expect(new Set(answers.map((a) => a.location)).size).toBe(DRAWS);
    expect(served.reduce((a, b) => a + b, 0)).toBe(DRAWS);
    expect(spread).toBeLessThanOrEqual(1);
    expect(logged).toBe(DRAWS);
  });

  it("50 visitors drawing at once, each then asking for its result page: every draw's page is served 200 (decision 330)", async () => {
    insertCodes(server.dbFile, "tesla", 20, "BURST");
    const VISITORS = 50;
    const agent = new http.Agent({ keepAlive: true, maxSockets: VISITORS });
    const started = Date.now();
    const pages = await Promise.all(
      Array.from({ length: VISITORS }, async (_, i) => {
        const address = `2001:db8:50:${i.toString(16)}::1`;
        // The draw page's action, as a browser without JavaScript posts it.
        const target = "/tesla/get-code";
        const drawn = await postThrough(agent, `${server.url}${target}`, "intent=draw", { "Fly-Client-IP": address });
        if (drawn.status !== 303 || !drawn.location) return `draw ${drawn.status}`;
        const page = await fetch(new URL(drawn.location, server.url), { headers: { "Fly-Client-IP": address } });
        await page.arrayBuffer();
        return page.status;
      }),
    );
    agent.destroy();
    recordFigures("5-draws", {
      "burst: visitors": VISITORS,
      "burst: result pages 200": pages.filter((p) => p === 200).length,
      "burst: other answers": pages.filter((p) => p !== 200).join(", ") || "none",
      "burst: seconds for all": ((Date.now() - started) / 1000).toFixed(1),
    });
    expect(pages).toEqual(Array(VISITORS).fill(200));
  });
});
