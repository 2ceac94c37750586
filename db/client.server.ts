import { AsyncLocalStorage } from "node:async_hooks";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import SQLite from "better-sqlite3";
import {
  Kysely,
  PostgresDialect,
  SqliteDialect,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type LogEvent,
  type SqliteDatabase,
} from "kysely";
import type pg from "pg";
import { rememberDatabaseFile } from "./availability.server";
import { noteStatement, noteWrite, tablesWrittenBy } from "./read-cache.server";
import { announceWrite } from "./site-writes.server";
import type { Database } from "./schema";

export type DB = Kysely<Database>;

/** `file:`/`sqlite:`/bare path: SQLite (one process); `postgres://`: PostgreSQL (several processes). */
export type DialectName = "sqlite" | "postgres";

type Handle =
  | { dialect: "sqlite"; url: string; sqlite: SQLite.Database; db: DB }
  | { dialect: "postgres"; url: string; pool: pg.Pool; db: DB };

// pg is loaded when PostgreSQL is first used: a server on SQLite never needs it, and importing it
// was about 40 ms of every start-up (decision 241).
let pgModule: typeof pg | undefined;
const loadPg = (): typeof pg => (pgModule ??= createRequire(import.meta.url)("pg") as typeof pg);

// One handle per process: the server reaches the app only through the Remix build, so this
// module is loaded once (decision 001).
let current: Handle | undefined;

const DEFAULT_URL = "file:./data/app.db";

/** DATABASE_URL as the process sees it now (an empty value means unset, as in the app's env). */
export function databaseUrl(): string {
  return process.env.DATABASE_URL || DEFAULT_URL;
}

export function dialectOf(url: string): DialectName {
  return /^postgres(ql)?:\/\//i.test(url) ? "postgres" : "sqlite";
}

