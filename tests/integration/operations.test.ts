import { execFile } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { promisify } from "node:util";
import SQLite from "better-sqlite3";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ROOT, tmpPath } from "../support/paths";
import { ADMIN, signInAsAdmin } from "../support/admin";
import { startServer, type RunningServer } from "../support/server";

const run = promisify(execFile);
const servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});

async function start(env: Record<string, string> = {}) {
  const server = await startServer(env);
  servers.push(server);
  return server;
}

/** Seeds codes for the seeded platform `tesla` straight into the server's database file. */
function addCodes(dbFile: string, count: number) {
  const db = new SQLite(dbFile);
  db.pragma("busy_timeout = 5000");
  const platform = db.prepare("SELECT id FROM platforms WHERE slug = 'tesla'").get() as { id: number };
  const insert = db.prepare(
    "INSERT INTO referral_codes (platform_id, code, referral_url, is_permanent, created_at) VALUES (?, ?, NULL, 1, ?)",
  );
  for (let i = 0; i < count; i++) insert.run(platform.id, `OPS${i}`, new Date().toISOString());
  db.close();
}

function countRows(dbFile: string, table: string): number {
  const db = new SQLite(dbFile, { readonly: true });
  const row = db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number };
  db.close();
  return row.n;
}

/** One draw as a browser without JS: true when the server acknowledged it (303 to the result page). */
async function draw(server: RunningServer): Promise<boolean> {
  const res = await fetch(`${server.url}/tesla/get-code`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url },
    body: "intent=draw",
  });
  await res.arrayBuffer();
  return res.status === 303;
}

