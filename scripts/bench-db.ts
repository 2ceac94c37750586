// The draw benchmarks' shared pieces: a fresh, migrated database (SQLite file or PostgreSQL URL) with
// one platform ("bench") and `codes` permanent codes, the tally that checks a run stayed fair, and
// the draw form's post.
import http from "node:http";
import { closeDb, getDb, type DB } from "~db/client.server";
import { migrateToLatest } from "~db/migrate.server";
import { resetEnvCache } from "~/utils/env.server";

export const BENCH_SLUG = "bench";

export async function prepareBenchDatabase(databaseUrl: string, codes: number): Promise<{ db: DB; platformId: number }> {
  await closeDb();
  process.env.DATABASE_URL = databaseUrl;
  resetEnvCache();
  const db = getDb();
  await migrateToLatest(db);
  const created = new Date().toISOString();
  const platform = await db
    .insertInto("platforms")
    .values({
      name: "Bench",
      slug: BENCH_SLUG,
      gradient_from: "#3b82f6",
      gradient_to: "#8b5cf6",
      hosts: "bench.example",
      referral_url_template: "https://bench.example/r/{code}",
      created_at: created,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db
    .insertInto("referral_codes")
    .values(
      Array.from({ length: codes }, (_, i) => ({
        platform_id: platform.id,
        code: `BENCH${String(i).padStart(4, "0")}`,
        is_permanent: 1,
        created_at: created,
      })),
    )
    .execute();
  return { db, platformId: platform.id };
}

/** Spread of the bench codes' serves (max - min), their total, and the draw log's row count. */
export async function drawTally(db: DB): Promise<{ spread: number; served: number; logged: number }> {
  const rows = await db
    .selectFrom("referral_codes")
    .innerJoin("platforms", "platforms.id", "referral_codes.platform_id")
    .select("referral_codes.times_served")
    .where("platforms.slug", "=", BENCH_SLUG)
    .execute();
  const counts = rows.map((r) => r.times_served);
  const logged = await db
    .selectFrom("random_requests")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return {
    spread: Math.max(...counts) - Math.min(...counts),
    served: counts.reduce((a, b) => a + b, 0),
    logged: Number(logged.n),
  };
}

/** What a browser without JavaScript accepts. */
export const HTML = "text/html,application/xhtml+xml,*/*;q=0.8";

/** One draw form post (`intent=draw`, same origin); resolves its status, 0 on a network error. */
export function postDraw(agent: http.Agent, port: number, target: string, accept = HTML): Promise<number> {
  const body = "intent=draw";
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        path: target,
        method: "POST",
        agent,
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          "Content-Length": Buffer.byteLength(body),
          Origin: `http://127.0.0.1:${port}`,
          Accept: accept,
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", () => resolve(0));
    req.end(body);
  });
}