function openSqlite(file: string): SQLite.Database {
  if (file !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("synchronous = NORMAL");
  // The WAL file keeps the size of the largest transaction since the process opened the database
  // (a migration that rewrites a table: hundreds of MB on a large site) until the next restart,
  // eating the room kept free on a small volume. SQLite cuts it back to this size once a checkpoint
  // has copied it into the database (decision 286); everyday transactions stay well below it.
  sqlite.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  return sqlite;
}

const WAL_SIZE_LIMIT_BYTES = 16 * 1024 * 1024;

/** Prepared statements kept per handle; a page runs the same few dozen queries again and again. */
const STATEMENT_CACHE_SIZE = 200;

/**
 * The handle as Kysely's dialect sees it, with each SQL text prepared once and reused (Kysely
 * prepares every query anew otherwise). Reuse is safe: Kysely runs one query at a time on the
 * connection, and SQLite prepares a statement again by itself when the schema changes. Least
 * recently used statements are dropped past the bound (queries whose text varies, e.g. `in` lists).
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql) {
      let statement = statements.get(sql);
      if (statement) statements.delete(sql);
      else {
        statement = sqlite.prepare(sql);
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
      }
      statements.set(sql, statement);
      return statement;
    },
  };
}

// pg returns bigint (count(*), sum of integers) and numeric as strings so as not to lose precision;
// every such figure here is a count far below 2^53, so both read as numbers, like SQLite's.
const BIGINT_OID = 20;
const NUMERIC_OID = 1700;
const pgTypes = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === BIGINT_OID || oid === NUMERIC_OID
      ? (value: string) => Number(value)
      : loadPg().types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/**
 * A pool for PostgreSQL. `DATABASE_POOL_SIZE` connections per process (default 10): with several
 * processes, their sum must stay under the server's `max_connections` (decision 131).
 */
export function openPgPool(url: string): pg.Pool {
  const max = Number(process.env.DATABASE_POOL_SIZE) || 10;
  // A server that cannot be reached fails a request in 3 s (a 503), instead of holding it as long
  // as the operating system tries; keep-alive finds a connection whose peer vanished (decision 300).
  const pool = new (loadPg().Pool)({
    connectionString: url,
    max,
    types: pgTypes,
    connectionTimeoutMillis: 3_000,
    keepAlive: true,
  });
  // An idle client losing its connection (server restart) must not crash the process: the pool drops it.
  pool.on("error", () => {});
  return pool;
}

/** Each statement the process runs, once it ran: the read cache drops what a write may have changed. */
const seeStatement = (event: LogEvent) => noteStatement(event.query.sql);

/** PostgreSQL: the same, and every other process is told what was written (site-writes.server.ts). */
const seeAndAnnounceStatement = (event: LogEvent) => {
  noteStatement(event.query.sql);
  const tables = tablesWrittenBy(event.query.sql);
  if (tables !== null) announceWrite(tables);
};

/**
 * PostgreSQL: another connection sees a transaction's rows once it commits, so a commit counts as a
 * write for the read cache too (a read between a statement and the commit kept the old rows): a
 * write to the tables that transaction wrote, which each connection notes as its statements run.
 * Every commit counted as a write to every table before, so on a busy site each draw, vote and
 * answer dropped the catalogue and the published reads (decision 296).
 */
class CommitSeeingPostgresDialect extends PostgresDialect {
  override createDriver(): Driver {
    const driver = super.createDriver();
    /** What each connection's open transaction wrote ("any": a statement that names no table). */
    const written = new WeakMap<DatabaseConnection, Set<string> | "any">();
    const acquire = driver.acquireConnection.bind(driver);
    driver.acquireConnection = async () => {
      const connection = await acquire();
      // The driver hands out one object per pooled client: it is wrapped once.
      if (!written.has(connection)) {
        written.set(connection, new Set());
        const execute = connection.executeQuery.bind(connection);
        connection.executeQuery = async <R>(query: CompiledQuery) => {
          const result = await execute<R>(query);
          const tables = tablesWrittenBy(query.sql);
          const seen = written.get(connection);
          if (tables === "any") written.set(connection, "any");
          else if (tables && seen !== "any") tables.forEach((table) => seen?.add(table));
          return result;
        };
      }
      return connection;
    };
    const begin = driver.beginTransaction.bind(driver);
    driver.beginTransaction = async (connection, settings) => {
      written.set(connection, new Set());
      await begin(connection, settings);
    };
    const commit = driver.commitTransaction.bind(driver);
    driver.commitTransaction = async (connection) => {
      await commit(connection);
      const tables = written.get(connection) ?? "any";
      written.set(connection, new Set());
      if (tables === "any") noteWrite();
      else if (tables.size > 0) noteWrite(...tables);
      if (tables === "any" || tables.size > 0) announceWrite(tables === "any" ? "any" : [...tables]);
    };
    const rollback = driver.rollbackTransaction.bind(driver);
    driver.rollbackTransaction = async (connection) => {
      written.set(connection, new Set());
      await rollback(connection);
    };
    return driver;
  }
}

/**
 * SQLite: a full disk (SQLITE_FULL), an I/O error or a lost lock rolls the transaction back by
 * itself, and Kysely's own ROLLBACK then failed with "no transaction is active", an error that hid
 * the one the visitor's 503 is named after (a draw on a full disk answered 500). The rollback is
 * skipped when SQLite has already rolled back (better-sqlite3's `inTransaction`).
 */
class RollbackSafeSqliteDialect extends SqliteDialect {
  constructor(
    private readonly sqlite: SQLite.Database,
    config: ConstructorParameters<typeof SqliteDialect>[0],
  ) {
    super(config);
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    const rollback = driver.rollbackTransaction.bind(driver);
    driver.rollbackTransaction = async (connection) => {
      if (this.sqlite.inTransaction) await rollback(connection);
    };
    return driver;
  }
}

function open(url: string): Handle {
  if (dialectOf(url) === "postgres") {
    const pool = openPgPool(url);
    const db = new Kysely<Database>({ dialect: new CommitSeeingPostgresDialect({ pool }), log: seeAndAnnounceStatement });
    return { dialect: "postgres", url, pool, db };
  }
  const file = sqlitePath(url);
  const sqlite = openSqlite(file);
  // A size cap in pages (DATABASE_MAX_PAGES): the tests fill the "disk" this way without root.
  const maxPages = Number(process.env.DATABASE_MAX_PAGES);
  if (Number.isInteger(maxPages) && maxPages > 0) sqlite.pragma(`max_page_count = ${maxPages}`);
  if (!sqlite.memory) rememberDatabaseFile(file);
  const db = new Kysely<Database>({
    dialect: new RollbackSafeSqliteDialect(sqlite, { database: withStatementCache(sqlite) }),
    log: seeStatement,
  });
  return { dialect: "sqlite", url, sqlite, db };
}

/** The SQLite file path behind a `file:`/`sqlite:` URL or a bare path. */
export function sqlitePath(url: string): string {
  return url.replace(/^file:(\/\/)?/, "").replace(/^sqlite:(\/\/)?/, "");
}

function handle(): Handle {
  current ??= open(databaseUrl());
  return current;
}

/** The replica's handle while a read that may go there runs (db/read-replica.server.ts). */
const readDb = new AsyncLocalStorage<DB>();

/** `read()` with getDb() answering `db` (a replica's handle): for reads only. */
export function runWithReadDb<T>(db: DB, read: () => Promise<T>): Promise<T> {
  return readDb.run(db, read);
}

/** The Kysely instance. Inside a transaction use its `trx`, never this (a transaction has its own connection). */
export function getDb(): DB {
  return readDb.getStore() ?? handle().db;
}

/** Which database the process is using: the few dialect branches read this. */
export function getDialect(): DialectName {
  return handle().dialect;
}

/** The raw better-sqlite3 handle, for hot paths that use prepared statements. SQLite only. */
export function getSqlite(): SQLite.Database {
  const h = handle();
  if (h.dialect !== "sqlite") throw new Error("getSqlite(): the database is PostgreSQL");
  return h.sqlite;
}

/** A single connection to `url`, outside the pool (start-up checks). */
export function openPgClient(url: string): pg.Client {
  return new (loadPg().Client)({ connectionString: url, connectionTimeoutMillis: 3_000 });
}

/** The pg pool behind Kysely (session advisory locks, the shared rate-limit store). PostgreSQL only. */
export function getPgPool(): pg.Pool {
  const h = handle();
  if (h.dialect !== "postgres") throw new Error("getPgPool(): the database is SQLite");
  return h.pool;
}

/**
 * LISTEN on a PostgreSQL channel through one connection of its own (notifications never reach a
 * pooled connection reliably). `onMessage` gets each payload; `onState(false)` runs whenever
 * notifications may be missed from now on (before connecting, and when the connection is lost),
 * `onState(true)` once LISTEN is in place, so a cache can trust notifications only while they flow.
 * Reconnects every second until closeDb(). Resolves once the first attempt is over.
 */
export function listenPostgres(
  channel: string,
  onMessage: (payload: string) => void,
  onState: (up: boolean) => void,
): Promise<void> {
  const h = handle();
  if (h.dialect !== "postgres") throw new Error("listenPostgres(): the database is SQLite");
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const connect = async (): Promise<void> => {
    onState(false);
    const next = new (loadPg().Client)({ connectionString: h.url });
    next.on("notification", (message) => {
      if (message.channel === channel) onMessage(message.payload ?? "");
    });
    next.on("error", () => {
      if (client === next) lost();
    });
    next.on("end", () => {
      if (client === next) lost();
    });
    try {
      await next.connect();
      await next.query(`LISTEN "${channel}"`);
      if (stopped) return void (await next.end().catch(() => {}));
      client = next;
      onState(true);
    } catch {
      await next.end().catch(() => {});
      lost();
    }
  };
  const lost = () => {
    client = undefined;
    onState(false);
    if (!stopped && !retry) {
      retry = setTimeout(() => {
        retry = undefined;
        void connect();
      }, 1_000);
      retry.unref();
    }
  };
  closeHooks.add(async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    const closing = client;
    client = undefined;
    await closing?.end().catch(() => {});
  });
  return connect();
}

