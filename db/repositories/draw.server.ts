import type SQLite from "better-sqlite3";
import { sql, type CompiledQuery } from "kysely";
import { getDb, getDialect, getSqlite, type DB } from "../client.server";
import { noteWrite } from "../read-cache.server";
import { eligible, inRotationOrder, liftEndedCapsQuery, newDrawKey } from "./rotation.server";

/**
 * The draw: one transaction that picks the next code of a platform (or of every platform), counts
 * its serve and logs it. On SQLite a queue of draws runs through prepared statements in one
 * transaction per tick; on PostgreSQL through Kysely under a lock (decision 010). Which codes may
 * be drawn, in which order, and how a code enters the rotation is the rule of rotation.server.ts
 * (issue 55, docs/fairness.md): each draw first raises the codes whose monthly cap has ended to the
 * level of the others, then picks, counts and logs.
 */

type DrawTarget = { platformId: number } | { slug: string } | null;

function pickQuery(db: DB, target: DrawTarget, now: string) {
  let qb = db
    .selectFrom("referral_codes")
    .innerJoin("platforms", "platforms.id", "referral_codes.platform_id")
    .select(["referral_codes.id", "referral_codes.code", "referral_codes.platform_id"])
    .where((eb) => eb("platforms.is_active", "=", eb.lit(1)))
    .where(eligible(now));
  if (target && "platformId" in target) qb = qb.where("referral_codes.platform_id", "=", target.platformId);
  if (target && "slug" in target) qb = qb.where("platforms.slug", "=", target.slug);
  return inRotationOrder(qb);
}

function serveQuery(db: DB, codeId: number, now: string, drawKey: number) {
  return db
    .updateTable("referral_codes")
    .set((eb) => ({
      times_served: eb("times_served", "+", eb.lit(1)),
      rotation_count: eb("rotation_count", "+", eb.lit(1)),
      last_served_at: now,
      draw_key: drawKey,
    }))
    .where("id", "=", codeId);
}

function logQuery(db: DB, row: { platformId: number; codeId: number; code: string; now: string }) {
  return db
    .insertInto("random_requests")
    .values({ platform_id: row.platformId, served_code_id: row.codeId, served_code: row.code, created_at: row.now });
}

export interface Drawn {
  /** random_requests.id: identifies the result page. */
  requestId: number;
  codeId: number;
  code: string;
  platformId: number;
}

/**
 * The draw: pick the eligible code in fairness order, count the serve, log the
 * request, all in ONE transaction. `platformId` null draws across every active platform (/random).
 * Returns null when no code is eligible (nothing is written).
 *
 * Hot path (docs/decisions/010): the Kysely queries are compiled once and run as prepared
 * better-sqlite3 statements in a synchronous transaction. Draws that arrive in the same event-loop
 * turn (concurrent requests) share one transaction and so one commit, in arrival order, so each
 * stays fair (the next pick sees the previous count). The commit (a WAL write) is the expensive
 * part on this disk. If any draw of a shared transaction fails, the whole transaction rolls back
 * and each draw is run again in a transaction of its own, so a failure stays with its draw. The
 * promise resolves only after the commit.
 *
 * On PostgreSQL (several processes) each draw is a transaction of its own through Kysely, serialized
 * per platform by an advisory lock: see drawOnPostgres.
 */
export function drawReferralCode(platformId: number | null, now?: Date): Promise<Drawn | null> {
  return enqueueDraw(platformId === null ? null : { platformId }, now);
}

/**
 * The same draw for the active platform with this slug, the platform lookup folded into the pick
 * (the HTTP hot path). Null when the platform is unknown or inactive, or has no eligible code.
 */
export function drawReferralCodeBySlug(slug: string, now?: Date): Promise<Drawn | null> {
  return enqueueDraw({ slug }, now);
}

interface PendingDraw {
  target: DrawTarget;
  now?: Date;
  resolve: (drawn: Drawn | null) => void;
  reject: (error: unknown) => void;
}

// One queue per process (this module is loaded once): every draw shares the batch and its commit.
const drawQueue: { pending: PendingDraw[]; scheduled: boolean } = { pending: [], scheduled: false };

function enqueueDraw(target: DrawTarget, now?: Date): Promise<Drawn | null> {
  if (getDialect() === "postgres") return drawOnPostgres(target, now ?? new Date());
  return new Promise((resolve, reject) => {
    drawQueue.pending.push({ target, now, resolve, reject });
    if (!drawQueue.scheduled) {
      drawQueue.scheduled = true;
      setImmediate(flushDraws);
    }
  });
}

type Outcome = { ok: true; value: Drawn | null } | { ok: false; error: unknown };

