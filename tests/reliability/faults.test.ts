import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { tmpPath } from "../support/paths";
import { postForm, startServer, type RunningServer } from "../support/server";
import { claimFileOf, drawWithoutJs, fullDisk, healthBecomes, servesOnHoly } from "./disk-and-lock";
import { insertCodes, recordFigures } from "./support";

/**
 * An operator's bad day, for real against the built server (decisions 210, 211): a disk that fills
 * up, another process holding the write lock, the database file removed while serving.
 */
const figures: Record<string, number | string> = {};
afterAll(() => recordFigures("6-faults", figures));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

describe("a full disk", () => {
  it("draws answer 503 with Retry-After and a named message, once each; /healthz says so; both recover when space is freed; SIGTERM exits 0", async () => {
    const disk = await fullDisk(tmpPath("full-disk"));
    figures["full disk: simulated by"] = disk.kind;
    let server: RunningServer | undefined;
    try {
      server = await disk.start();
      expect((await drawWithoutJs(server)).status).toBe(303);
      disk.fill();
      // Draws until the disk refuses one (a few pages of room may be left in the WAL or the file).
      const statuses: number[] = [];
      let refusal: Awaited<ReturnType<typeof drawWithoutJs>> | undefined;
      for (let i = 0; i < 400 && !refusal; i++) {
        const draw = await drawWithoutJs(server);
        statuses.push(draw.status);
        if (draw.status !== 303) refusal = draw;
      }
      figures["full disk: draws acknowledged before the first refusal"] = statuses.length - 1;
      expect(refusal?.status).toBe(503);
      expect(statuses.filter((s) => s !== 303 && s !== 503)).toEqual([]);

      // Each further draw: one attempt (no 307 to the page's action), nothing written, the reason named.
      const served = servesOnHoly(disk.dbFile);
      for (const language of ["en", "fr"]) {
        const draw = await drawWithoutJs(server, language);
        expect(draw.status).toBe(503);
        expect(Number(draw.retryAfter)).toBeGreaterThan(0);
        expect(draw.body).toContain(language === "en" ? "out of disk space" : "manque d'espace disque");
      }
      expect(servesOnHoly(disk.dbFile)).toBe(served);
      expect(await healthBecomes(server, 503, 15_000)).toBe(true);
      // What Fly's proxy routes by stays up, and so do the pages: only writes wait for space (decision 282).
      const live = await fetch(`${server.url}/healthz/live`);
      expect([live.status, await live.text()]).toEqual([200, "ok"]);
      expect((await fetch(`${server.url}/holy`)).status).toBe(200);

      disk.free();
      expect(await healthBecomes(server, 200, 15_000)).toBe(true);
      expect((await drawWithoutJs(server)).status).toBe(303);

      // Full again, with a WAL to fold in at shutdown: the checkpoint fails, the shutdown does not.
      disk.fill();
      for (let i = 0; i < 400 && (await drawWithoutJs(server)).status === 303; i++);
      await server.stop();
      figures["full disk: exit code of SIGTERM"] = server.exitCode() ?? "signal";
      expect(server.exitCode()).toBe(0);
      expect(fs.existsSync(claimFileOf(disk.dbFile))).toBe(false);
      // On a real full disk the checkpoint at close fails (the WAL cannot be folded in): logged, not fatal.
      if (disk.kind === "tmpfs") expect(server.output()).toContain("checkpoint at close failed");
      expect(server.output()).not.toMatch(/unhandled|\n\s+at /i);
    } finally {
      await server?.kill("SIGKILL");
      disk.cleanUp();
    }
  });
});

describe("another process holding the write lock for 10 s", () => {
  it("pages and /healthz keep answering, draws answer 503 (never 500) and SIGTERM ends within 8 s", async () => {
    const server = await startServer();
    insertCodes(server.dbFile, "holy", 50, "LOCKED");
    const holder = new SQLite(server.dbFile);
    try {
      holder.exec("BEGIN IMMEDIATE");
      const started = Date.now();
      const health: number[] = [];
      const pages: number[] = [];
      const draws: Array<{ status: number; retryAfter: string | null }> = [];
      await Promise.all([
        (async () => {
          while (Date.now() - started < 9_000) {
            const answer = await timed(() => fetch(`${server.url}/healthz`).then((r) => r.status));
            expect(answer.value).toBe(200);
            health.push(answer.ms);
            const page = await timed(() => fetch(`${server.url}/holy`).then((r) => r.status));
            expect(page.value).toBe(200);
            pages.push(page.ms);
            await sleep(300);
          }
        })(),
        (async () => {
          while (Date.now() - started < 8_000) draws.push(await drawWithoutJs(server));
        })(),
      ]);
      figures["lock held: /healthz answers, slowest (ms)"] = Math.round(Math.max(...health));
      figures["lock held: page answers, slowest (ms)"] = Math.round(Math.max(...pages));
      figures["lock held: draws answered 503"] = draws.filter((d) => d.status === 503).length;
      expect(Math.max(...health)).toBeLessThan(1_000);
      expect(Math.max(...pages)).toBeLessThan(1_000);
      expect(draws.length).toBeGreaterThan(0);
      for (const draw of draws) {
        expect(draw.status).toBe(503);
        expect(draw.retryAfter).not.toBeNull();
      }

      // Still locked: a draw in flight, then SIGTERM.
      const inFlight = drawWithoutJs(server);
      await sleep(200);
      const stopping = timed(() => server.stop());
      const stopped = await stopping;
      figures["lock held: SIGTERM to exit (ms)"] = Math.round(stopped.ms);
      expect(stopped.ms).toBeLessThan(8_000);
      expect(server.exitCode()).toBe(0);
      expect([0, 503]).toContain((await inFlight).status);
    } finally {
      if (holder.inTransaction) holder.exec("ROLLBACK");
      holder.close();
      await server.kill("SIGKILL");
    }
  });
});

describe("the database file removed while serving", () => {
  it("no write is acknowledged afterwards, /healthz says so, and the next start refuses unless told to start fresh", async () => {
    const dbFile = tmpPath("removed.db");
    const server = await startServer({ DATABASE_FILE: dbFile });
    try {
      insertCodes(dbFile, "holy", 50, "REMOVED");
      expect((await drawWithoutJs(server)).status).toBe(303);
      for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(`${dbFile}${suffix}`, { force: true });

      const answers: number[] = [];
      for (let i = 0; i < 10; i++) {
        answers.push((await drawWithoutJs(server)).status);
        const submit = await postForm(`${server.url}/submit`, {
          intent: "submit",
          platform: "tesla",
          code: `GONE${i}${Date.now()}`,
        });
        answers.push(submit.status);
      }
      figures["file removed: writes acknowledged afterwards"] = answers.filter((s) => s === 303).length;
      expect(answers.filter((s) => s === 303)).toEqual([]);
      expect(new Set(answers)).toEqual(new Set([503]));
      expect(await healthBecomes(server, 503, 15_000)).toBe(true);
      expect(server.output()).toContain("was removed or replaced");
    } finally {
      await server.stop();
    }

    const refused = await startServer({ DATABASE_FILE: dbFile }).then(
      async (unexpected) => {
        await unexpected.stop();
        return "started";
      },
      (error: Error) => error.message,
    );
    expect(refused).toContain("npm run db:restore");
    expect(refused).toContain(path.resolve(dbFile));
    expect(fs.existsSync(dbFile)).toBe(false);

    const fresh = await startServer({ DATABASE_FILE: dbFile, DATABASE_START_FRESH: "1" });
    expect((await fetch(`${fresh.url}/healthz`)).status).toBe(200);
    await fresh.stop();
  });
});
