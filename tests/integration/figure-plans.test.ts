import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { openPgPool } from "~db/client.server";
import { drawsPerDay, getDashboardStats } from "~db/repositories/daily-figures.server";
import { drawsPerDayByPlatform } from "~db/repositories/assistant-queries.server";
import { codeAnswerSummary, platformAnswerStats } from "~db/repositories/code-reports.server";
import {
  countAllAvailableCodes,
  countAvailableByPlatform,
  countAvailableCodes,
  listActivePlatformsWithCounts,
} from "~db/repositories/code-counts.server";
import { listPlatformFairness } from "~db/repositories/fairness.server";
import { pruneAnswers, pruneDraws, pruneOther, runHistoryJob } from "~db/repositories/history.server";
import { rollUpNextDay } from "~db/repositories/rollup.server";
import { latestDates, listSitemapPlatforms } from "~db/repositories/sitemap.server";
import type { Database } from "~db/schema";
import { addScaleData, MEDIUM } from "../../scripts/scale-data";
import { getSqlite, onPostgres, useFreshDatabase, type DB } from "../support/db";

/**
 * Every query behind the figures that used to scan history (and the retention job's) runs on an
 * index: EXPLAIN QUERY PLAN on SQLite, EXPLAIN on PostgreSQL with sequential scans priced out (its
 * planner prefers them on small tables; what matters is that an index path exists). The queries are
 * the repository functions' own, captured through Kysely's log on a medium data set.
 */

const BIG_TABLES = [
  "random_requests",
  "code_reports",
  "referral_codes",
  "game_scores",
  "platform_suggestion_votes",
  "platform_daily_stats",
  "assistant_messages",
  "assistant_usage",
];

let db: DB;
let url: string;
const now = new Date();

beforeAll(async () => {
  ({ db, url } = await useFreshDatabase());
  await addScaleData(db, { ...MEDIUM, draws: 8_000, answers: 1_500, codes: 3_000, revolutCodes: 1_000 }, { now });
  // Half the history rolled up, as between two runs of the job.
  for (let i = 0; i < 100; i++) await rollUpNextDay(new Date(now.getTime() - 30 * 86_400_000), db);
}, 120_000);

/** The queries `run` sends, compiled, through a second handle that logs them. */
async function queriesOf(run: (logged: DB) => Promise<unknown>): Promise<CompiledQuery[]> {
  const queries: CompiledQuery[] = [];
  const log = (event: { level: string; query: CompiledQuery }) => void (event.level === "query" && queries.push(event.query));
  if (onPostgres) {
    const logged = new Kysely<Database>({ dialect: new PostgresDialect({ pool: openPgPool(url) }), log });
    try {
      await run(logged);
    } finally {
      await logged.destroy();
    }
  } else {
    // The app's own connection (not closed here): same file, same statements.
    await run(new Kysely<Database>({ dialect: new SqliteDialect({ database: getSqlite() }), log }));
  }
  return queries;
}

/** The plan of one query, one line per step. */
async function planOf(query: CompiledQuery): Promise<string> {
  if (!onPostgres) {
    const rows = getSqlite()
      .prepare(`EXPLAIN QUERY PLAN ${query.sql}`)
      .all(...(query.parameters as unknown[])) as Array<{ detail: string }>;
    return rows.map((r) => r.detail).join("\n");
  }
  return db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    const result = await trx.executeQuery<Record<string, string>>(
      CompiledQuery.raw(`EXPLAIN ${query.sql}`, [...query.parameters]),
    );
    return result.rows.map((r) => Object.values(r)[0]).join("\n");
  });
}

/** Steps that read a big table row by row, without an index. */
function fullScans(plan: string): string[] {
  return plan
    .split("\n")
    .filter((step) =>
      BIG_TABLES.some((table) =>
        onPostgres
          ? new RegExp(`Seq Scan on ${table}\\b`).test(step)
          : new RegExp(`^SCAN ${table}\\b`).test(step.replace(/^SCAN (\w+) AS \w+/, "SCAN $1")) &&
            !/USING (COVERING )?INDEX/.test(step),
      ),
    );
}

async function expectIndexed(run: (logged: DB) => Promise<unknown>) {
  const queries = (await queriesOf(run)).filter((q) => /^\s*(select|delete|update|insert)/i.test(q.sql));
  expect(queries.length).toBeGreaterThan(0);
  for (const query of queries) {
    if (/^\s*insert/i.test(query.sql) && !/select/i.test(query.sql)) continue;
    const plan = await planOf(query);
    expect({ sql: query.sql, scans: fullScans(plan) }).toEqual({ sql: query.sql, scans: [] });
  }
}

