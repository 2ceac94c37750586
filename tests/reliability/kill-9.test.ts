import http from "node:http";
import SQLite from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../support/server";
import { tmpPath } from "../support/paths";
import { insertCodes, postThrough, recordFigures, startReliabilityServer } from "./support";

/**
 * Five times: clients submit codes and draw at once, and the server is killed with SIGKILL in the
 * middle (no shutdown, no checkpoint). Every write it acknowledged (303) must be in the file
 * afterwards, and the file must pass SQLite's integrity check.
 */
const ROUNDS = 5;
const WRITERS = 12;

const figures = { rounds: 0, acknowledged: 0, lost: 0, integrityFailures: 0 };
afterAll(() => {
  recordFigures("2-kill-9", {
    "kill -9: rounds under concurrent writes": figures.rounds,
    "kill -9: acknowledged writes": figures.acknowledged,
    "kill -9: acknowledged writes lost": figures.lost,
    "kill -9: integrity_check failures": figures.integrityFailures,
  });
});

const randomAddress = () => `203.0.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;

describe("kill -9 under concurrent writes", () => {
  it(`${ROUNDS} rounds: integrity_check ok, no acknowledged write lost`, async () => {
    const dbFile = tmpPath("kill9.db");
    const submitted: string[] = [];
    let acknowledgedDraws = 0;
    let server: RunningServer | undefined;

    for (let round = 1; round <= ROUNDS; round++) {
      server = await startReliabilityServer({ DATABASE_FILE: dbFile });
      if (round === 1) insertCodes(dbFile, "n26", 50, "KILLDRAW");
      const agent = new http.Agent({ keepAlive: true, maxSockets: WRITERS });
      let killed = false;
      let acknowledgedThisRound = 0;
      const writer = async (w: number) => {
        for (let i = 0; !killed; i++) {
          if (i % 2 === 0) {
            const code = `K${round}W${w}N${i}X${Math.random().toString(36).slice(2, 8)}`.toUpperCase();
            const body = new URLSearchParams({ intent: "submit", platform: "tesla", code }).toString();
            const res = await postThrough(agent, `${server!.url}/submit`, body, { "Fly-Client-IP": randomAddress() });
            if (res.status === 303) submitted.push(code);
            if (res.status === 303) acknowledgedThisRound++;
          } else {
            const res = await postThrough(agent, `${server!.url}/n26/get-code`, "intent=draw", {
              "Fly-Client-IP": randomAddress(),
            });
            if (res.status === 303) {
              acknowledgedDraws++;
              acknowledgedThisRound++;
            }
          }
        }
      };
      const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
      // Killed in full flow: once writes are being acknowledged, at a random moment after that.
      for (let waited = 0; acknowledgedThisRound < 20 && waited < 30_000; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 500));
      await server.kill("SIGKILL");
      killed = true;
      await Promise.all(writers);
      agent.destroy();
      figures.rounds++;

      // Opening the file recovers the write-ahead log, as the next start would.
      const db = new SQLite(dbFile);
      try {
        const integrity = db.pragma("integrity_check", { simple: true });
        if (integrity !== "ok") figures.integrityFailures++;
        const present = new Set(
          (db.prepare("SELECT code FROM referral_codes WHERE code LIKE 'K%'").all() as Array<{ code: string }>).map(
            (r) => r.code,
          ),
        );
        const lost = submitted.filter((code) => !present.has(code));
        const logged = (db.prepare("SELECT count(*) AS n FROM random_requests").get() as { n: number }).n;
        const served = (db.prepare("SELECT coalesce(sum(times_served), 0) AS n FROM referral_codes").get() as { n: number }).n;
        figures.acknowledged = submitted.length + acknowledgedDraws;
        // A draw in flight at the kill may have committed without its answer going out: at least, never fewer.
        figures.lost = lost.length + Math.max(0, acknowledgedDraws - logged);
        expect(integrity).toBe("ok");
        expect(lost).toEqual([]);
        expect(logged).toBeGreaterThanOrEqual(acknowledgedDraws);
        expect(served).toBe(logged);
      } finally {
        db.close();
      }
    }
    expect(submitted.length + acknowledgedDraws).toBeGreaterThanOrEqual(ROUNDS * 20);
    expect(submitted.length).toBeGreaterThan(0);
    expect(acknowledgedDraws).toBeGreaterThan(0);

    // The server starts again on the file as it was left.
    server = await startReliabilityServer({ DATABASE_FILE: dbFile });
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    await server.stop();
  });
});
