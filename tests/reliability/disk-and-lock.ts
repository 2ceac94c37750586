import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { postForm, startServer, type RunningServer } from "../support/server";

/**
 * A disk that fills up, for real where the tests run as root (CI): a small tmpfs, filled with a
 * file of zeros. Elsewhere the database's size is capped instead (DATABASE_MAX_PAGES, SQLite's
 * max_page_count on the server's connection): the same SQLITE_FULL on the same write path.
 */
export interface FullDisk {
  kind: "tmpfs" | "page cap";
  dbFile: string;
  /** Starts the server on the disk (codes for `holy` already in), not yet full. */
  start(env?: Record<string, string>): Promise<RunningServer>;
  fill(): void;
  free(): void;
  cleanUp(): void;
}

const canMountTmpfs = (dir: string): boolean => {
  if (process.getuid?.() !== 0) return false;
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=8m", "tmpfs", dir], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};

export async function fullDisk(dir: string): Promise<FullDisk> {
  fs.mkdirSync(dir, { recursive: true });
  const dbFile = path.join(dir, "app.db");
  // RELIABILITY_NO_TMPFS=1 takes the path of a machine without root (to check it where there is root).
  if (!process.env.RELIABILITY_NO_TMPFS && canMountTmpfs(dir)) {
    const filler = path.join(dir, "filler");
    return {
      kind: "tmpfs",
      dbFile,
      async start(env = {}) {
        const server = await startServer({ DATABASE_FILE: dbFile, ...env });
        insertDrawCodes(dbFile, 400);
        return server;
      },
      fill() {
        const fd = fs.openSync(filler, "a");
        const chunk = Buffer.alloc(64 * 1024);
        try {
          for (;;) fs.writeSync(fd, chunk);
        } catch {
          // ENOSPC: the disk is full.
        } finally {
          fs.closeSync(fd);
        }
      },
      free: () => fs.rmSync(filler, { force: true }),
      cleanUp: () => execFileSync("umount", ["-l", dir], { stdio: "ignore" }),
    };
  }
  // No root: a database whose size is capped at what it holds, with room freed by deleting rows.
  let cap = 0;
  return {
    kind: "page cap",
    dbFile,
    async start(env = {}) {
      if (!cap) {
        const first = await startServer({ DATABASE_FILE: dbFile });
        await first.stop();
        insertDrawCodes(dbFile, 400);
        withFile(dbFile, (db) => {
          const platform = db.prepare("SELECT id FROM platforms WHERE slug = 'n26'").get() as { id: number };
          const insert = db.prepare("INSERT INTO referral_codes (platform_id, code, created_at) VALUES (?, ?, ?)");
          db.transaction(() => {
            for (let i = 0; i < 3000; i++)
              insert.run(platform.id, `FILLER${String(i).padStart(40, "0")}`, new Date().toISOString());
          })();
          db.pragma("wal_checkpoint(TRUNCATE)");
          cap = db.pragma("page_count", { simple: true }) as number;
        });
      }
      return startServer({ DATABASE_FILE: dbFile, DATABASE_MAX_PAGES: String(cap), ...env });
    },
    // The cap is the file's size: nothing to do until a write needs a new page.
    fill() {},
    free: () => withFile(dbFile, (db) => db.prepare("DELETE FROM referral_codes WHERE code LIKE 'FILLER%'").run()),
    cleanUp() {},
  };
}

function withFile<T>(file: string, work: (db: SQLite.Database) => T): T {
  const db = new SQLite(file);
  db.pragma("busy_timeout = 5000");
  try {
    return work(db);
  } finally {
    db.close();
  }
}

function insertDrawCodes(file: string, count: number) {
  withFile(file, (db) => {
    const platform = db.prepare("SELECT id FROM platforms WHERE slug = 'holy'").get() as { id: number };
    const insert = db.prepare("INSERT INTO referral_codes (platform_id, code, is_permanent, created_at) VALUES (?, ?, 1, ?)");
    db.transaction(() => {
      for (let i = 0; i < count; i++) insert.run(platform.id, `FULLDISK${i}`, new Date().toISOString());
    })();
  });
}

/** The total of serves counted on `holy` (read on a connection of its own). */
export function servesOnHoly(file: string): number {
  const db = new SQLite(file, { readonly: true });
  try {
    return (
      db
        .prepare(
          "SELECT coalesce(sum(times_served), 0) AS n FROM referral_codes JOIN platforms p ON p.id = platform_id WHERE p.slug = 'holy'",
        )
        .get() as { n: number }
    ).n;
  } finally {
    db.close();
  }
}

/** The draw form as a browser without JavaScript posts it (to the draw page's action), in `language`. */
export async function drawWithoutJs(server: RunningServer, language = "en") {
  const res = await postForm(`${server.url}/holy/get-code`, { intent: "draw" }, { headers: { "Accept-Language": language } });
  return { status: res.status, retryAfter: res.headers.get("retry-after"), body: await res.text() };
}

/** Polls /healthz until it answers `status` (true) or `withinMs` passes (false). */
export async function healthBecomes(server: RunningServer, status: number, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    const res = await fetch(`${server.url}/healthz`).catch(() => null);
    if (res?.status === status) return true;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}

/** The server's pid claim beside its database (removed by a clean shutdown). */
export const claimFileOf = (dbFile: string) => `${path.resolve(dbFile)}.server-pid`;
