import crypto from "node:crypto";
import { sql, type Expression, type ExpressionBuilder, type SelectQueryBuilder } from "kysely";
import { getDb, type DB } from "../client.server";
import type { Database } from "../schema";

/**
 * THE RULE OF THE ROTATION, in one place (issue 55, docs/fairness.md, decision 310). The draw
 * (draw.server.ts), the owner's estimate, the fairness page and a ledger verifier read it here.
 *
 * 1. In the rotation: the code is active; permanent, without expiry or not yet expired; not on a
 *    monthly cap (or its cap has ended); its platform is active (`eligible`).
 * 2. Order: the lowest `rotation_count` first; among those, the lowest `draw_key`, a random number
 *    the code draws anew (crypto) each time it is served. Each round is a fresh random order: no one
 *    can learn it from the codes served so far (`inRotationOrder`).
 * 3. A serve adds one to `times_served` (the real count, shown to owners) and to `rotation_count`.
 * 4. Entering at the level: a code that enters the rotation, whatever the way in, is raised to the
 *    highest `rotation_count` among the codes already in it (which are within one of each other):
 *    it joins at the back of the current round and then takes one turn per round like everyone
 *    else, not every draw until it catches up (`enterAtLevel`). It is lowered only when it comes
 *    back more than one turn above the lowest (its platform's other codes were replaced meanwhile). A monthly
 *    cap ends with time, not with a write: the draw itself raises the codes whose cap has ended
 *    before it picks (`liftEndedCaps`), as does the history job that clears ended caps.
 * 5. A deleted code leaves its keyed hash (`codeKey`) and counts behind (table code_history, by a
 *    trigger on every deletion); the same code submitted again on the same platform takes them back.
 */

/**
 * A value of the rule's queries: given, or an expression (the draw on PostgreSQL compiles them once
 * with its function's parameters in place of the values: draw.server.ts).
 */
type Value<T> = T | Expression<T>;

/**
 * Rule 1 on `referral_codes`. The flags are SQL literals, not parameters: the draw indexes are
 * partial (`WHERE is_active = 1`), and a parameter compared there makes SQLite re-plan the prepared
 * statement every time it is bound (decision 010).
 */
export function eligible(now: Value<string>) {
  return (eb: ExpressionBuilder<Database, "referral_codes">) =>
    eb.and([
      eb("referral_codes.is_active", "=", eb.lit(1)),
      eb.or([
        eb("referral_codes.is_permanent", "=", eb.lit(1)),
        eb("referral_codes.expires_at", "is", null),
        eb("referral_codes.expires_at", ">", now),
      ]),
      eb.or([eb("referral_codes.capped_until", "is", null), eb("referral_codes.capped_until", "<=", now)]),
    ]);
}

/** Rule 2: the order of the draw (fewest turns first, then the random key; the id only on a 31-bit tie). */
export function inRotationOrder<O>(qb: SelectQueryBuilder<Database, "referral_codes" | "platforms", O>) {
  return (
    qb
      .orderBy("referral_codes.rotation_count", "asc")
      .orderBy("referral_codes.draw_key", "asc")
      .orderBy("referral_codes.id", "asc")
      // A literal: SQLite re-plans a prepared statement each time a LIMIT parameter is bound.
      .limit(sql.lit(1))
  );
}

/** A new random tie-break key (rule 2), from the system's cryptographic source. */
export function newDrawKey(): number {
  return crypto.randomInt(0, 2 ** 31 - 1);
}

/**
 * Rule 4's bounds for the code being written (the outer `referral_codes` row): the lowest or highest
 * rotation_count (`fn`) among the OTHER codes of its platform that are in the rotation and not waiting
 * to be brought in themselves (a cap that has ended but not been lifted yet); null when there are none.
 */
function othersInRotation(fn: "min" | "max", now: Value<string>) {
  return sql<number | null>`(select ${sql.raw(fn)}(o.rotation_count) from referral_codes o
    where o.platform_id = referral_codes.platform_id and o.id <> referral_codes.id
      and o.is_active = 1 and o.capped_until is null
      and (o.is_permanent = 1 or o.expires_at is null or o.expires_at > ${now}))`;
}

/**
 * `rotation_count` brought to the level: the codes in the rotation are within one turn of each
 * other (the lowest ones have not had their turn in this round yet); an entering code joins at the
 * back of the round, the highest count among them, so it waits for those that have not had their
 * turn, then takes its turns with everyone. Raised to it when below (no catching up draw after
 * draw); lowered to one above the lowest in the one case it comes back further ahead (with turns
 * from before its platform's other codes were replaced: it would otherwise wait rounds for nothing).
 * Alone on its platform, a code keeps its count. Portable: no max()/greatest() of two values.
 */
function broughtToLevel(now: Value<string>) {
  const highest = othersInRotation("max", now);
  const lowest = othersInRotation("min", now);
  return sql<number>`case
    when ${highest} is null then rotation_count
    when rotation_count < ${highest} then ${highest}
    when rotation_count > ${lowest} + 1 then ${lowest} + 1
    else rotation_count end`;
}

/**
 * Rule 4 for one code that has just entered the rotation (submitted, resumed, restored,
 * re-activated, no longer expired, cap lifted by an admin). One statement: the level is read and
 * written at once. Call it in the same transaction as the write that let the code in, and only when
 * the code was out before (an eligible code raised to the others' level would lose its turn).
 * A fresh random key too, so its place in the round is random.
 */
