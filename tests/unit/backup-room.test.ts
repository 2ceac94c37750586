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

describe("a backup is a compact copy, written and checked off the server's thread (decision 283)", () => {
  it("leaves out the free pages retention left inside the live file, and holds every row", async () => {
    const insert = sqlite.prepare("insert into t values (?)");
    sqlite.transaction(() => {
      for (let i = 0; i < 4000; i++) insert.run("y".repeat(500));
    })();
    sqlite.exec("delete from t where rowid % 10 <> 0");
    const free = sqlite.pragma("freelist_count", { simple: true }) as number;
    expect(free).toBeGreaterThan(200);
    const live = fs.statSync(sqlite.name).size;
    const r = await backupDatabase(sqlite, { dir, keep: 3, now: nextHour(), space: volume(1024 * MB) });
    expect(r.kind).toBe("done");
    if (r.kind !== "done") return;
    expect(r.bytes).toBeLessThan(live / 3);
    const copy = new SQLite(r.file, { readonly: true });
    const count = (db: SQLite.Database) => db.prepare("select count(*) as n, sum(length(v)) as len from t").get();
    expect(count(copy)).toEqual(count(sqlite));
    copy.close();
  });

  it("counts only the pages in use when it asks for room", async () => {
    const insert = sqlite.prepare("insert into t values (?)");
    sqlite.transaction(() => {
      for (let i = 0; i < 4000; i++) insert.run("y".repeat(500));
    })();
    sqlite.exec("delete from t where rowid > 400");
    const used =
      ((sqlite.pragma("page_count", { simple: true }) as number) -
        (sqlite.pragma("freelist_count", { simple: true }) as number)) *
      (sqlite.pragma("page_size", { simple: true }) as number);
    const r = await backupDatabase(sqlite, { dir, keep: 3, now: nextHour(), space: volume(RESERVE + used / 2) });
    expect(r).toMatchObject({ kind: "skipped", needed: used });
    expect(used).toBeLessThan(fs.statSync(sqlite.name).size / 4);
  });

  it("the server's event loop keeps turning, and its writes go on, while a large database is copied and checked", async () => {
    // About 30 MB with an index: integrity_check alone takes a few hundred milliseconds here.
    const big = new SQLite(tmpPath("big.db"));
    big.pragma("journal_mode = WAL");
    big.exec("create table r (id integer primary key, code text, at integer); create index r_code on r (code, at)");
    const insert = big.prepare("insert into r (code, at) values (?, ?)");
    big.transaction(() => {
      for (let i = 0; i < 250_000; i++) insert.run(`CODE${(i * 7919) % 100_000}X${"z".repeat(60)}`, i);
    })();
    const write = big.prepare("insert into r (code, at) values ('DURING', ?)");
    let writes = 0;
    let longest = 0;
    let last = performance.now();
    const tick = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
      write.run(now);
      writes++;
    }, 2);
    const started = performance.now();
    try {
      const r = await backupDatabase(big, { dir, keep: 3, now: nextHour(), space: volume(1024 * MB) });
      // The gap up to the answer counts too: a block just before it would otherwise go unseen.
      longest = Math.max(longest, performance.now() - last);
      expect(r.kind).toBe("done");
    } finally {
      clearInterval(tick);
    }
    const took = performance.now() - started;
    // On the server's thread, integrity_check alone was one block of most of the backup's time.
    expect(longest).toBeLessThan(took / 4);
    expect(writes).toBeGreaterThan(10);
    big.close();
  });

  it("a backup stopped by the shutdown ends its worker at once and leaves neither a partial file nor a backup (decision 294)", async () => {
    await backupDatabase(sqlite, { dir, keep: 3, now: nextHour(), space: volume(1024 * MB) });
    const before = backups();
    const big = new SQLite(tmpPath("big-stopped.db"));
    big.exec("create table r (id integer primary key, code text)");
    const insert = big.prepare("insert into r (code) values (?)");
    big.transaction(() => {
      for (let i = 0; i < 200_000; i++) insert.run(`CODE${i}X${"z".repeat(60)}`);
    })();
    const stopping = new AbortController();
    const copying = backupDatabase(big, { dir, keep: 3, now: nextHour(), space: volume(1024 * MB), signal: stopping.signal });
    // Once the worker has begun writing its copy.
    await expect.poll(() => fs.readdirSync(dir).some((name) => name.endsWith(".partial")), { interval: 2 }).toBe(true);
    stopping.abort();
    expect(await copying).toEqual({ kind: "stopped", removed: [] });
    const full = await backupDatabase(big, { dir, keep: 3, now: nextHour(), space: volume(1024 * MB) });
    expect(full.kind).toBe("done");
    fs.rmSync(path.join(dir, backups().at(-1)!));
    expect(backups()).toEqual(before);
    expect(fs.readdirSync(dir).filter((name) => name.endsWith(".partial"))).toEqual([]);
    big.close();
  });
});