/**
 * SQLite's busy handler sleeps on the only event loop: with 5 s, a lock held elsewhere (a CLI
 * script, a manual sqlite3) froze every page. The server waits at most BUSY_TIMEOUT_MS at a time
 * (enough for another server process's own short transactions); runWrite (availability.server.ts)
 * waits longer asynchronously. Scripts keep openSqlite's 5 s.
 */
const SERVER_BUSY_TIMEOUT_MS = 20;

export function shortenLockWaits(): void {
  const h = handle();
  if (h.dialect === "sqlite") h.sqlite.pragma(`busy_timeout = ${SERVER_BUSY_TIMEOUT_MS}`);
}

/** Space SQLite needs to write a draw or a form, with room to spare (WAL frames, a new page or two). */
const MIN_FREE_BYTES = 1024 * 1024;
const MIN_FREE_PAGES = 16;

/**
 * Whether a write would find room now, asked while writes fail for want of space: the size cap
 * (max_page_count, with free pages inside the file) and the disk's free space. Read-only. On
 * PostgreSQL, whether the server answers again (`select 1`): while writes failed because it was out
 * of reach, /healthz said 503, so a proxy sent no visitor whose write could have said it was back
 * (decision 300). A full PostgreSQL disk is said again by the next write that fails.
 */
export async function roomToWrite(): Promise<boolean> {
  const h = handle();
  if (h.dialect === "postgres")
    return h.pool.query("select 1").then(
      () => true,
      () => false,
    );
  if (h.sqlite.memory) return false;
  const pages = h.sqlite.pragma("page_count", { simple: true }) as number;
  const max = h.sqlite.pragma("max_page_count", { simple: true }) as number;
  const free = h.sqlite.pragma("freelist_count", { simple: true }) as number;
  if (max - pages + free < MIN_FREE_PAGES) return false;
  const disk = await fs.promises.statfs(path.dirname(path.resolve(h.sqlite.name)));
  return disk.bavail * disk.bsize >= MIN_FREE_BYTES;
}

const closeHooks = new Set<() => Promise<void>>();

/** `hook` runs when the handle closes (before the pool ends), once. */
export function onDatabaseClose(hook: () => Promise<void>): void {
  closeHooks.add(hook);
}

/** Closes the handle (graceful shutdown, tests). The next getDb() opens DATABASE_URL again. */
export async function closeDb(): Promise<void> {
  const closing = current;
  if (!closing) return;
  current = undefined;
  for (const hook of [...closeHooks]) await hook();
  closeHooks.clear();
  if (closing.dialect === "postgres") {
    await closing.db.destroy();
    return;
  }
  // Fold the WAL back into the main file so the file alone is the whole database. On a full disk
  // this fails: the WAL stays beside the file and SQLite folds it in at the next open.
  try {
    if (closing.sqlite.open && !closing.sqlite.memory) closing.sqlite.pragma("wal_checkpoint(TRUNCATE)");
  } catch (error) {
    console.error(`[db] checkpoint at close failed (the WAL is kept and applied at the next start): ${String(error)}`);
  }
  await closing.db.destroy();
  if (closing.sqlite.open) closing.sqlite.close();
}
