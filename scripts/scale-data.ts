// The "years of success" data set (issue 24): many platforms, codes, draws, answers, deletion
// requests, suggestions with votes and game scores, spread over `days` days before `now`. Built from
// a seeded PRNG: the same size, seed and `now` give the same rows. Used by `npm run bench -- --only
// scale` (LARGE, raw better-sqlite3 statements in one transaction) and by integration tests at a
// medium size on either database (through Kysely, in chunks): the writers are scripts/scale-sinks.ts.
import { PostgresAdapter, sql } from "kysely";
import type { DB } from "~db/client.server";
import { kyselySink, type Row, type Sink } from "./scale-sinks";

export interface ScaleSize {
  /** Active platforms in all, the six seeded ones included. */
  platforms: number;
  codes: number;
  /** Of which on Revolut. */
  revolutCodes: number;
  draws: number;
  /** One answer per answered draw (every draws/answers-th draw). */
  answers: number;
  deletions: number;
  suggestions: number;
  votes: number;
  scores: number;
  /** The history spans this many days before `now`. */
  days: number;
}

export const LARGE: ScaleSize = {
  platforms: 66,
  codes: 200_000,
  revolutCodes: 50_000,
  draws: 3_000_000,
  answers: 300_000,
  deletions: 20_000,
  suggestions: 5_000,
  votes: 100_000,
  scores: 200_000,
  days: 730,
};

/** Tens of thousands of rows: built in seconds, enough to show what a page does with a big table. */
export const MEDIUM: ScaleSize = {
  platforms: 20,
  codes: 5_000,
  revolutCodes: 2_000,
  draws: 30_000,
  answers: 3_000,
  deletions: 500,
  suggestions: 200,
  votes: 2_000,
  scores: 3_000,
  days: 200,
};

/** mulberry32: small, fast, and the same sequence everywhere. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DAY_MS = 86_400_000;

/**
 * Adds the data set to a migrated, seeded database (the six known platforms exist). Ids are
 * assigned here, after the largest existing ones, so rows can point at each other without reading
 * back. Returns the ids of Revolut and of the platforms.
 */
