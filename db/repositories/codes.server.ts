import type SQLite from "better-sqlite3";
import { type CompiledQuery, type ExpressionBuilder, type SelectQueryBuilder } from "kysely";
import { buildReferralUrl } from "../platform-links";
import { getDb, getSqlite, type DB } from "../client.server";
import type { Database } from "../schema";

/** Codes submitted by visitors expire after this many months (spec section 9). */
export const CODE_VALIDITY_MONTHS = 6;

export function expiryFrom(now: Date): string {
  const expires = new Date(now.getTime());
  expires.setUTCMonth(expires.getUTCMonth() + CODE_VALIDITY_MONTHS);
  return expires.toISOString();
}

/** Active, and permanent or without expiry or expiring in the future. */
function eligible(now: string) {
  return (eb: ExpressionBuilder<Database, "referral_codes">) =>
    eb.and([
      eb("referral_codes.is_active", "=", 1),
      eb.or([eb("referral_codes.is_permanent", "=", 1), eb("referral_codes.expires_at", "is", null), eb("referral_codes.expires_at", ">", now)]),
    ]);
}

/** Fairness order: fewest serves, then least recently served (never served first), then oldest. */
function inServingOrder<O>(qb: SelectQueryBuilder<Database, "referral_codes" | "platforms", O>) {
  return qb
    .orderBy("referral_codes.times_served", "asc")
    .orderBy("referral_codes.last_served_at", (ob) => ob.asc().nullsFirst())
    .orderBy("referral_codes.created_at", "asc")
    .orderBy("referral_codes.id", "asc")
    .limit(1);
}

type DrawTarget = { platformId: number } | { slug: string } | null;

function pickQuery(db: DB, target: DrawTarget, now: string) {
  let qb = db
    .selectFrom("referral_codes")
    .innerJoin("platforms", "platforms.id", "referral_codes.platform_id")
    .select(["referral_codes.id", "referral_codes.code", "referral_codes.platform_id"])
    .where("platforms.is_active", "=", 1)
    .where(eligible(now));
  if (target && "platformId" in target) qb = qb.where("referral_codes.platform_id", "=", target.platformId);
  if (target && "slug" in target) qb = qb.where("platforms.slug", "=", target.slug);
  return inServingOrder(qb);
}

