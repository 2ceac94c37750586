import { Kysely, PostgresDialect } from "kysely";
import type pg from "pg";
import { getPgPool, onDatabaseClose, openPgPool, runWithReadDb, type DB } from "./client.server";
import type { Database } from "./schema";

/**
 * Reads from a streaming replica (`DATABASE_READ_URL`, decision 368). Only the public pages' reads
 * that tolerate a few seconds of age go there (the read cache's, db/read-cache.server.ts); writes,
 * the draw, admin pages and anything per visitor stay on the primary. A read goes to the replica
 * only while all of these hold, else to the primary:
 *
 * - the replica answered its last probe (every `PROBE_MS`) less than `MAX_LAG_MS` ago;
 * - it has replayed what the primary had written `MAX_LAG_MS` ago (the lag bound, checked at run time
 *   from both servers' WAL positions);
 * - it has replayed every write this process made or heard of (site-writes.server.ts carries the
 *   primary's WAL position in its notifications): a read that follows a write, here or on another
 *   VM, never brings back the rows from before it, and a cache is never filled with them.
 *
 * A read that fails on the replica (stopped, unreachable) is read again on the primary at once, and
 * the replica is left alone until a probe finds it back.
 */
const PROBE_MS = 200;
const MAX_LAG_MS = 1_000;

interface Replica {
  db: DB;
  pool: pg.Pool;
  timer: NodeJS.Timeout;
}

let replica: Replica | undefined;
/** The replica's replay position at its last good probe, and when. */
let replayed = -1n;
let probedAt = 0;
/** The primary's WAL position over the last seconds: [time, position], oldest first. */
const primarySamples: Array<[number, bigint]> = [];
/** The newest write this process made or heard of, as a WAL position of the primary. */
let required = 0n;
/** A write of this process whose position is not known yet (until its announcement is sent). */
let unknownWrites = 0;

/** `16/B374D848` as a number. */
function lsnValue(lsn: string | null | undefined): bigint {
  if (!lsn) return -1n;
  const [high, low] = lsn.split("/");
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

/** A write was made here (its position follows with `wroteUpTo`). */
export function noteLocalWrite(): void {
  if (replica) unknownWrites++;
}

/** How many of this process's writes a position read now covers (pass it back to `wroteUpTo`). */
export function writesAwaitingPosition(): number {
  return unknownWrites;
}

/** Reads must see the primary up to `lsn`: a write elsewhere, or `covered` writes made here. */
export function wroteUpTo(lsn: string, covered = 0): void {
  const value = lsnValue(lsn);
  if (value > required) required = value;
  unknownWrites = Math.max(0, unknownWrites - covered);
}

function usable(now: number): boolean {
  if (!replica || unknownWrites > 0 || now - probedAt > MAX_LAG_MS) return false;
  if (replayed < required) return false;
  // The primary's position MAX_LAG_MS ago: the newest sample at least that old.
  let bound: bigint | undefined;
  for (const [at, position] of primarySamples) if (now - at >= MAX_LAG_MS) bound = position;
  return bound !== undefined && replayed >= bound;
}

/** `read()` on the replica when it may serve it now, else (or when it fails there) on the primary. */
export async function readFromReplica<T>(read: () => Promise<T>): Promise<T> {
  const current = replica;
  if (!current || !usable(Date.now())) return read();
  try {
    return await runWithReadDb(current.db, read);
  } catch {
    probedAt = 0;
    return read();
  }
}

async function probe(current: Replica): Promise<void> {
  const [primary, standby] = await Promise.allSettled([
    getPgPool().query<{ lsn: string }>("select pg_current_wal_lsn()::text as lsn"),
    current.pool.query<{ lsn: string | null }>("select pg_last_wal_replay_lsn()::text as lsn"),
  ]);
  const now = Date.now();
  if (primary.status === "fulfilled") {
    primarySamples.push([now, lsnValue(primary.value.rows[0]?.lsn)]);
    while (primarySamples.length > 2 && now - primarySamples[1]![0] >= MAX_LAG_MS) primarySamples.shift();
  }
  if (standby.status === "fulfilled" && standby.value.rows[0]?.lsn) {
    replayed = lsnValue(standby.value.rows[0].lsn);
    probedAt = now;
  }
}

/** Opens the replica and starts probing it (the server's start, PostgreSQL only, DATABASE_READ_URL set). */
export function startReadReplica(url: string): void {
  if (replica) return;
  const pool = openPgPool(url);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  let probing = false;
  const current: Replica = {
    db,
    pool,
    timer: setInterval(() => {
      if (probing) return;
      probing = true;
      void probe(current).finally(() => (probing = false));
    }, PROBE_MS),
  };
  current.timer.unref();
  replica = current;
  onDatabaseClose(async () => {
    clearInterval(current.timer);
    replica = undefined;
    primarySamples.length = 0;
    replayed = -1n;
    probedAt = 0;
    await db.destroy().catch(() => {});
  });
}
