import type { Insertable } from "kysely";
import type { Database } from "../../db/schema";
import { nameLengths, normalizeName } from "../../app/features/community/similarity";
import type { TestDb } from "./fixtures";

/**
 * A medium data set for the paged lists: tens of thousands of rows, written in one transaction in
 * batches (seconds, on SQLite and PostgreSQL). Deterministic: every figure a test checks is below.
 */
export const MEDIUM = {
  bigCodes: 20_000,
  midCodes: 1_130,
  /** Mid's codes by state: i % 5 == 0 paused, 1 expired, 2 never served, else served; 2-4 are active. */
  midStates: { paused: 226, expired: 226, "never-served": 226, active: 678 },
  extraPlatforms: 60,
  bigDraws: 28_700,
  midDraws: 1_300,
  /** Mid's draws are spread over 10 days, 130 a day, at noon UTC: MEDIUM_DAY has 130 of them. */
  midDrawsPerDay: 130,
  deletions: 3_000,
  suggestions: 3_000,
  scores: 5_000,
  partnerships: 120,
} as const;

const DAY = 86_400_000;
/** Day 0 of the data set (noon UTC, so every Paris day boundary is far away). */
const BASE = Date.UTC(2026, 0, 10, 12);
const iso = (ms: number) => new Date(ms).toISOString();
/** The Paris day of mid's draws on day 3. */
export const MEDIUM_DAY = iso(BASE + 3 * DAY).slice(0, 10);

const SYLLABLES = ["ka", "lo", "mi", "ber", "tra", "zu", "vin", "ox", "pel", "qua", "ri", "son", "dy", "fa", "gor", "nu"];
const SUFFIXES = ["", "", "", " Bank", " App", " Pay", " France"];

/** A made-up brand name of 1 to 6 syllables (a deterministic sequence), sometimes with a common suffix word. */
function brandName(i: number): string {
  let x = (i * 2654435761) >>> 0;
  const next = () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 8;
  const syllables = 1 + (next() % 6);
  let name = "";
  for (let k = 0; k < syllables; k++) name += SYLLABLES[next() % SYLLABLES.length];
  return `${name[0]!.toUpperCase()}${name.slice(1)}${i}${SUFFIXES[next() % SUFFIXES.length]}`;
}

async function insertAll<T extends keyof Database>(db: TestDb, table: T, rows: Array<Insertable<Database[T]>>) {
  for (let i = 0; i < rows.length; i += 400) {
    await db
      .insertInto(table)
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      .values(rows.slice(i, i + 400) as any)
      .execute();
  }
}

export async function seedMediumData(db: TestDb): Promise<{ bigId: number; midId: number }> {
  return db.transaction().execute(async (trx) => {
    const platform = (slug: string, i: number) => ({
      name: `Medium ${slug}`,
      slug,
      description: "Plateforme de test",
      gradient_from: "#1d4ed8",
      gradient_to: "#6d28d9",
      hosts: `${slug}.example`,
      referral_url_template: `https://${slug}.example/r/{code}`,
      url_rules: JSON.stringify([{ type: "path", after: "r" }]),
      created_at: iso(BASE + i * 1000),
    });
    const big = await trx.insertInto("platforms").values(platform("m-big", 0)).returning("id").executeTakeFirstOrThrow();
    const mid = await trx.insertInto("platforms").values(platform("m-mid", 1)).returning("id").executeTakeFirstOrThrow();
    await insertAll(
      trx,
      "platforms",
      Array.from({ length: MEDIUM.extraPlatforms }, (_, i) => platform(`m-p${String(i).padStart(2, "0")}`, 2 + i)),
    );

    await insertAll(
      trx,
      "referral_codes",
      Array.from({ length: MEDIUM.bigCodes }, (_, i) => ({
        platform_id: big.id,
        code: `BIG${i}`,
        is_permanent: 1,
        times_served: 1,
        created_at: iso(BASE + i * 60_000),
      })),
    );
    await insertAll(
      trx,
      "referral_codes",
      Array.from({ length: MEDIUM.midCodes }, (_, i) => ({
        platform_id: mid.id,
        code: `MID${String(i).padStart(5, "0")}`,
        is_active: i % 5 === 0 ? 0 : 1,
        is_permanent: i % 5 === 1 ? 0 : 1,
        expires_at: i % 5 === 1 ? iso(BASE) : null,
        times_served: i % 5 === 2 ? 0 : 1,
        // Three codes share each instant: the id breaks the tie, so no page repeats or skips one.
        created_at: iso(BASE + Math.floor(i / 3) * 60_000),
      })),
    );

    await insertAll(
      trx,
      "random_requests",
      Array.from({ length: MEDIUM.bigDraws + MEDIUM.midDraws }, (_, i) => {
        const isMid = i < MEDIUM.midDraws;
        return {
          platform_id: isMid ? mid.id : big.id,
          served_code: isMid ? "MID00002" : "BIG1",
          served_code_id: null,
          created_at: isMid
            ? iso(BASE + Math.floor(i / MEDIUM.midDrawsPerDay) * DAY + (i % 7) * 1000)
            : iso(BASE + (i % 900) * 3_600_000),
        };
      }),
    );

    const statuses = ["pending", "approved", "rejected"] as const;
    await insertAll(
      trx,
      "deletion_requests",
      Array.from({ length: MEDIUM.deletions }, (_, i) => ({
        code: `DEL${i}`,
        platform_id: i % 2 === 0 ? mid.id : big.id,
        reason: null,
        status: statuses[i % 3]!,
        created_at: iso(BASE + Math.floor(i / 2) * 3_600_000),
        resolved_at: i % 3 === 0 ? null : iso(BASE + i * 3_600_000),
      })),
    );

    await insertAll(
      trx,
      "platform_suggestions",
      Array.from({ length: MEDIUM.suggestions }, (_, i) => {
        const name = brandName(i);
        const lengths = nameLengths(name);
        return {
          name,
          normalized_name: normalizeName(name),
          name_length: lengths.name,
          core_length: lengths.core,
          status: (["pending", "pending", "approved", "rejected"] as const)[i % 4],
          votes_count: i % 37,
          created_at: iso(BASE + i * 60_000),
        };
      }),
    );

    await insertAll(
      trx,
      "game_scores",
      Array.from({ length: MEDIUM.scores }, (_, i) => ({
        player_name: `Player${i}`,
        score: (i % 50) * 10,
        device_type: i % 2 === 0 ? ("mobile" as const) : ("desktop" as const),
        created_at: iso(BASE + i * 600_000),
      })),
    );

    await insertAll(
      trx,
      "partnerships",
      Array.from({ length: MEDIUM.partnerships }, (_, i) => ({
        name: `Partner ${i}`,
        url: `https://partner${i}.example/`,
        display_order: i,
        created_at: iso(BASE),
      })),
    );
    return { bigId: big.id, midId: mid.id };
  });
}
