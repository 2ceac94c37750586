import { describe, expect, it } from "vitest";
import { withRawDb } from "../support/fixtures";
import { postForm, startServer, type RunningServer } from "../support/server";
import { tmpPath } from "../support/paths";

// A first `npm start` (NODE_ENV unset: development) on a database it creates shows a site with codes
// to draw; production never adds demo data unasked (decision 345).
const firstStart = (env: Record<string, string> = {}) => startServer({ NODE_ENV: "development", ...env });

async function demoRows(server: RunningServer) {
  return withRawDb(server.dbFile, async (db) => {
    const count = async (table: string) =>
      (await db.get<{ n: number }>(`select cast(count(*) as integer) as n from ${table}`))!.n;
    return {
      codes: await count("referral_codes"),
      suggestions: await count("platform_suggestions"),
      partnerships: await count("partnerships"),
      scores: await count("game_scores"),
    };
  });
}

async function stopped<T>(server: RunningServer, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } finally {
    await server.stop();
  }
}

describe("first start", () => {
  it("a development start on a new database adds the demo data, says so and how to start empty, and how to create an admin; a draw returns a code", async () => {
    const dbFile = tmpPath("first-start.db");
    const server = await firstStart({ DATABASE_FILE: dbFile });
    await stopped(server, async () => {
      const output = server.output();
      expect(output).toMatch(/\[db\] new database: demo data added \(\d+ code\(s\).*\); SEED_DEMO=0 starts an empty site/);
      expect(output).toContain("npm run admin:create -- --email");
      const rows = await demoRows(server);
      expect(rows.codes).toBeGreaterThan(0);
      expect(rows.suggestions).toBeGreaterThan(0);
      expect(rows.partnerships).toBeGreaterThan(0);
      expect(rows.scores).toBeGreaterThan(0);

      const page = await (await fetch(`${server.url}/tesla`)).text();
      expect(page).toMatch(/data-testid="available-count"[^>]*>[1-9]\d* code/);
      const draw = await postForm(`${server.url}/tesla/get-code`, { intent: "draw" });
      expect(draw.status).toBe(303);
      const result = await (await fetch(`${server.url}${draw.headers.get("location")}`)).text();
      expect(result).toMatch(/data-testid="drawn-code"[^>]*>[A-Z0-9]+</);
    });

    // The next start finds the database it made: the demo data is not put back.
    await withRawDb(dbFile, (db) => db.run("delete from referral_codes"));
    const again = await firstStart({ DATABASE_FILE: dbFile });
    await stopped(again, async () => {
      expect(again.output()).not.toContain("demo data");
      expect((await demoRows(again)).codes).toBe(0);
    });
  });

  it("SEED_DEMO=0 starts an empty site", async () => {
    const server = await firstStart({ SEED_DEMO: "0" });
    await stopped(server, async () => {
      expect(server.output()).not.toContain("demo data");
      expect(await demoRows(server)).toEqual({ codes: 0, suggestions: 0, partnerships: 0, scores: 0 });
    });
  });

  it("a start with scrypt below OWASP's cost says so in one line; unset, nothing is said (decision 399)", async () => {
    const lowered = await startServer({ PASSWORD_HASH_COST: "10" });
    await stopped(lowered, async () => {
      expect(lowered.output()).toContain(
        "[admin] PASSWORD_HASH_COST=10: new password hashes are cheaper than OWASP's setting (14)",
      );
    });
    const standard = await startServer({ PASSWORD_HASH_COST: "14" });
    await stopped(standard, async () => {
      expect(standard.output()).not.toContain("PASSWORD_HASH_COST");
    });
  });

  it("production never adds the demo data unasked", async () => {
    const server = await startServer({ NODE_ENV: "production" });
    await stopped(server, async () => {
      expect(server.output()).not.toContain("demo data");
      expect(await demoRows(server)).toEqual({ codes: 0, suggestions: 0, partnerships: 0, scores: 0 });
      const page = await (await fetch(`${server.url}/tesla`)).text();
      expect(page).toContain('data-testid="available-count"');
      expect(page).not.toMatch(/data-testid="available-count"[^>]*>[1-9]/);
    });
  });
});
