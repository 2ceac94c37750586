import { sql } from "kysely";
import { getDb, getDialect, type DB } from "../client.server";
import { eligible, inRotationOrder, liftEndedCapsQuery, newDrawKey } from "./rotation.server";

/**
 * The draw: one Kysely transaction that picks the next code of a platform (or of every platform),
 * counts its serve and logs it, the same on SQLite and PostgreSQL. Which codes may be drawn, in
 * which order, and how a code enters the rotation is the rule of rotation.server.ts (issue 55,
 * docs/fairness.md): each draw first raises the codes whose monthly cap has ended to the level of
 * the others, then picks, counts and logs. The one difference between the databases is the lock
 * that makes draws of a platform run one after the other (`lockDraws`).
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

type Platform = { platformId: number } | { slug: string } | null;

const platformOf = (target: DrawTarget): Platform =>
  target === null ? null : typeof target === "number" ? { platformId: target } : { slug: target };

/**
 * Draws the next code of the active platform `target` (an unknown or inactive platform draws
 * nothing), or across every active platform (null): pick, count and log in one transaction. Null
 * when no code is eligible; nothing is then written but the lifting of ended caps. `db` may already
 * be a transaction (Kysely refuses a nested one), else one is opened.
 */
export async function drawReferralCode(target: DrawTarget, now = new Date(), db: DB = getDb()): Promise<Drawn | null> {
  const platform = platformOf(target);
  const at = now.toISOString();
  const draw = async (trx: DB): Promise<Drawn | null> => {
    await lockDraws(trx, platform);
    await liftEndedCapsQuery(trx, at, platform).execute();
    const picked = await pickQuery(trx, platform, at).executeTakeFirst();
    if (!picked) return null;
    await trx
      .updateTable("referral_codes")
      .set((eb) => ({
        times_served: eb("times_served", "+", eb.lit(1)),
        rotation_count: eb("rotation_count", "+", eb.lit(1)),
        last_served_at: at,
        draw_key: newDrawKey(),
      }))
      .where("id", "=", picked.id)
      .execute();
    const logged = await trx
      .insertInto("random_requests")
      .values({ platform_id: picked.platform_id, served_code_id: picked.id, served_code: picked.code, created_at: at })
      .returning("id")
      .executeTakeFirstOrThrow();
    return { requestId: logged.id, codeId: picked.id, code: picked.code, platformId: picked.platform_id };
  };
  return db.isTransaction ? draw(db) : inTurn(() => db.transaction().execute(draw));
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

function pickQuery(db: DB, platform: Platform, now: string) {
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

/** The advisory lock class of draws on PostgreSQL (two-key form: class, platform id; 0 stands for every platform). */
const DRAW_LOCK_CLASS = 1901;

/**
 * THE DIALECT PART: draws of one platform run one after the other, each seeing the previous one's
 * count, across every process (the spread stays at most 1).
 * - SQLite: nothing to take. The transaction's first statement (the lift, an UPDATE) takes the
 *   database's one write lock, held to the commit; in this process Kysely runs transactions one at a
 *   time on its one connection.
 * - PostgreSQL: a transaction-scoped advisory lock per platform, taken before the pick (whose
 *   snapshot is then newer than the previous draw's commit); a draw across every platform (/random)
 *   takes the lock all platform draws share, exclusively.
 */
async function lockDraws(trx: DB, platform: Platform): Promise<void> {
  if (getDialect() !== "postgres") return;
  if (platform === null) {
    await sql`select pg_advisory_xact_lock(${sql.lit(DRAW_LOCK_CLASS)}, 0)`.execute(trx);
    return;
  }
  // Unknown slug: the subquery is null, the function (strict) locks nothing, and the pick finds nothing.
  const id =
    "platformId" in platform ? sql`${platform.platformId}::int` : sql`(select id from platforms where slug = ${platform.slug})`;
  await sql`select pg_advisory_xact_lock_shared(${sql.lit(DRAW_LOCK_CLASS)}, 0), pg_advisory_xact_lock(${sql.lit(DRAW_LOCK_CLASS)}, ${id})`.execute(
    trx,
  );
}