export async function enterAtLevel(db: DB, codeId: number, now: Date): Promise<void> {
  const at = now.toISOString();
  await db
    .updateTable("referral_codes")
    .set({ rotation_count: broughtToLevel(at), draw_key: newDrawKey() })
    .where("id", "=", codeId)
    .execute();
}

/** True when the code is in the rotation now (rule 1; its platform aside, which a code write never changes). */
async function isInRotation(db: DB, codeId: number, now: Date): Promise<boolean> {
  const row = await db
    .selectFrom("referral_codes")
    .select("id")
    .where("id", "=", codeId)
    .where(eligible(now.toISOString()))
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Runs a write that may let a code into the rotation, in one transaction with rule 4: if the code was
 * out before the write and is in after it, it enters at the level. Returns the write's result.
 * `db` may already be a transaction (Kysely refuses a nested one), else one is opened.
 */
export async function writeEntering<R>(db: DB, codeId: number, now: Date, write: (trx: DB) => Promise<R>): Promise<R> {
  const run = async (trx: DB) => {
    const wasIn = await isInRotation(trx, codeId, now);
    const result = await write(trx);
    if (!wasIn && (await isInRotation(trx, codeId, now))) await enterAtLevel(trx, codeId, now);
    return result;
  };
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}

/**
 * Rule 4 for the time-driven way in: codes whose monthly cap has ended are raised to the level and
 * their cap cleared (so they are raised once). `platform`: one platform's id, or a slug, or every
 * platform (null); `limit`: at most that many (the history job's batches). Found on
 * referral_codes_capped_idx (partial, `capped_until IS NOT NULL`): a handful of rows at most.
 */
export function liftEndedCapsQuery(
  db: DB,
  now: Value<string>,
  platform: { platformId: Value<number> } | { slug: string } | null,
  limit?: number,
) {
  return db
    .updateTable("referral_codes")
    .set({ rotation_count: broughtToLevel(now), capped_until: sql<null>`null` })
    .where("capped_until", "<=", now)
    .$if(platform !== null && "platformId" in platform, (qb) =>
      qb.where("platform_id", "=", (platform as { platformId: Value<number> }).platformId),
    )
    .$if(platform !== null && "slug" in platform, (qb) =>
      qb.where("platform_id", "=", (eb) =>
        eb
          .selectFrom("platforms")
          .select("id")
          .where("slug", "=", (platform as { slug: string }).slug),
      ),
    )
    .$if(limit !== undefined, (qb) =>
      qb.where("id", "in", (eb) =>
        eb
          .selectFrom("referral_codes")
          .select("id")
          .where("capped_until", "<=", now)
          .limit(limit ?? 0),
      ),
    );
}

/**
 * Rule 5's key: a keyed hash of platform and code (the code is not kept in clear after a deletion),
 * punctuation aside, as duplicates are found (`ATK-RV1` deleted and sent again as `ATK.RV1` is the
 * same code, decision 317).
 */
export function codeKey(secret: string, platformId: number, code: string): string {
  const folded = code.replace(/[-_.]/g, "");
  return crypto.createHmac("sha256", secret).update(`parrainly:code-history:${platformId}:${folded}`).digest("base64url");
}

/** What a deleted code with this key had reached, if it was ever deleted. */
export async function codeHistory(key: string, db: DB = getDb()) {
  return db.selectFrom("code_history").select(["rotation_count", "times_served"]).where("code_key", "=", key).executeTakeFirst();
}

// ---------- the owner's estimate: coarse and not live ----------

/** Draws ahead of a code, as a range (its place among the tied ones is random). */
export interface DrawsAhead {
  /** At least this many draws of the platform come before this code's turn. */
  min: number;
  /** At most this many. */
  max: number;
}

/**
 * How many draws of its platform come before this code's next serve, as a range: the codes with
 * fewer turns all come first; among those with as many as it, its place is random. Null when the
 * code is not in the rotation. `compute` false: only whether it is in the rotation (the owner's
 * estimate keeps a range for the hour: app/features/offer/rotation-estimate.server.ts).
 */
export async function drawsAhead(
  codeId: number,
  now = new Date(),
  compute: (platformId: number) => boolean = () => true,
  db: DB = getDb(),
): Promise<DrawsAhead | "kept" | null> {
  const at = now.toISOString();
  const code = await db
    .selectFrom("referral_codes")
    .innerJoin("platforms", "platforms.id", "referral_codes.platform_id")
    .select(["referral_codes.platform_id", "referral_codes.rotation_count"])
    .where("referral_codes.id", "=", codeId)
    .where("platforms.is_active", "=", 1)
    .where(eligible(at))
    .executeTakeFirst();
  if (!code) return null;
  if (!compute(code.platform_id)) return "kept";
  const row = await db
    .selectFrom("referral_codes")
    .select((eb) => [
      eb.fn.sum<number>(eb.case().when("rotation_count", "<", code.rotation_count).then(1).else(0).end()).as("below"),
      eb.fn.sum<number>(eb.case().when("rotation_count", "=", code.rotation_count).then(1).else(0).end()).as("tied"),
    ])
    .where("platform_id", "=", code.platform_id)
    .where("id", "<>", codeId)
    .where("rotation_count", "<=", code.rotation_count)
    .where(eligible(at))
    .executeTakeFirstOrThrow();
  const below = Number(row.below ?? 0);
  return { min: below, max: below + Number(row.tied ?? 0) };
}
