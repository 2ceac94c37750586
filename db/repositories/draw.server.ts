import { sql, type Expression } from "kysely";
import { getDb, getDialect, type DB } from "../client.server";
import { noteWrite } from "../read-cache.server";
import { announceWrite } from "../site-writes.server";
import { eligible, inRotationOrder, liftEndedCapsQuery, newDrawKey } from "./rotation.server";

/**
 * The draw: picks the next code of a platform (or of every platform), counts its serve and logs it,
 * all or nothing. Which codes may be drawn, in which order, and how a code enters the rotation is
 * the rule of rotation.server.ts (issue 55, docs/fairness.md): each draw first raises the codes
 * whose monthly cap has ended to the level of the others, then picks, counts and logs, built here
 * once from that rule for both databases. The one difference between them is how the statements
 * reach the database with draws of a platform one after the other (`inTurnOnTheDatabase`).
 */

/** The platform drawn from: its id, its slug (the draw page's address), or null for every active platform (/random). */
export type DrawTarget = number | string | null;

export interface Drawn {
  /** random_requests.id: identifies the result page. */
  requestId: number;
  codeId: number;
  code: string;
  platformId: number;
}

type Platform = { platformId: number | Expression<number> } | { slug: string } | null;

const platformOf = (target: DrawTarget): Platform =>
  target === null ? null : typeof target === "number" ? { platformId: target } : { slug: target };

/**
 * Draws the next code of the active platform `target` (an unknown or inactive platform draws
 * nothing), or across every active platform (null): pick, count and log at once. Null when no code
 * is eligible; nothing is then written but the lifting of ended caps. `db` may already be a
 * transaction (Kysely refuses a nested one).
 */
export async function drawReferralCode(target: DrawTarget, now = new Date(), db: DB = getDb()): Promise<Drawn | null> {
  const draw = () => inTurnOnTheDatabase(db, platformOf(target), now.toISOString());
  return db.isTransaction ? draw() : inTurn(draw);
}

let lastDraw: Promise<unknown> = Promise.resolve();

/**
 * Draws of this process run one after the other. On SQLite Kysely's one connection does that anyway;
 * on PostgreSQL a draw waiting for its platform's lock would otherwise hold a connection of the pool
 * meanwhile, and a burst of draws took them all (the result pages' reads then timed out waiting for
 * one). Draws of one platform run one at a time whatever this does; across processes the lock orders them.
 */
function inTurn<T>(run: () => Promise<T>): Promise<T> {
  const turn = lastDraw.then(run, run);
  lastDraw = turn.catch(() => undefined);
  return turn;
}

/** The pick: rule 1 and rule 2 of rotation.server.ts on the active platforms (or the one drawn from). */
function pickQuery(db: DB, platform: Platform, now: string | Expression<string>) {
  let qb = db
    .selectFrom("referral_codes")
    .innerJoin("platforms", "platforms.id", "referral_codes.platform_id")
    .select(["referral_codes.id", "referral_codes.code", "referral_codes.platform_id"])
    .where((eb) => eb("platforms.is_active", "=", eb.lit(1)))
    .where(eligible(now));
  if (platform && "platformId" in platform) qb = qb.where("referral_codes.platform_id", "=", platform.platformId);
  if (platform && "slug" in platform) qb = qb.where("platforms.slug", "=", platform.slug);
  return inRotationOrder(qb);
}

/** The count: rule 3 on the code `id`, with its new random key. */
function countQuery(db: DB, id: number | Expression<number>, now: string | Expression<string>, key: number | Expression<number>) {
  return db
    .updateTable("referral_codes")
    .set((eb) => ({
      times_served: eb("times_served", "+", eb.lit(1)),
      rotation_count: eb("rotation_count", "+", eb.lit(1)),
      last_served_at: now,
      draw_key: key,
    }))
    .where("id", "=", id);
}

/**
 * THE DIALECT PART: the lift, the pick, the count and the log reach the database with draws of one
 * platform one after the other, each seeing the previous one's count, across every process (the
 * spread stays at most 1).
 * - SQLite: one transaction of the four statements. Its first statement (the lift, an UPDATE) takes
 *   the database's one write lock, held to the commit; in this process Kysely runs transactions one
 *   at a time on its one connection.
 * - PostgreSQL: one statement, one round trip, the only one the lock is held for (decision 390):
 *   `draw_in_turn` (migration 0023) takes the platform's advisory lock (decision 131), then runs the
 *   lift and the pick-count-log, both built below from the same queries, with fresh snapshots.
 */
