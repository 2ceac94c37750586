import fs from "node:fs";
import os from "node:os";
import SQLite from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { overload, type OverloadFigures } from "../../scripts/overload";
import { startServer } from "../support/server";
import { insertCodes, PRODUCTION_NODE_OPTIONS, recordFigures } from "./support";

/**
 * Mixed load (issue 30's last row, decision 212): 200 visitors, each from its own address, asking
 * uncached pages while every fifth request of each is a draw made as a browser without JavaScript
 * makes it (the form's POST, then the result page its 303 names, asked again after a Retry-After).
 * Every acknowledged draw is stored; no draw is stored without its answer reaching the visitor; the
 * code of every acknowledged draw is shown (its result page waits ahead of other pages, and a draw is
 * refused before it is made while those pages wait too much); every request is answered within 10 s,
 * a refusal (page or draw) is a 503 with Retry-After; memory under 200 MB.
 *
 * 20 s rather than the issue's 60 s: the queue turns over every second (waits of 1 s, 5 s for a
 * result page), so after the first seconds the rates are steady; 20 s gives about 1,000 draws and
 * 5,000 page requests here, enough for a p99 and for the draws checked one by one. The 60 s run is
 * `npm run bench -- --only overload`.
 */
const SECONDS = 20;
const CONNECTIONS = 200;
const PATHS = ["/", "/holy", "/platforms", "/fairness", "/?lng=en", "/holy?lng=de"];

let figures: Record<string, number | string> = {};
afterAll(() => recordFigures("8-mixed-load", figures));

const drawIdOf = (location: string) => Number(/[?&]draw=(\d+)\./.exec(location)?.[1]);

describe("mixed load: pages and draws", () => {
  it(`${CONNECTIONS} visitors for ${SECONDS} s: every acknowledged draw stored and shown, none stored unanswered, every request answered within 10 s`, async () => {
    const load = os.loadavg()[0]!;
    const calm = load < os.cpus().length * 1.5;
    const server = await startServer({ TRUST_PROXY: "1", NODE_OPTIONS: PRODUCTION_NODE_OPTIONS });
    let f: OverloadFigures;
    let before: number;
    let stored: number[];
    try {
      const pid = Number(fs.readFileSync(`${server.dbFile}.server-pid`, "utf8"));
      // Enough codes that no draw finds none (a monthly cap per code).
      const platformId = insertCodes(server.dbFile, "holy", 200, "MIXED");
      const logRows = () => {
        const db = new SQLite(server.dbFile, { readonly: true });
        try {
          return (
            db.prepare("SELECT id FROM random_requests WHERE platform_id = ?").all(platformId) as Array<{ id: number }>
          ).map((r) => r.id);
        } finally {
          db.close();
        }
      };
      await overload({ port: server.port, pid, connections: 4, seconds: 2, paths: PATHS });
      before = logRows().length;
      f = await overload({
        port: server.port,
        pid,
        connections: CONNECTIONS,
        seconds: SECONDS,
        paths: PATHS,
        draws: { path: "/holy/get-code", every: 5 },
      });
      stored = logRows();
    } finally {
      await server.stop();
    }
    const draws = f.draws!;
    const storedIds = new Set(stored);
    const acknowledgedIds = draws.acknowledgedLocations.map(drawIdOf);
    const lost = acknowledgedIds.filter((id) => !storedIds.has(id)).length;
    const storedUnanswered = stored.length - before - acknowledgedIds.length;
    figures = {
      "mixed 200: pages (200 / 503 / unanswered / other)": `${f.ok} / ${f.refused} / ${f.unanswered} / ${f.other}`,
      "mixed 200: p50 / p99 of page answers (ms)": `${f.p50Ms} / ${f.p99Ms}`,
      "mixed 200: draws (303 / 503 / unanswered / other)": `${draws.acknowledged} / ${draws.refused} / ${draws.unanswered} / ${draws.other}`,
      "mixed 200: p50 / p99 of draw answers (ms)": `${draws.p50Ms} / ${draws.p99Ms}`,
      "mixed 200: acknowledged draws not stored": lost,
      "mixed 200: draws stored, answer never received": storedUnanswered,
      "mixed 200: results shown (asked again after 503)": `${draws.resultShown} of ${draws.acknowledged} (${draws.resultRetried})`,
      "mixed 200: /healthz within 1 s": `${f.healthWithin1s} of ${f.healthPolls}`,
      "mixed 200: peak RSS (MB)": f.peakRssMb,
    };
    expect(f.ok).toBeGreaterThan(0);
    expect(draws.acknowledged).toBeGreaterThan(0);
    // Every request answered within 10 s; a refusal is a 503 with Retry-After.
    expect([f.unanswered, f.other, draws.unanswered, draws.other]).toEqual([0, 0, 0, 0]);
    expect(f.refusedWithRetryAfter).toBe(f.refused);
    expect(draws.refusedWithRetryAfter).toBe(draws.refused);
    // Every acknowledged draw stored, once; none stored whose answer the visitor did not get.
    expect(new Set(acknowledgedIds).size).toBe(acknowledgedIds.length);
    expect(lost).toBe(0);
    expect(storedUnanswered).toBe(0);
    // And the visitor saw its code.
    expect(draws.resultShown).toBe(draws.acknowledged);
    expect(f.peakRssMb).toBeLessThan(200);
    if (calm) {
      expect(f.healthWithin1s / f.healthPolls).toBeGreaterThanOrEqual(0.95);
      expect(f.p99Ms).toBeLessThanOrEqual(3_000);
    } else {
      figures["mixed 200: times not judged: load average"] = `${load.toFixed(1)} on ${os.cpus().length} CPU(s)`;
    }
  });
});