/** The operator commands, run as `npm run db:backup|db:restore` runs them (tsx on the script). */
function npmRun(script: "db:backup" | "db:restore", args: string[], env: Record<string, string>) {
  const file = path.join("scripts", `${script.replace(":", "-")}.ts`);
  const tsx = path.join(ROOT, "node_modules", ".bin", "tsx");
  return run(tsx, [file, ...args], { cwd: ROOT, env: { ...process.env, ...env } }).then(
    (r) => ({ code: 0, out: r.stdout + r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
  );
}

const ADMIN_ENV = { ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password };

/** The settings tab's backup panel, as the admin gets it (French). */
async function backupPanel(server: RunningServer): Promise<string> {
  const res = await fetch(`${server.url}/admin/settings`, { headers: { Cookie: await signInAsAdmin(server) } });
  expect(res.status).toBe(200);
  const html = await res.text();
  const panel = /<section[^>]*data-testid="backup-status"[^>]*>([\s\S]*?)<\/section>/.exec(html)?.[1];
  expect(panel).toBeDefined();
  return panel!;
}

/** How many backups the server has logged as done. */
function backupsLogged(output: string): number {
  return output.match(/\[backup\] .*integrity ok/g)?.length ?? 0;
}

function backupTime(file: string): number {
  const m = /app-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z\.db$/.exec(file);
  if (!m) throw new Error(`not a backup name: ${file}`);
  return Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
}

describe("backups inside the server", { timeout: 90_000 }, () => {
  it("backs up while draws are written, keeps the newest N, and every draw acknowledged before a backup is in it", async () => {
    const dir = tmpPath("backups");
    const server = await start({ BACKUP_DIR: dir, BACKUP_KEEP: "2", BACKUP_INTERVAL_SECONDS: "1" });
    addCodes(server.dbFile, 10);
    const acknowledged: number[] = [];
    const started = Date.now();
    // Four writers keep drawing while the job backs up every second: for 4.5 s and at least 60 draws
    // (a loaded machine draws slower; 60 s at most, so a stalled server still fails below).
    const drawing = () => Date.now() - started < 60_000 && (Date.now() - started < 4_500 || acknowledged.length < 60);
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (drawing()) if (await draw(server)) acknowledged.push(Date.now());
      }),
    );
    // One more backup after the last draw, then stop, so that rotation does not remove a backup
    // while it is read below.
    const backupsAtDeadline = backupsLogged(server.output());
    await vi.waitFor(() => expect(backupsLogged(server.output())).toBeGreaterThan(backupsAtDeadline), {
      timeout: 10_000,
      interval: 50,
    });
    await server.stop();
    const files = fs.readdirSync(dir).filter((f) => f.endsWith(".db"));
    expect(files.length).toBe(2);
    expect(server.output()).toMatch(/\[backup\] .*integrity ok/);
    expect(acknowledged.length).toBeGreaterThan(50);
    for (const name of files) {
      const file = path.join(dir, name);
      // The name is the time the backup began (truncated to the second): draws acknowledged before it are in it.
      const before = acknowledged.filter((t) => t < backupTime(file)).length;
      expect(countRows(file, "random_requests")).toBeGreaterThanOrEqual(before);
    }
    // Restore the newest into a fresh file: intact and with the same rows.
    const newest = path.join(dir, files.sort().at(-1)!);
    const fresh = tmpPath("restored.db");
    const restored = await npmRun("db:restore", [newest], { DATABASE_URL: `file:${fresh}` });
    expect(restored.out).toContain("Restored");
    expect(restored.code).toBe(0);
    expect(countRows(fresh, "random_requests")).toBe(countRows(newest, "random_requests"));
  });

  it("writes no backup that would not fit in BACKUP_MAX_MB, says so, and serves on", async () => {
    const dir = tmpPath("backups-small");
    // 10 KB: less than any database.
    const server = await start({ BACKUP_DIR: dir, BACKUP_MAX_MB: "0.01", BACKUP_INTERVAL_SECONDS: "1", ...ADMIN_ENV });
    addCodes(server.dbFile, 3);
    await vi.waitFor(
      () => expect(server.output()).toMatch(/\[backup\] skipped: a backup needs [\d.]+ MB and the backups may take 0\.0 MB/),
      {
        timeout: 10_000,
        interval: 50,
      },
    );
    expect(await draw(server)).toBe(true);
    expect(fs.existsSync(dir) ? fs.readdirSync(dir) : []).toEqual([]);
    expect(server.output()).not.toMatch(/\[backup\] .*integrity ok/);
    // The settings tab says so too.
    const panel = await backupPanel(server);
    expect(panel).toContain("Aucune sauvegarde pour l&#x27;instant");
    expect(panel).toMatch(
      /Dernière tentative \(\d\d\/\d\d\/\d{4} \d\d:\d\d\)\u00a0: aucune sauvegarde faite, faute de place\. Il en faut \d+,\d Mo, et les sauvegardes ne peuvent prendre que 0,0 Mo/,
    );
  });

  it("the settings tab shows the backups kept and the newest; without BACKUP_DIR, that they are off", async () => {
    const server = await start({ BACKUP_DIR: tmpPath("backups-panel"), BACKUP_INTERVAL_SECONDS: "1", ...ADMIN_ENV });
    await vi.waitFor(() => expect(backupsLogged(server.output())).toBeGreaterThan(0), { timeout: 10_000, interval: 50 });
    expect(await backupPanel(server)).toMatch(
      /\d+ sauvegardes? gardées?, la plus récente du \d\d\/\d\d\/\d{4} \d\d:\d\d \(\d+,\d Mo\)\./,
    );
    // Beside it, the storage panel (decision 287): the database file and its disk, in the admin's language.
    const html = await (await fetch(`${server.url}/admin/settings`, { headers: { Cookie: await signInAsAdmin(server) } })).text();
    const storage = /<section[^>]*data-testid="storage-status"[^>]*>([\s\S]*?)<\/section>/.exec(html)?.[1] ?? "";
    expect(storage).toMatch(
      /Base de données\u00a0: \d+,\d\u00a0Mo, dont \d+,\d\u00a0Mo de place laissée par des lignes supprimées/,
    );
    expect(storage).toMatch(/Son disque\u00a0: [\d\s\u202f\u00a0]+,\d\u00a0Mo libres sur [\d\s\u202f\u00a0]+,\d\u00a0Mo\./);
    const off = await start(ADMIN_ENV);
    expect(await backupPanel(off)).toContain(
      "Les sauvegardes automatiques sont désactivées\u00a0: BACKUP_DIR n&#x27;est pas défini.",
    );
  });

  it("refuses to restore over a database a live server uses; a staged restore goes in at the next start", async () => {
    const server = await start();
    addCodes(server.dbFile, 3);
    expect(await draw(server)).toBe(true);
    const backup = tmpPath("one.db");
    const made = await npmRun("db:backup", [backup], { DATABASE_URL: `file:${server.dbFile}` });
    expect(made.code).toBe(0);
    expect(await draw(server)).toBe(true);
    expect(countRows(server.dbFile, "random_requests")).toBe(2);

    const refused = await npmRun("db:restore", [backup], { DATABASE_URL: `file:${server.dbFile}` });
    expect(refused.code).toBe(1);
    expect(refused.out).toMatch(/is using/);
    expect(countRows(server.dbFile, "random_requests")).toBe(2);

    const staged = await npmRun("db:restore", [backup, "--at-next-start"], { DATABASE_URL: `file:${server.dbFile}` });
    expect(staged.code).toBe(0);
    await server.stop();
    servers.splice(servers.indexOf(server), 1);
    const again = await start({ DATABASE_FILE: server.dbFile });
    expect(again.output()).toContain("restored the staged backup");
    expect(countRows(server.dbFile, "random_requests")).toBe(1);
  });

  it("refuses a file that is not an intact database", async () => {
    const bogus = tmpPath("bogus.db");
    fs.writeFileSync(bogus, "not a database");
    const fresh = tmpPath("fresh.db");
    const result = await npmRun("db:restore", [bogus], { DATABASE_URL: `file:${fresh}` });
    expect(result.code).not.toBe(0);
    expect(fs.existsSync(fresh)).toBe(false);
  });
});