function flushDraws() {
  drawQueue.scheduled = false;
  const batch = drawQueue.pending;
  drawQueue.pending = [];
  if (batch.length === 0) return;
  const sqlite = getSqlite();
  if (sqlite.inTransaction) {
    // A Kysely transaction is open on the shared connection (it spans awaits): our statements would
    // join it. Queue behind Kysely's connection mutex instead, one transaction per draw.
    for (const item of batch) {
      getDb()
        .transaction()
        .execute((trx) => drawWithKysely(item.target, item.now ?? new Date(), trx))
        .then(item.resolve, item.reject);
    }
    return;
  }
  let outcomes: Outcome[];
  try {
    outcomes = prepared(sqlite).drawMany(batch);
  } catch (error) {
    // Not one draw's fault (preparing, BEGIN or COMMIT failed): nothing was written, all fail.
    for (const item of batch) item.reject(error);
    return;
  }
  // The draw's own statements are not Kysely's: they say what they wrote (served counts, the log).
  noteWrite("referral_codes", "random_requests");
  outcomes.forEach((outcome, i) => (outcome.ok ? batch[i]!.resolve(outcome.value) : batch[i]!.reject(outcome.error)));
}

/** The same draw through Kysely only: the portable version (PostgreSQL) and the reference in tests. */
export async function drawReferralCodeWithKysely(platformId: number | null, now: Date, trx: DB): Promise<Drawn | null> {
  return drawWithKysely(platformId === null ? null : { platformId }, now, trx);
}

/**
 * How concurrent draws on PostgreSQL keep the fairness order (decision 131, measured by
 * `npm run bench`):
 * - "advisory" (the default): a transaction-scoped advisory lock per platform, taken before the
 *   pick, so draws of one platform run one after the other across every process, each seeing the
 *   previous one's count; draws across all platforms (/random) take the lock every platform draw
 *   shares, exclusively. Exact: the spread stays at most 1.
 * - "skip-locked": the pick locks its row (`FOR UPDATE SKIP LOCKED`) and concurrent draws take the
 *   next unlocked row. More parallel, but a draw then may serve a code ahead of its turn, and finds
 *   nothing when the only code is locked: kept for the bench's comparison only.
 */
type PostgresDrawLock = "advisory" | "skip-locked";
const postgresDrawLock = (): PostgresDrawLock => (process.env.DRAW_LOCK === "skip-locked" ? "skip-locked" : "advisory");

/** The advisory lock class of draws (two-key form: class, platform id; 0 stands for every platform). */
const DRAW_LOCK_CLASS = 1901;

async function drawOnPostgres(target: DrawTarget, now: Date): Promise<Drawn | null> {
  const lock = postgresDrawLock();
  return getDb()
    .transaction()
    .execute(async (trx) => {
      if (lock === "advisory") await takeDrawLock(trx, target);
      return drawWithKysely(target, now, trx, lock === "skip-locked");
    });
}

async function takeDrawLock(trx: DB, target: DrawTarget): Promise<void> {
  if (target === null) {
    await sql`select pg_advisory_xact_lock(${sql.lit(DRAW_LOCK_CLASS)}, 0)`.execute(trx);
    return;
  }
  // Unknown slug: the subquery is null, the function (strict) locks nothing, and the pick finds nothing.
  const platform =
    "platformId" in target ? sql`${target.platformId}::int` : sql`(select id from platforms where slug = ${target.slug})`;
  await sql`select pg_advisory_xact_lock_shared(${sql.lit(DRAW_LOCK_CLASS)}, 0), pg_advisory_xact_lock(${sql.lit(DRAW_LOCK_CLASS)}, ${platform})`.execute(
    trx,
  );
}

async function drawWithKysely(target: DrawTarget, now: Date, trx: DB, skipLocked = false): Promise<Drawn | null> {
  const at = now.toISOString();
  await liftEndedCapsQuery(trx, at, target).execute();
  const pick = pickQuery(trx, target, at);
  const picked = await (skipLocked ? pick.forUpdate("referral_codes").skipLocked() : pick).executeTakeFirst();
  if (!picked) return null;
  await serveQuery(trx, picked.id, at, newDrawKey()).execute();
  const logged = await logQuery(trx, { platformId: picked.platform_id, codeId: picked.id, code: picked.code, now: at })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { requestId: logged.id, codeId: picked.id, code: picked.code, platformId: picked.platform_id };
}

// Values that stand for the run-time arguments while compiling; swapped for the real ones per call.
const NOW = "\u0000now";
const PLATFORM = -1_000_001;
const CODE_ID = -1_000_002;
const CODE = "\u0000code";
const SLUG = "\u0000slug";
const DRAW_KEY = -1_000_003;

type DrawValues = { now: string; platformId?: number; codeId?: number; code?: string; slug?: string; drawKey?: number };
const SENTINELS = new Map<unknown, keyof DrawValues>([
  [NOW, "now"],
  [PLATFORM, "platformId"],
  [CODE_ID, "codeId"],
  [CODE, "code"],
  [SLUG, "slug"],
  [DRAW_KEY, "drawKey"],
]);