/** The tables a draw writes (its ledger rows are written by a trigger, and read by no cache). */
const DRAW_WRITES = ["referral_codes", "random_requests"];

async function inTurnOnTheDatabase(db: DB, platform: Platform, at: string): Promise<Drawn | null> {
  if (getDialect() === "postgres") {
    const { lift, draw } = postgresStatements(db, platform === null ? "every" : "one");
    const id = platform && "platformId" in platform ? platform.platformId : null;
    const slug = platform && "slug" in platform ? platform.slug : null;
    const { rows } = await sql<{ id: number; served_code_id: number; served_code: string; platform_id: number }>`
      select id, served_code_id, served_code, platform_id
      from draw_in_turn(${id}::int, ${slug}::text, ${at}::text, ${newDrawKey()}::int, ${lift}::text, ${draw}::text)`.execute(db);
    // A select of a function reads as a read to the caches (db/read-cache.server.ts): say what it wrote,
    // here and to the other processes (db/site-writes.server.ts), as a Kysely update and insert would.
    noteWrite(...DRAW_WRITES);
    announceWrite(DRAW_WRITES);
    const logged = rows[0];
    return logged
      ? { requestId: logged.id, codeId: logged.served_code_id, code: logged.served_code, platformId: logged.platform_id }
      : null;
  }
  const step = (trx: DB) => inFourStatements(trx, platform, at);
  return db.isTransaction ? step(db) : db.transaction().execute(step);
}

/** SQLite's draw, inside its transaction `trx`: the lift, the pick, the count and the log, one round trip each. */
async function inFourStatements(trx: DB, platform: Platform, at: string): Promise<Drawn | null> {
  await liftEndedCapsQuery(trx, at, platform).execute();
  const picked = await pickQuery(trx, platform, at).executeTakeFirst();
  if (!picked) return null;
  await countQuery(trx, picked.id, at, newDrawKey()).execute();
  const logged = await trx
    .insertInto("random_requests")
    .values({ platform_id: picked.platform_id, served_code_id: picked.id, served_code: picked.code, created_at: at })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { requestId: logged.id, codeId: picked.id, code: picked.code, platformId: picked.platform_id };
}

/**
 * Exists only so that `npm run bench` (scripts/bench-draw-worker.ts) can measure the PostgreSQL draw
 * as it was before decision 390 beside `draw_in_turn`, in the same run; no server draws through it.
 * A Kysely transaction of five round trips under the platform's lock: the lock (decision 131's class
 * 1901, the keys draw_in_turn takes, migration 0023), then SQLite's four statements, then the commit.
 */
export function drawInFiveRoundTripsForBench(platformId: number): Promise<Drawn | null> {
  const db = getDb();
  const at = new Date().toISOString();
  return inTurn(() =>
    db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock_shared(1901, 0), pg_advisory_xact_lock(1901, ${platformId}::int)`.execute(trx);
      return inFourStatements(trx, { platformId }, at);
    }),
  );
}

/** draw_in_turn's parameters, as its statements name them. */
const PLATFORM = sql<number>`$1`;
const AT = sql<string>`$2`;
const KEY = sql<number>`$3`;

const compiled = new Map<"every" | "one", { lift: string; draw: string }>();

/**
 * PostgreSQL's two statements, compiled once per kind of draw (every platform, or one): the lift of
 * rotation.server.ts, and one data-modifying statement that picks, counts and logs (the log's
 * trigger writes the ledger row, migration 0021). Their only values are draw_in_turn's parameters.
 */
function postgresStatements(db: DB, kind: "every" | "one") {
  let statements = compiled.get(kind);
  if (statements) return statements;
  const platform = kind === "every" ? null : { platformId: PLATFORM };
  const lift = liftEndedCapsQuery(db, AT, platform).compile();
  const draw = db
    .with("picked", () => pickQuery(db, platform, AT))
    .with("counted", () => countQuery(db, sql<number>`(select id from picked)`, AT, KEY))
    .insertInto("random_requests")
    .columns(["platform_id", "served_code_id", "served_code", "created_at"])
    .expression((eb) => eb.selectFrom("picked").select(["platform_id", "id", "code", AT.as("created_at")]))
    .returningAll()
    .compile();
  if (lift.parameters.length > 0 || draw.parameters.length > 0)
    throw new Error("the draw's statements take no values of their own");
  statements = { lift: lift.sql, draw: draw.sql };
  compiled.set(kind, statements);
  return statements;
}
