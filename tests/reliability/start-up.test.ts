import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { tmpPath } from "../support/paths";
import { startServer } from "../support/server";

/** What a start that must not go on tells the operator: one line, the file, what to do; never a stack. */
async function refusalOf(env: Record<string, string>): Promise<string> {
  return startServer(env).then(
    async (server) => {
      await server.stop();
      return "started";
    },
    (error: Error) => error.message,
  );
}

const refusalLine = (output: string) => output.split("\n").find((line) => line.startsWith("Parrainly cannot start:")) ?? "";

describe("start-up messages for operators", () => {
  it("a database written by a newer version is refused as such, in one line naming the file", async () => {
    const dbFile = tmpPath("newer.db");
    await (await startServer({ DATABASE_FILE: dbFile })).stop();
    const db = new SQLite(dbFile);
    db.prepare("INSERT INTO kysely_migration (name, timestamp) VALUES (?, ?)").run(
      "9999_from_the_future",
      new Date().toISOString(),
    );
    db.close();
    const output = await refusalOf({ DATABASE_FILE: dbFile });
    const line = refusalLine(output);
    expect(line).toContain(dbFile);
    expect(line).toContain("written by a newer version of Parrainly: run that version or restore a backup");
    expect(output).not.toMatch(/\n\s+at /);
  });

  it("a file that is not a database is refused in one line naming the file", async () => {
    const dbFile = tmpPath("garbage.db");
    fs.writeFileSync(dbFile, "not a database at all ".repeat(300));
    const output = await refusalOf({ DATABASE_FILE: dbFile });
    expect(refusalLine(output)).toContain(`${dbFile}: not a readable SQLite database`);
    expect(output).not.toMatch(/\n\s+at /);
  });

  it("the production build renders with React's production build when NODE_ENV is unset", async () => {
    const server = await startServer({ NODE_ENV: "" });
    try {
      expect(server.output()).toContain("production build, React production");
      expect((await fetch(`${server.url}/`)).status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  it("a missing database where one existed is refused with `npm run db:restore`, unless told to start fresh", async () => {
    const dir = tmpPath("lost");
    const dbFile = path.join(dir, "app.db");
    await (await startServer({ DATABASE_FILE: dbFile })).stop();
    for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(`${dbFile}${suffix}`, { force: true });
    expect(refusalLine(await refusalOf({ DATABASE_FILE: dbFile }))).toContain("npm run db:restore");
    const fresh = await startServer({ DATABASE_FILE: dbFile, DATABASE_START_FRESH: "1" });
    await fresh.stop();
    expect(fs.existsSync(dbFile)).toBe(true);
  });
});
