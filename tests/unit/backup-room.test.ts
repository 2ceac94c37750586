import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { backupDatabase, isIntact, type DiskSpace } from "~db/backup.server";
import { tmpPath } from "../support/paths";

/**
 * The server's backups never take the room the database needs (decision 281): a real SQLite file and
 * real backups in a real directory; only the volume's figures are given, as statfs would report a
 * small volume holding them.
 */
const MB = 1024 * 1024;
/** A volume of 100 MB keeps its minimum reserve free: 64 MB. */
const RESERVE = 64 * MB;

let sqlite: SQLite.Database;
let dir: string;
let size: number;
beforeEach(() => {
  sqlite = new SQLite(tmpPath("live.db"));
  sqlite.exec("create table t (v text)");
  const insert = sqlite.prepare("insert into t values (?)");
  for (let i = 0; i < 400; i++) insert.run("x".repeat(500));
  size = fs.statSync(sqlite.name).size;
  dir = tmpPath("backups");
});
afterEach(() => sqlite.close());

const backups = () =>
  fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(".db"))
    .sort();

/**
 * A 100 MB volume on which `freeWithoutBackups` bytes would be free if the directory held no backup:
 * what the backups there take is no longer free.
 */
function volume(freeWithoutBackups: number) {
  return async (): Promise<DiskSpace> => {
    const held = fs.existsSync(dir)
      ? fs.readdirSync(dir).reduce((sum, name) => sum + fs.statSync(path.join(dir, name)).size, 0)
      : 0;
    return { total: 100 * MB, free: freeWithoutBackups - held };
  };
}

let clock = Date.parse("2026-11-27T10:00:00Z");
const nextHour = () => new Date((clock += 3_600_000));

describe("backups inside the server: kept by count and by room", () => {
  it("with room to spare, keeps the newest BACKUP_KEEP, each intact", async () => {
    for (let i = 0; i < 5; i++) {
      const r = await backupDatabase(sqlite, { dir, keep: 3, now: nextHour(), space: volume(1024 * MB) });
      expect(r.kind).toBe("done");
    }
    expect(backups()).toHaveLength(3);
    for (const name of backups()) expect(isIntact(path.join(dir, name))).toBe(true);
  });

  it("keeps only as many as the volume can spare beside its reserve, though BACKUP_KEEP allows more", async () => {
    // Room for two and a half backups once the reserve is left free.
    const space = volume(RESERVE + 2.5 * size);
    const made: string[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await backupDatabase(sqlite, { dir, keep: 48, now: nextHour(), space });
      expect(r.kind).toBe("done");
      if (r.kind === "done") made.push(path.basename(r.file));
    }
    expect(backups()).toEqual(made.slice(-2));
    expect((await space()).free).toBeGreaterThanOrEqual(RESERVE);
  });

  it("BACKUP_MAX_MB bounds them too", async () => {
    for (let i = 0; i < 4; i++) {
      await backupDatabase(sqlite, { dir, keep: 48, maxBytes: 1.5 * size, now: nextHour(), space: volume(1024 * MB) });
    }
    expect(backups()).toHaveLength(1);
  });

  it("where not even one more fits, writes none and keeps the newest old one; the reserve comes back", async () => {
    for (let i = 0; i < 3; i++) await backupDatabase(sqlite, { dir, keep: 48, now: nextHour(), space: volume(1024 * MB) });
    const newest = backups().at(-1);
    // The database grew, or the volume filled: the three backups now eat into the reserve.
    const space = volume(RESERVE + 0.5 * size);
    const r = await backupDatabase(sqlite, { dir, keep: 48, now: nextHour(), space });
    expect(r).toMatchObject({ kind: "skipped", needed: size, kept: 1 });
    expect(r.removed).toHaveLength(2);
    expect(backups()).toEqual([newest]);
    expect(fs.readdirSync(dir).filter((name) => name.endsWith(".partial"))).toEqual([]);
  });

  it("removes a partial file a backup cut short left behind", async () => {
    fs.mkdirSync(dir, { recursive: true });
    const stale = path.join(dir, "app-20261127T090000Z.db.partial");
    fs.writeFileSync(stale, Buffer.alloc(4096));
    await backupDatabase(sqlite, { dir, keep: 2, now: nextHour(), space: volume(1024 * MB) });
    expect(fs.existsSync(stale)).toBe(false);
    expect(backups()).toHaveLength(1);
  });
});
