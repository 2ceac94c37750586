import crypto from "node:crypto";
import { getDialect, getPgPool, listenPostgres, onDatabaseClose } from "./client.server";
import { noteWrite } from "./read-cache.server";
import { noteLocalWrite, writesAwaitingPosition, wroteUpTo } from "./read-replica.server";

/**
 * Several processes on one PostgreSQL database (decision 365): what one process writes, every other
 * drops from its caches within a second. Each process announces the tables its statements and
 * commits wrote, and whether a visitor's write request succeeded (what empties its page cache), on
 * a NOTIFY channel, through the LISTEN connection settings already use (client.server.ts). Announces
 * are gathered for `FLUSH_MS`, so a busy process sends a few notifications a second, not one per
 * write. A receiver drops the reads those tables may have fed (`noteWrite`, as its own writes do)
 * and, when asked, its page cache. While the LISTEN connection is down every cache is dropped when
 * it comes back (what was missed is not known); the read cache's own lifetime bounds it meanwhile.
 *
 * SQLite has one process per file: nothing to share.
 */
const CHANNEL = "parrainly_writes";
const FLUSH_MS = 50;
/** This process among those of the site: its own notifications come back to it and are skipped. */
const ORIGIN = crypto.randomBytes(8).toString("hex");

let started = false;
let pendingTables: Set<string> | "any" | null = null;
let pendingPages = false;
let flushTimer: NodeJS.Timeout | undefined;
const pageListeners = new Set<() => void>();

interface Announce {
  /** The process that wrote. */
  o: string;
  /** The tables it wrote. */
  t: string[] | "any";
  /** Whether a write request succeeded there (pages changed). */
  p: boolean;
  /** The primary's WAL position after those writes. */
  l: string;
}

function schedule(): void {
  if (flushTimer) return;
  flushTimer = setTimeout(flush, FLUSH_MS);
  flushTimer.unref();
}

function flush(): void {
  flushTimer = undefined;
  if (!started || (pendingTables === null && !pendingPages)) return;
  const tables = pendingTables === "any" ? "any" : [...(pendingTables ?? [])];
  const pages = pendingPages;
  pendingTables = null;
  pendingPages = false;
  const covered = writesAwaitingPosition();
  // Outside any transaction: the writes it tells of have committed (a statement's own announce may
  // come before its commit; the commit announces again). A lost one is bounded by the caches' lifetimes.
  // The primary's WAL position goes with it: a replica serves reads only once it has replayed it.
  // The insert position, not pg_current_wal_lsn() (what is written out so far): with
  // synchronous_commit off a commit returns before its record is written, and a replica that had
  // replayed up to the write position still showed the rows from before it.
  getPgPool()
    .query<{ lsn: string }>(
      "select pg_notify($1, json_build_object('o', $2::text, 't', $3::json, 'p', $4::boolean, 'l', pg_current_wal_insert_lsn()::text)::text), pg_current_wal_insert_lsn()::text as lsn",
      [CHANNEL, ORIGIN, JSON.stringify(tables), pages],
    )
    .then(({ rows }) => wroteUpTo(rows[0]!.lsn, covered))
    .catch(() => {});
}

/** Tables this process wrote ("any": it cannot tell which): every other process drops what they fed. */
export function announceWrite(tables: readonly string[] | "any"): void {
  if (!started) return;
  noteLocalWrite();
  if (tables === "any" || pendingTables === "any") pendingTables = "any";
  else {
    pendingTables ??= new Set();
    for (const table of tables) pendingTables.add(table);
  }
  schedule();
}

/** A visitor's or an admin's write request succeeded here: every other process empties its page cache. */
export function announcePagesChanged(): void {
  if (!started) return;
  pendingPages = true;
  schedule();
}

/** `listener` runs when another process's write request succeeded, or notifications may have been missed. */
export function onPagesChangedElsewhere(listener: () => void): void {
  pageListeners.add(listener);
}

function receive(payload: string): void {
  let message: Announce;
  try {
    message = JSON.parse(payload) as Announce;
  } catch {
    return;
  }
  if (message.o === ORIGIN) return;
  if (message.l) wroteUpTo(message.l);
  if (message.t === "any") noteWrite();
  else if (message.t.length > 0) noteWrite(...message.t);
  if (message.p) for (const listener of pageListeners) listener();
}

/** Starts sharing this process's writes with the others (the server's start, PostgreSQL only). */
export async function shareWritesAcrossProcesses(): Promise<void> {
  if (started || getDialect() !== "postgres") return;
  started = true;
  onDatabaseClose(async () => {
    started = false;
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = undefined;
    pendingTables = null;
    pendingPages = false;
  });
  let wasUp = false;
  await listenPostgres(CHANNEL, receive, (up) => {
    // Back after a gap: whatever was announced meanwhile is unknown, so everything goes.
    if (up && !wasUp) {
      noteWrite();
      for (const listener of pageListeners) listener();
    }
    wasUp = up;
  });
}
