import { RateLimiterMemory, RateLimiterPostgres, type RateLimiterAbstract } from "rate-limiter-flexible";
import { databaseUrl, dialectOf, getPgPool } from "./client.server";

export interface LimiterSpec {
  /** Names the limiter; keys of different limiters never meet. */
  name: string;
  /** Allowed hits per window. */
  max: number;
  windowMs: number;
}

/**
 * A fixed-window limiter behind rate-limiter-flexible's one interface, with the store the database
 * calls for: in memory on SQLite (one process), in the `rate_limits` table on PostgreSQL so every
 * process counts the same windows. If PostgreSQL cannot be reached, each process falls back to its
 * own memory (the library's insurance limiter) rather than refusing or letting everything through.
 */
export function createLimiter(spec: LimiterSpec): RateLimiterAbstract {
  const options = { keyPrefix: spec.name, points: spec.max, duration: Math.max(1, Math.ceil(spec.windowMs / 1000)) };
  if (dialectOf(databaseUrl()) !== "postgres") return new RateLimiterMemory(options);
  return new RateLimiterPostgres({
    ...options,
    storeClient: getPgPool(),
    storeType: "pool",
    tableName: "rate_limits",
    // Created by migration 0006, like every other table.
    tableCreated: true,
    insuranceLimiter: new RateLimiterMemory(options),
  });
}
