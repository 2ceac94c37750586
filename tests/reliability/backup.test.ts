import { execFile } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import { promisify } from "node:util";
import SQLite from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, tmpPath } from "../support/paths";
import { postThrough, recordFigures, startReliabilityServer } from "./support";

/**
 * `npm run db:backup` while clients keep writing, then the copy restored: it must be a sound
 * database holding every write acknowledged before the backup started, and a server must run on it.
 */
const run = promisify(execFile);
const figures: Record<string, number | string> = {};
afterAll(() => recordFigures("3-backup", figures));

describe("online backup during writes, and restore", () => {
  it("the copy passes integrity_check, holds every write acknowledged before it began, and serves", async () => {
    const server = await startReliabilityServer();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
    const acknowledged: string[] = [];
    let writing = true;
    const writer = async (w: number) => {
      for (let i = 0; writing; i++) {
        const code = `B${w}N${i}X${Math.random().toString(36).slice(2, 7)}`.toUpperCase();
        const address = `192.0.2.${(w * 31 + i) % 250}`;
        const body = new URLSearchParams({ intent: "submit", platform: "revolut", code }).toString();
        const res = await postThrough(agent, `${server.url}/submit`, body, { "Fly-Client-IP": address });
        if (res.status === 303) acknowledged.push(code);
      }
    };
    const writers = Array.from({ length: 8 }, (_, w) => writer(w));
    try {
      await new Promise((resolve) => setTimeout(resolve, 800));
      const before = [...acknowledged];
      const backupFile = tmpPath("backup.db");
      const { stdout } = await run("npm", ["run", "--silent", "db:backup", "--", backupFile], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: `file:${server.dbFile}` },
      });
      const during = acknowledged.length - before.length;
      await new Promise((resolve) => setTimeout(resolve, 300));
      writing = false;
      await Promise.all(writers);
      expect(stdout).toContain("Backed up");

      const copy = new SQLite(backupFile, { readonly: true });
      const integrity = copy.pragma("integrity_check", { simple: true });
      const present = new Set(
        (copy.prepare("SELECT code FROM referral_codes").all() as Array<{ code: string }>).map((r) => r.code),
      );
      copy.close();
      const missing = before.filter((code) => !present.has(code));
      Object.assign(figures, {
        "backup: writes acknowledged before it began": before.length,
        "backup: writes acknowledged while it ran": during,
        "backup: earlier writes missing from the copy": missing.length,
        "backup: integrity_check of the copy": String(integrity),
      });
      expect(integrity).toBe("ok");
      expect(before.length).toBeGreaterThan(5);
      expect(missing).toEqual([]);

      // Restore: the copy becomes a server's database.
      const restoredFile = tmpPath("restored.db");
      fs.copyFileSync(backupFile, restoredFile);
      const restored = await startReliabilityServer({ DATABASE_FILE: restoredFile });
      try {
        expect((await fetch(`${restored.url}/healthz`)).status).toBe(200);
        const draw = await postThrough(agent, `${restored.url}/revolut/get-code`, "intent=draw");
        expect(draw.status).toBe(303);
        figures["backup: restored server answers and draws"] = "yes";
      } finally {
        await restored.stop();
      }
    } finally {
      writing = false;
      await Promise.all(writers);
      agent.destroy();
      await server.stop();
    }
  });
});