describe("hot figures read indexes, never a whole table", () => {
  it("the check sees a whole-table read when there is one", async () => {
    const query = db.selectFrom("random_requests").select("id").where("served_code", "=", "X").compile();
    expect(fullScans(await planOf(query))).toHaveLength(1);
  });

  it("available codes: one platform, every platform, /random, /platforms", async () => {
    const revolut = (await db.selectFrom("platforms").select("id").where("slug", "=", "revolut").executeTakeFirstOrThrow()).id;
    await expectIndexed((logged) => countAvailableCodes(revolut, now, logged));
    await expectIndexed((logged) => countAllAvailableCodes(now, logged));
    await expectIndexed((logged) => listActivePlatformsWithCounts(now, logged));
  });

  it("the counts of available codes read small ranges, never a walk over every code (decision 194)", async () => {
    if (onPostgres) return; // PostgreSQL picks its plans from statistics; the test above covers an index path.
    const revolut = (await db.selectFrom("platforms").select("id").where("slug", "=", "revolut").executeTakeFirstOrThrow()).id;
    for (const run of [
      (logged: DB) => countAvailableCodes(revolut, now, logged),
      (logged: DB) => countAllAvailableCodes(now, logged),
    ]) {
      const plans = await Promise.all((await queriesOf(run)).map(planOf));
      const codeSteps = plans.flatMap((plan) => plan.split("\n")).filter((step) => /\breferral_codes\b/.test(step));
      expect(codeSteps.length).toBeGreaterThan(0);
      // Every read of referral_codes is a SEARCH on an index (a range), none a SCAN of one.
      for (const step of codeSteps) expect(step).toMatch(/^SEARCH referral_codes USING (COVERING )?INDEX /);
      expect(plans.join("\n")).toMatch(/platform_code_counts/);
    }
    const plans = (await Promise.all((await queriesOf((logged) => countAvailableByPlatform(now, logged))).map(planOf))).join(
      "\n",
    );
    expect(plans).toMatch(/SEARCH referral_codes USING (COVERING )?INDEX referral_codes_expired_idx/);
    expect(plans).toMatch(/SEARCH referral_codes USING INDEX referral_codes_capped_idx/);
  });

  it("/fairness, the dashboard, the requests chart, the assistant's draws per day", async () => {
    await expectIndexed((logged) => listPlatformFairness({ page: { size: 12 } }, now, logged));
    await expectIndexed((logged) => getDashboardStats(now, logged));
    await expectIndexed((logged) => drawsPerDay(null, now, logged));
    await expectIndexed((logged) => drawsPerDay(1, now, logged));
    await expectIndexed((logged) => drawsPerDayByPlatform(60, now, null, logged));
  });

  it("success shares, a code's answers, the sitemap", async () => {
    const code = await db.selectFrom("code_reports").select("code_id").limit(1).executeTakeFirstOrThrow();
    await expectIndexed((logged) => platformAnswerStats(2, now, logged));
    await expectIndexed((logged) => codeAnswerSummary(code.code_id, logged));
    await expectIndexed((logged) => listSitemapPlatforms(logged));
  });

  it("the sitemap's newest suggestion: one step down the primary key, not a walk of an index of every suggestion", async () => {
    const queries = await queriesOf((logged) => latestDates(logged));
    const query = queries.find((q) => q.sql.includes("platform_suggestions"))!;
    const plan = await planOf(query);
    // max(created_at) read every suggestion's date (a whole index on PostgreSQL, the table on SQLite).
    expect(plan).toMatch(onPostgres ? /Index (Only )?Scan using platform_suggestions_pkey/ : /USING INTEGER PRIMARY KEY/);
    expect(plan).not.toMatch(/platform_suggestions_list_idx/);
  });

  it("the retention job's batches", async () => {
    await expectIndexed((logged) => rollUpNextDay(now, logged));
    await expectIndexed((logged) => pruneAnswers(now, 50, null, logged));
    await expectIndexed((logged) => pruneDraws(now, 50, null, logged));
    // A window further on in the walk, by the same index.
    const further = { at: new Date(now.getTime() - 200 * 86_400_000).toISOString(), id: 1 };
    await expectIndexed((logged) => pruneAnswers(now, 50, further, logged));
    await expectIndexed((logged) => pruneDraws(now, 50, further, logged));
    await expectIndexed((logged) => pruneOther(now, 50, logged));
    // And the whole job leaves a database the figures still read by index.
    await runHistoryJob({ now, db, pauseMs: 0 });
    await expectIndexed((logged) => listPlatformFairness({ page: { size: 12 } }, now, logged));
  }, 120_000);
});