function serveQuery(db: DB, codeId: number, now: string) {
  return db
    .updateTable("referral_codes")
    .set((eb) => ({ times_served: eb("times_served", "+", 1), last_served_at: now }))
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
 * The draw (spec section 4): pick the eligible code in fairness order, count the serve, log the
 * request, all in ONE transaction. `platformId` null draws across every active platform (/random).
 * Returns null when no code is eligible (nothing is written).
 *
 * Hot path (docs/decisions/010): the Kysely queries are compiled once and run as prepared
 * better-sqlite3 statements in a synchronous transaction. Draws that arrive in the same event-loop
 * turn (concurrent requests) share one commit: each runs in its own savepoint, in arrival order,
 * so it stays atomic and fair, and a failing draw rolls back alone. The commit (a WAL write) is the
 * expensive part on this disk, so this is what lets HTTP draws scale. A PostgreSQL dialect would
 * simply call drawReferralCodeWithKysely inside db.transaction().
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

function enqueueDraw(target: DrawTarget, now?: Date): Promise<Drawn | null> {
  return new Promise((resolve, reject) => {
    queue.push({ target, now, resolve, reject });
    if (!flushScheduled) {
      flushScheduled = true;
      setImmediate(flushDraws);
    }
  });
}

interface PendingDraw {
  target: DrawTarget;
  now?: Date;
  resolve: (drawn: Drawn | null) => void;
  reject: (error: unknown) => void;
}

let queue: PendingDraw[] = [];
let flushScheduled = false;

function flushDraws() {
  flushScheduled = false;
  const batch = queue;
  queue = [];
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
  let outcomes: Array<{ ok: true; value: Drawn | null } | { ok: false; error: unknown }>;
  try {
    outcomes = prepared(sqlite).drawMany(batch);
  } catch (error) {
    for (const item of batch) item.reject(error);
    return;
  }
  outcomes.forEach((outcome, i) => (outcome.ok ? batch[i]!.resolve(outcome.value) : batch[i]!.reject(outcome.error)));
}

/** The same draw through Kysely only: the portable version (PostgreSQL) and the reference in tests. */
export async function drawReferralCodeWithKysely(platformId: number | null, now: Date, trx: DB): Promise<Drawn | null> {
  return drawWithKysely(platformId === null ? null : { platformId }, now, trx);
}

async function drawWithKysely(target: DrawTarget, now: Date, trx: DB): Promise<Drawn | null> {
  const at = now.toISOString();
  const picked = await pickQuery(trx, target, at).executeTakeFirst();
  if (!picked) return null;
  await serveQuery(trx, picked.id, at).execute();
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

function binder(query: CompiledQuery) {
  const params = query.parameters;
  return (values: { now: string; platformId?: number; codeId?: number; code?: string; slug?: string }) =>
    params.map((p) =>
      p === NOW ? values.now : p === PLATFORM ? values.platformId : p === CODE_ID ? values.codeId : p === CODE ? values.code : p === SLUG ? values.slug : p,
    );
}

interface PreparedDraw {
  drawMany: (items: Array<{ target: DrawTarget; now?: Date }>) => Array<{ ok: true; value: Drawn | null } | { ok: false; error: unknown }>;
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
  const serve = compile(serveQuery(db, CODE_ID, NOW));
  const log = compile(logQuery(db, { platformId: PLATFORM, codeId: CODE_ID, code: CODE, now: NOW }));

  // Called inside the batch's transaction, better-sqlite3 runs this one as a savepoint.
  const drawOne = sqlite.transaction((target: DrawTarget, now: string): Drawn | null => {
    const pick = target === null ? pickAll : "slug" in target ? pickBySlug : pickOne;
    const picked = pick.stmt.get(
      pick.bind({ now, platformId: target && "platformId" in target ? target.platformId : undefined, slug: target && "slug" in target ? target.slug : undefined }),
    ) as
      | { id: number; code: string; platform_id: number }
      | undefined;
    if (!picked) return null;
    serve.stmt.run(serve.bind({ now, codeId: picked.id }));
    const info = log.stmt.run(log.bind({ now, platformId: picked.platform_id, codeId: picked.id, code: picked.code }));
    return { requestId: Number(info.lastInsertRowid), codeId: picked.id, code: picked.code, platformId: picked.platform_id };
  });
  const batch = sqlite.transaction((items: Array<{ target: DrawTarget; now?: Date }>) =>
    items.map((item) => {
      try {
        return { ok: true as const, value: drawOne(item.target, (item.now ?? new Date()).toISOString()) };
      } catch (error) {
        return { ok: false as const, error };
      }
    }),
  );
  // IMMEDIATE: take the write lock before reading, so another process (backup, CLI, tests) cannot
  // slip a write between a pick and its count.
  const entry: PreparedDraw = { drawMany: (items) => batch.immediate(items) };
  preparedByHandle.set(sqlite, entry);
  return entry;
}

export interface DrawResult {
  requestId: number;
  code: string;
  referralUrl: string | null;
  platformId: number;
  platformName: string;
  platformSlug: string;
  emoji: string;
  createdAt: string;
}

/** What a result page shows: the code as served (kept even if the code was deleted since). */
export async function getDrawResult(requestId: number, db: DB = getDb()): Promise<DrawResult | null> {
  const row = await db
    .selectFrom("random_requests")
    .innerJoin("platforms", "platforms.id", "random_requests.platform_id")
    .leftJoin("referral_codes", "referral_codes.id", "random_requests.served_code_id")
    .select([
      "random_requests.id",
      "random_requests.served_code",
      "random_requests.created_at",
      "random_requests.platform_id",
      "platforms.name",
      "platforms.slug",
      "platforms.emoji_icon",
      "platforms.referral_url_template",
      "referral_codes.referral_url",
    ])
    .where("random_requests.id", "=", requestId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    requestId: row.id,
    code: row.served_code,
    referralUrl: row.referral_url ?? buildReferralUrl(row.served_code, row.referral_url_template),
    platformId: row.platform_id,
    platformName: row.name,
    platformSlug: row.slug,
    emoji: row.emoji_icon,
    createdAt: row.created_at,
  };
}

/** How many codes a draw could serve now on this platform (the landing page's live count). */
export async function countAvailableCodes(platformId: number, now = new Date(), db: DB = getDb()): Promise<number> {
  const row = await db
    .selectFrom("referral_codes")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("platform_id", "=", platformId)
    .where(eligible(now.toISOString()))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Same, across every active platform (/random). */
export async function countAllAvailableCodes(now = new Date(), db: DB = getDb()): Promise<number> {
  const row = await db
    .selectFrom("referral_codes")
    .innerJoin("platforms", "platforms.id", "referral_codes.platform_id")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("platforms.is_active", "=", 1)
    .where(eligible(now.toISOString()))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function findCode(platformId: number, code: string, db: DB = getDb()) {
  return db.selectFrom("referral_codes").select(["id", "code"]).where("platform_id", "=", platformId).where("code", "=", code).executeTakeFirst();
}

export type SubmitOutcome = { ok: true; id: number } | { ok: false; reason: "duplicate" };

/** A visitor's code: temporary, valid CODE_VALIDITY_MONTHS. A duplicate (same platform and code) writes nothing. */
export async function submitReferralCode(
  input: { platformId: number; code: string; referralUrl: string | null },
  now = new Date(),
  db: DB = getDb(),
): Promise<SubmitOutcome> {
  if (await findCode(input.platformId, input.code, db)) return { ok: false, reason: "duplicate" };
  try {
    const row = await db
      .insertInto("referral_codes")
      .values({
        platform_id: input.platformId,
        code: input.code,
        referral_url: input.referralUrl,
        is_active: 1,
        is_permanent: 0,
        expires_at: expiryFrom(now),
        created_at: now.toISOString(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    return { ok: true, id: row.id };
  } catch (error) {
    // Two identical submissions at once: the unique constraint decides; the second is a duplicate.
    if (error instanceof Error && /UNIQUE constraint failed/i.test(error.message)) return { ok: false, reason: "duplicate" };
    throw error;
  }
}