/**
 * Maps a compiled query's parameters to the run-time values. Only run-time values may be
 * parameters: SQLite re-plans a prepared statement each time a parameter that can change its plan
 * is bound (a LIMIT, or a flag compared with a partial index's condition), which made the draw
 * five times slower. Constants must be SQL literals (`eb.lit`, `sql.lit`); this refuses to prepare
 * anything else.
 */
function binder(query: CompiledQuery) {
  const keys = query.parameters.map((p) => {
    const key = SENTINELS.get(p);
    if (!key) throw new Error(`draw statement binds a constant (${String(p)}); use a SQL literal: ${query.sql}`);
    return key;
  });
  return (values: DrawValues) => keys.map((key) => values[key]);
}

interface PreparedDraw {
  drawMany: (items: Array<{ target: DrawTarget; now?: Date }>) => Outcome[];
}

const preparedByHandle = new WeakMap<SQLite.Database, PreparedDraw>();

function prepared(sqlite: SQLite.Database): PreparedDraw {
  const cached = preparedByHandle.get(sqlite);
  if (cached) return cached;
  const db = getDb();
  const compile = (q: { compile(): CompiledQuery }) => {
    const compiled = q.compile();
    return { stmt: sqlite.prepare(compiled.sql), bind: binder(compiled) };
  };
  const pickOne = compile(pickQuery(db, { platformId: PLATFORM }, NOW));
  const pickBySlug = compile(pickQuery(db, { slug: SLUG }, NOW));
  const pickAll = compile(pickQuery(db, null, NOW));
  const liftOne = compile(liftEndedCapsQuery(db, NOW, { platformId: PLATFORM }));
  const liftBySlug = compile(liftEndedCapsQuery(db, NOW, { slug: SLUG }));
  const liftAll = compile(liftEndedCapsQuery(db, NOW, null));
  const serve = compile(serveQuery(db, CODE_ID, NOW, DRAW_KEY));
  const log = compile(logQuery(db, { platformId: PLATFORM, codeId: CODE_ID, code: CODE, now: NOW }));

  // Pick, count, log: always called inside a transaction.
  const drawOne = (target: DrawTarget, now: string): Drawn | null => {
    const [lift, pick] = target === null ? [liftAll, pickAll] : "slug" in target ? [liftBySlug, pickBySlug] : [liftOne, pickOne];
    const values = {
      now,
      platformId: target && "platformId" in target ? target.platformId : undefined,
      slug: target && "slug" in target ? target.slug : undefined,
    };
    lift.stmt.run(lift.bind(values));
    const picked = pick.stmt.get(pick.bind(values)) as { id: number; code: string; platform_id: number } | undefined;
    if (!picked) return null;
    serve.stmt.run(serve.bind({ now, codeId: picked.id, drawKey: newDrawKey() }));
    const info = log.stmt.run(log.bind({ now, platformId: picked.platform_id, codeId: picked.id, code: picked.code }));
    return { requestId: Number(info.lastInsertRowid), codeId: picked.id, code: picked.code, platformId: picked.platform_id };
  };
  const at = (item: { now?: Date }) => (item.now ?? new Date()).toISOString();
  // Marks which draw of a shared transaction threw, as opposed to BEGIN or COMMIT.
  class DrawFailed extends Error {
    constructor(
      readonly index: number,
      readonly error: unknown,
    ) {
      super("draw failed");
    }
  }
  // IMMEDIATE: take the write lock before reading, so another process (backup, CLI, tests) cannot
  // slip a write between a pick and its count.
  const together = sqlite.transaction((items: Array<{ target: DrawTarget; now?: Date }>) =>
    items.map((item, index) => {
      try {
        return drawOne(item.target, at(item));
      } catch (error) {
        throw new DrawFailed(index, error);
      }
    }),
  );
  const entry: PreparedDraw = {
    // Throws when the transaction itself fails (BEGIN, e.g. busy, or COMMIT): every draw then fails.
    drawMany: (items) => {
      const outcomes: Outcome[] = new Array(items.length);
      let pending = items.map((_, i) => i);
      while (pending.length > 0) {
        try {
          const values = together.immediate(pending.map((i) => items[i]!));
          pending.forEach((i, k) => (outcomes[i] = { ok: true, value: values[k] ?? null }));
          pending = [];
        } catch (error) {
          if (!(error instanceof DrawFailed)) throw error;
          // Everything rolled back. The failing draw fails alone; the others run again without it
          // (a savepoint per draw would do the same, but costs more than the whole draw).
          outcomes[pending[error.index]!] = { ok: false, error: error.error };
          pending = pending.filter((_, k) => k !== error.index);
        }
      }
      return outcomes;
    },
  };
  preparedByHandle.set(sqlite, entry);
  return entry;
}