export async function generateScaleData(
  sink: Sink,
  existing: { platforms: Array<{ id: number; slug: string }>; maxIds?: Partial<Record<string, number>> },
  size: ScaleSize,
  { seed = 24, now = new Date(), chunk = 100 }: { seed?: number; now?: Date; chunk?: number } = {},
): Promise<{ revolutId: number; platformIds: number[] }> {
  const random = prng(seed);
  const start = now.getTime() - size.days * DAY_MS;
  const iso = (ms: number) => new Date(ms).toISOString();
  const nextId = (table: string) => (existing.maxIds?.[table] ?? 0) + 1;

  let buffer: Row[] = [];
  let current: { table: string; columns: readonly string[] } | null = null;
  const flush = async () => {
    if (current && buffer.length > 0) await sink(current.table, current.columns, buffer);
    buffer = [];
  };
  const put = async (table: string, columns: readonly string[], row: Row) => {
    if (current?.table !== table) {
      await flush();
      current = { table, columns };
    }
    buffer.push(row);
    if (buffer.length >= chunk) await flush();
  };

  // Platforms: the seeded ones, then generated ones up to size.platforms.
  const platformIds = existing.platforms.map((p) => p.id);
  const revolutId = existing.platforms.find((p) => p.slug === "revolut")?.id ?? platformIds[0]!;
  let platformId = nextId("platforms");
  for (let i = platformIds.length; i < size.platforms; i++, platformId++) {
    const slug = `scale-${String(i).padStart(3, "0")}`;
    await put(
      "platforms",
      ["id", "name", "slug", "description", "gradient_from", "gradient_to", "hosts", "referral_url_template", "created_at"],
      [
        platformId,
        `Scale ${i}`,
        slug,
        `Plateforme ${i}`,
        "#1d4ed8",
        "#6d28d9",
        `${slug}.example`,
        `https://${slug}.example/r/{code}`,
        iso(start + random() * DAY_MS),
      ],
    );
    platformIds.push(platformId);
  }

  // Codes: revolutCodes on Revolut, the rest spread over the other platforms.
  const others = platformIds.filter((id) => id !== revolutId);
  const codeIds: number[] = [];
  const codePlatform: number[] = [];
  const codeText: string[] = [];
  const codesOf = new Map<number, number[]>(platformIds.map((id) => [id, []]));
  const firstCode = nextId("referral_codes");
  const servedCount = new Int32Array(size.codes);
  const lastServed: Array<string | null> = new Array(size.codes).fill(null);
  for (let i = 0; i < size.codes; i++) {
    const platform = i < size.revolutCodes ? revolutId : others[i % others.length]!;
    codeIds.push(firstCode + i);
    codePlatform.push(platform);
    codeText.push(`SC${i.toString(36).toUpperCase().padStart(6, "0")}`);
    codesOf.get(platform)!.push(i);
  }

  // Draws: in time order; a platform draws its codes in turn (the rotation), Revolut a quarter of
  // them. The same sequence is walked twice (its own PRNG): once to count each code's serves, so the
  // codes can be written first (the draws point at them), once to write the draws.
  function* drawSequence() {
    const next = prng(seed + 1);
    const turn = new Map<number, number>();
    for (let i = 0; i < size.draws; i++) {
      const at = start + ((i + next()) / size.draws) * size.days * DAY_MS;
      const platform = next() < 0.25 ? revolutId : others[Math.floor(next() * others.length)]!;
      const list = codesOf.get(platform)!;
      if (list.length === 0) continue;
      const k = turn.get(platform) ?? 0;
      turn.set(platform, k + 1);
      yield { i, at, platform, code: list[k % list.length]! };
    }
  }
  for (const d of drawSequence()) {
    servedCount[d.code]!++;
    lastServed[d.code] = iso(d.at);
  }

  for (let i = 0; i < size.codes; i++) {
    // Temporary codes live six months: most are recent, a few expired ones wait for the cleanup.
    const permanent = random() < 0.2 ? 1 : 0;
    const created = permanent
      ? start + random() * (now.getTime() - start)
      : now.getTime() - (random() < 0.03 ? 183 + random() * 30 : random() * 175) * DAY_MS;
    const active = random() < 0.95 ? 1 : 0;
    await put(
      "referral_codes",
      ["id", "platform_id", "code", "is_active", "is_permanent", "expires_at", "times_served", "last_served_at", "created_at"],
      [
        codeIds[i]!,
        codePlatform[i]!,
        codeText[i]!,
        active,
        permanent,
        permanent ? null : iso(created + 182 * DAY_MS),
        servedCount[i]!,
        lastServed[i]!,
        iso(created),
      ],
    );
  }

  const answerEvery = Math.max(1, Math.floor(size.draws / Math.max(1, size.answers)));
  const firstDraw = nextId("random_requests");
  const answers: Row[] = [];
  let answerId = nextId("code_reports");
  for (const { i, at, platform, code } of drawSequence()) {
    const id = firstDraw + i;
    await put(
      "random_requests",
      ["id", "platform_id", "served_code_id", "served_code", "created_at"],
      [id, platform, codeIds[code]!, codeText[code]!, iso(at)],
    );
    if (i % answerEvery === 0 && answers.length < size.answers) {
      answers.push([
        answerId++,
        id,
        codeIds[code]!,
        platform,
        random() < 0.85 ? "worked" : "failed",
        `ip${Math.floor(random() * 50_000)}`,
        iso(Math.min(at + 60_000, now.getTime() - 1)),
      ]);
    }
  }
  for (const row of answers) {
    await put("code_reports", ["id", "random_request_id", "code_id", "platform_id", "outcome", "ip_hash", "created_at"], row);
  }

  let deletionId = nextId("deletion_requests");
  for (let i = 0; i < size.deletions; i++) {
    const code = Math.floor(random() * size.codes);
    const at = start + random() * (now.getTime() - start);
    const status = random() < 0.7 ? "pending" : random() < 0.5 ? "approved" : "rejected";
    await put(
      "deletion_requests",
      ["id", "code", "platform_id", "reason", "status", "created_at", "resolved_at"],
      [
        deletionId++,
        codeText[code]!,
        codePlatform[code]!,
        random() < 0.5 ? "Ce code ne marche plus" : null,
        status,
        iso(at),
        status === "pending" ? null : iso(at + DAY_MS),
      ],
    );
  }

  // Suggestions and their votes (votes_count matches the vote rows).
  const firstSuggestion = nextId("platform_suggestions");
  const votesPer = new Int32Array(size.suggestions);
  for (let i = 0; i < size.votes; i++) votesPer[Math.floor(random() * random() * size.suggestions)]!++;
  for (let i = 0; i < size.suggestions; i++) {
    const name = `Suggestion ${i} ${i.toString(36)}`;
    await put(
      "platform_suggestions",
      ["id", "name", "normalized_name", "description", "website_url", "status", "votes_count", "created_at"],
      [
        firstSuggestion + i,
        name,
        name.toLowerCase().replace(/[^a-z0-9]/g, ""),
        random() < 0.5 ? "Une plateforme proposée" : null,
        null,
        random() < 0.8 ? "pending" : random() < 0.5 ? "approved" : "rejected",
        votesPer[i]!,
        iso(start + random() * (now.getTime() - start)),
      ],
    );
  }
  let voteId = nextId("platform_suggestion_votes");
  for (let s = 0; s < size.suggestions; s++) {
    for (let v = 0; v < votesPer[s]!; v++) {
      await put(
        "platform_suggestion_votes",
        ["id", "suggestion_id", "ip_hash", "client_fingerprint", "created_at"],
        [
          voteId++,
          firstSuggestion + s,
          `vip${Math.floor(random() * 80_000)}`,
          `client${s}-${v}`,
          iso(start + random() * (now.getTime() - start)),
        ],
      );
    }
  }

  let scoreId = nextId("game_scores");
  for (let i = 0; i < size.scores; i++) {
    const at = start + ((i + random()) / size.scores) * (now.getTime() - start);
    await put(
      "game_scores",
      ["id", "player_name", "score", "device_type", "created_at"],
      [
        scoreId++,
        `Player${Math.floor(random() * 20_000)}`,
        Math.floor(random() * 200) * 10,
        random() < 0.6 ? "mobile" : "desktop",
        iso(at),
      ],
    );
  }
  await flush();
  return { revolutId, platformIds };
}

const TABLES = [
  "platforms",
  "referral_codes",
  "random_requests",
  "code_reports",
  "deletion_requests",
  "platform_suggestions",
  "platform_suggestion_votes",
  "game_scores",
] as const;

/**
 * The data set added to a migrated, seeded database through Kysely (SQLite or PostgreSQL): what the
 * integration tests use at MEDIUM size. On PostgreSQL each serial key then continues after the
 * largest id written here.
 */
export async function addScaleData(db: DB, size: ScaleSize, options: { seed?: number; now?: Date } = {}) {
  const platforms = await db.selectFrom("platforms").select(["id", "slug"]).orderBy("id").execute();
  const maxIds: Record<string, number> = {};
  for (const table of TABLES) {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.max<number | null>("id").as("n"))
      .executeTakeFirst();
    maxIds[table] = Number(row?.n ?? 0);
  }
  const result = await db
    .transaction()
    .execute((trx) => generateScaleData(kyselySink(trx), { platforms, maxIds }, size, { ...options, chunk: 200 }));
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    for (const table of TABLES) {
      await sql`select setval(pg_get_serial_sequence(${table}, 'id'), (select max(id) from ${sql.table(table)}))`.execute(db);
    }
  }
  return result;
}