describe("graceful shutdown", { timeout: 60_000 }, () => {
  it("finishes a request in flight during SIGTERM, then refuses new connections and exits cleanly", async () => {
    const server = await start();
    addCodes(server.dbFile, 2);
    const body = "intent=draw";
    const answer = new Promise<number>((resolve, reject) => {
      const req = http.request(
        `${server.url}/tesla/get-code`,
        {
          method: "POST",
          headers: {
            "Content-Type": "application/x-www-form-urlencoded",
            "Content-Length": String(body.length),
            Origin: server.url,
            Expect: "100-continue",
          },
        },
        (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
        },
      );
      req.on("error", reject);
      // The server's "100 Continue" says it has parsed the headers and holds the request: then half
      // the body, SIGTERM, and the rest once the server says it is shutting down.
      req.once("continue", () => {
        req.write(body.slice(0, 5));
        void server.stop();
        void vi
          .waitFor(() => expect(server.output()).toContain("SIGTERM received"), { timeout: 10_000, interval: 20 })
          .then(() => req.end(body.slice(5)), reject);
      });
      req.flushHeaders();
    });
    expect(await answer).toBe(303);
    await server.stop();
    expect(server.output()).toContain("database closed");
    // Idle keep-alive connections do not hold the exit back.
    const [, termAt, closedAt] = /(\S+) SIGTERM received[\s\S]*?\n(\S+) database closed/.exec(server.output()) ?? [];
    expect(Date.parse(closedAt!) - Date.parse(termAt!)).toBeLessThan(3_000);
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
    // The WAL was folded into the file at close.
    expect(fs.existsSync(`${server.dbFile}-wal`) ? fs.statSync(`${server.dbFile}-wal`).size : 0).toBe(0);
    expect(countRows(server.dbFile, "random_requests")).toBe(1);
  });
});
