import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";

/**
 * A throwaway PostgreSQL cluster for the tests' second pass and the bench: initdb in a temporary
 * directory, a server listening only on a unix socket in that directory (no TCP port at all), run
 * as the `postgres` user when we are root (PostgreSQL refuses to run as root). Stopped and removed
 * by stop(); never a system service.
 */
export const PG_BIN = process.env.PG_BIN ?? "/usr/lib/postgresql/15/bin";

export function postgresAvailable(): boolean {
  return ["initdb", "pg_ctl", "postgres"].every((bin) => fs.existsSync(path.join(PG_BIN, bin)));
}

export interface Cluster {
  dir: string;
  /** The URL of one database of the cluster (`postgres` is the maintenance one). */
  url: (database: string) => string;
  stop: () => void;
}

/** A streaming replica of a cluster: `halt()` stops its server (a replica gone), `stop()` also removes it. */
export interface Replica extends Cluster {
  halt: () => void;
}

const PORT = 5432; // Only names the socket file: the socket directory is private to this cluster.

function asPostgres(args: string[], ids: { uid: number; gid: number } | null) {
  const [bin, ...rest] = args;
  // runuser: root becomes `postgres` for this one command, with no password and no login shell.
  if (ids) return execFileSync("runuser", ["-u", "postgres", "--", bin!, ...rest], { stdio: "pipe" });
  return execFileSync(bin!, rest, { stdio: "pipe" });
}

function postgresIds(): { uid: number; gid: number } | null {
  return process.getuid?.() === 0
    ? {
        uid: Number(execFileSync("id", ["-u", "postgres"]).toString().trim()),
        gid: Number(execFileSync("id", ["-g", "postgres"]).toString().trim()),
      }
    : null;
}

/**
 * A hot standby of `primary` (PostgreSQL's own streaming replication: `pg_basebackup -R` copies the
 * cluster and writes the standby's connection settings), on a socket directory of its own. Reads
 * only; it replays the primary's WAL as it comes.
 */
export function startReplica(primary: Cluster): Replica {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "parrainly-pg-replica-"));
  const ids = postgresIds();
  if (ids) fs.chownSync(dir, ids.uid, ids.gid);
  const data = path.join(dir, "data");
  const settings = [`-k ${dir}`, `-p ${PORT}`, "-c listen_addresses=''", "-c max_connections=300", "-c fsync=off"].join(" ");
  try {
    asPostgres(
      [
        path.join(PG_BIN, "pg_basebackup"),
        "-h",
        primary.dir,
        "-p",
        String(PORT),
        "-U",
        "postgres",
        "-D",
        data,
        "-R",
        "-X",
        "stream",
        // An immediate checkpoint: the default spreads it over minutes.
        "--checkpoint=fast",
        "--no-sync",
      ],
      ids,
    );
    asPostgres(
      [path.join(PG_BIN, "pg_ctl"), "-D", data, "-l", path.join(dir, "server.log"), "-o", settings, "-w", "-t", "60", "start"],
      ids,
    );
  } catch (error) {
    const log = fs.existsSync(path.join(dir, "server.log")) ? fs.readFileSync(path.join(dir, "server.log"), "utf8") : "";
    fs.rmSync(dir, { recursive: true, force: true });
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? "";
    throw new Error(`The PostgreSQL replica did not start: ${stderr}\n${log}`);
  }
  let running = true;
  const halt = () => {
    if (!running) return;
    running = false;
    asPostgres([path.join(PG_BIN, "pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop"], ids);
  };
  return {
    dir,
    url: (database) => `postgres://postgres@localhost/${database}?host=${encodeURIComponent(dir)}&port=${PORT}`,
    halt,
    stop: () => {
      try {
        halt();
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/**
 * Starts a new cluster. `durable: false` (tests) turns fsync off: the same SQL semantics, a faster
 * disk; the bench keeps the defaults.
 */
export function startCluster({ durable = false }: { durable?: boolean } = {}): Cluster {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "parrainly-pg-"));
  const ids = postgresIds();
  if (ids) fs.chownSync(dir, ids.uid, ids.gid);
  const data = path.join(dir, "data");
  const settings = [
    `-k ${dir}`,
    `-p ${PORT}`,
    "-c listen_addresses=''",
    "-c max_connections=300",
    ...(durable ? [] : ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]),
  ].join(" ");
  try {
    asPostgres(
      [path.join(PG_BIN, "initdb"), "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-locale", "--no-sync"],
      ids,
    );
    asPostgres(
      [path.join(PG_BIN, "pg_ctl"), "-D", data, "-l", path.join(dir, "server.log"), "-o", settings, "-w", "-t", "60", "start"],
      ids,
    );
  } catch (error) {
    const log = fs.existsSync(path.join(dir, "server.log")) ? fs.readFileSync(path.join(dir, "server.log"), "utf8") : "";
    fs.rmSync(dir, { recursive: true, force: true });
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? "";
    throw new Error(`PostgreSQL did not start: ${stderr}\n${log}`);
  }
  return {
    dir,
    url: (database) => `postgres://postgres@localhost/${database}?host=${encodeURIComponent(dir)}&port=${PORT}`,
    stop: () => {
      try {
        asPostgres([path.join(PG_BIN, "pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop"], ids);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** Creates an empty database in the cluster behind `maintenanceUrl` and returns its URL. */
export async function createDatabase(
  maintenanceUrl: string,
  name = `t_${crypto.randomBytes(6).toString("hex")}`,
): Promise<string> {
  const client = new pg.Client({ connectionString: maintenanceUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(maintenanceUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * The PostgreSQL pass keeps one database per SQLite file name a test server was given, so that two
 * servers on the same DATABASE_FILE (a restart) share one database, and openTestDb(server.dbFile)
 * reaches the server's database.
 */
const databasesByFile = new Map<string, Promise<string>>();
const resolvedByFile = new Map<string, string>();

/** On the PostgreSQL pass (TEST_POSTGRES_URL set): the database standing for `file`, created at first use. */
export function postgresDatabaseFor(file: string): Promise<string> {
  const maintenance = process.env.TEST_POSTGRES_URL;
  if (!maintenance) throw new Error("not on the PostgreSQL pass");
  let url = databasesByFile.get(file);
  if (!url) {
    url = createDatabase(maintenance).then((u) => (resolvedByFile.set(file, u), u));
    databasesByFile.set(file, url);
  }
  return url;
}

/** The database a server was started on for `file`, once known (see postgresDatabaseFor). */
export function knownPostgresDatabase(file: string): string | undefined {
  return resolvedByFile.get(file);
}
