import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, SqliteDialect, type SqliteDatabase } from "kysely";
import { getEnv, sqlitePathFromUrl } from "~/utils/env.server";
import type { Database } from "./schema";

export type DB = Kysely<Database>;

interface Handle {
  file: string;
  sqlite: SQLite.Database;
  db: DB;
}

// One handle per process: the server reaches the app only through the Remix build, so this
// module is loaded once (decision 001).
let current: Handle | undefined;

export function openSqlite(file: string): SQLite.Database {
  if (file !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("synchronous = NORMAL");
  return sqlite;
}

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

function open(file: string): Handle {
  const sqlite = openSqlite(file);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return { file, sqlite, db };
}

function handle(): Handle {
  current ??= open(sqlitePathFromUrl(getEnv().DATABASE_URL));
  return current;
}

/** The Kysely instance. Inside a transaction use its `trx`, never this (stack pitfall 10). */
export function getDb(): DB {
  return handle().db;
}

/** The raw better-sqlite3 handle, for hot paths that use prepared statements. */
export function getSqlite(): SQLite.Database {
  return handle().sqlite;
}

/** Closes the handle (graceful shutdown, tests). The next getDb() opens DATABASE_URL again. */
export async function closeDb(): Promise<void> {
  const closing = current;
  if (!closing) return;
  current = undefined;
  // Fold the WAL back into the main file so the file alone is the whole database.
  if (closing.sqlite.open && !closing.sqlite.memory) closing.sqlite.pragma("wal_checkpoint(TRUNCATE)");
  await closing.db.destroy();
  if (closing.sqlite.open) closing.sqlite.close();
}
