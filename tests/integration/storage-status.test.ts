import fs from "node:fs";
import { beforeEach, describe, expect, it } from "vitest";
import { storageStatus } from "~/features/admin/site/backup-job.server";
import { getSqlite, onPostgres, useFreshDatabase, type DB } from "../support/db";

/**
 * What the settings tab's storage panel reads (decision 287): the database file, the room inside it,
 * its volume's free space, and a warning once that is below what the backups keep free. A real
 * database; the volume's figures given where a test needs a nearly full disk.
 */
let db: DB;
beforeEach(async () => {
  ({ db } = await useFreshDatabase());
});

const MB = 1024 * 1024;

describe.skipIf(onPostgres)("storage status (SQLite)", () => {
  it("gives the file's size, the room removed rows left inside it, and the disk's figures", async () => {
    const sqlite = getSqlite();
    sqlite.exec("create table filler (v text)");
    sqlite.transaction(() => {
      const insert = sqlite.prepare("insert into filler values (?)");
      for (let i = 0; i < 2000; i++) insert.run("x".repeat(1000));
    })();
    sqlite.exec("delete from filler");
    const status = await storageStatus();
    if (status.kind !== "sqlite") throw new Error("expected SQLite figures");
    const pageSize = sqlite.pragma("page_size", { simple: true }) as number;
    expect(status.databaseMb).toBeCloseTo(((sqlite.pragma("page_count", { simple: true }) as number) * pageSize) / MB, 1);
    expect(status.freeInsideMb).toBeGreaterThan(1.5);
    const disk = await fs.promises.statfs(sqlite.name);
    expect(status.volume?.totalMb).toBeCloseTo((disk.blocks * disk.bsize) / MB, 0);
    expect(status.volume?.low).toBe(disk.bavail * disk.bsize < Math.max(64 * MB, 0.1 * disk.blocks * disk.bsize));
  });

  it("warns once the volume's free space is below the reserve: a tenth of it, at least 64 MB", async () => {
    const volume = (free: number, total: number) => () => Promise.resolve({ free, total });
    expect(await storageStatus(volume(120 * MB, 1024 * MB))).toMatchObject({
      volume: { low: false, freeMb: 120, totalMb: 1024 },
    });
    expect(await storageStatus(volume(100 * MB, 1024 * MB))).toMatchObject({ volume: { low: true } });
    expect(await storageStatus(volume(70 * MB, 300 * MB))).toMatchObject({ volume: { low: false } });
    expect(await storageStatus(volume(60 * MB, 300 * MB))).toMatchObject({ volume: { low: true } });
    expect(await storageStatus(() => Promise.resolve(null))).toMatchObject({ kind: "sqlite", volume: null });
  });
});

describe.runIf(onPostgres)("storage status (PostgreSQL)", () => {
  it("is the provider's", async () => {
    expect(db).toBeDefined();
    expect(await storageStatus()).toEqual({ kind: "off" });
  });
});
