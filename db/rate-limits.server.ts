import { createRequire } from "node:module";
import type { RateLimiterAbstract, RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";
import { databaseUrl, dialectOf, getPgPool } from "./client.server";

// The package's index loads every store it supports (Redis, Mongo, DynamoDB, Prisma...), about
// 30 ms of each start-up: the classes used here are read from their own files when first needed
// (decision 241).
const fromLib = <T>(name: string): T => createRequire(import.meta.url)(`rate-limiter-flexible/lib/${name}.js`) as T;

/** Whether a rejected `consume` was a refusal (the window is full) rather than a failure. */
export function isRefusal(value: unknown): value is RateLimiterRes {
  return value instanceof fromLib<typeof RateLimiterRes>("RateLimiterRes");
}

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
  const Memory = fromLib<typeof RateLimiterMemory>("RateLimiterMemory");
  if (dialectOf(databaseUrl()) !== "postgres") return new Memory(options);
  const Postgres = fromLib<typeof RateLimiterPostgres>("RateLimiterPostgres");
  return new Postgres({
    ...options,
    storeClient: getPgPool(),
    storeType: "pool",
    tableName: "rate_limits",
    // Created by migration 0006, like every other table.
    tableCreated: true,
    insuranceLimiter: new Memory(options),
  });
}
