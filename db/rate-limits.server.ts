import { createRequire } from "node:module";
import type { RateLimiterAbstract, RateLimiterMemory, RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";
import { databaseUrl, dialectOf, getPgPool } from "./client.server";

// The package's index loads every store it supports (Redis, Mongo, DynamoDB, Prisma...), about
// 30 ms of each start-up: the classes used here are read from their own files (decision 241).
const fromLib = <T>(name: string): T => createRequire(import.meta.url)(`rate-limiter-flexible/lib/${name}.js`) as T;

/** Whether a rejected `consume` was a refusal (the window is full) rather than a failure. */
export function isRefusal(value: unknown): value is RateLimiterRes {
  return value instanceof Res;
}

// The memory store serves every SQLite start: its own files only, never the package's index.
const Memory = fromLib<typeof RateLimiterMemory>("RateLimiterMemory");
const Res = fromLib<typeof RateLimiterRes>("RateLimiterRes");

export interface LimiterSpec {
  /** Names the limiter; keys of different limiters never meet. */
  name: string;
  /** Allowed hits per window. */
  max: number;
  windowMs: number;
}

/**
 * Keys one in-memory limiter holds at most. Each costs about 150 bytes here (the library's own
 * store kept a timer per key: about 1 KB). Past the cap, expired windows go first, then the oldest
 * live one: a client that already holds this many addresses gains nothing by it (decision 202).
 */
const MAX_KEYS_PER_LIMITER = 10_000;

/**
 * A fixed-window limiter behind rate-limiter-flexible's one interface, with the store the database
 * calls for: in memory on SQLite (one process), in the `rate_limits` table on PostgreSQL so every
 * process counts the same windows (the library deletes expired rows every few minutes). If
 * PostgreSQL cannot be reached, each process falls back to its own memory (the library's insurance
 * limiter) rather than refusing or letting everything through. Memory stays bounded either way.
 */
export function createLimiter(spec: LimiterSpec): RateLimiterAbstract {
  const options = { keyPrefix: spec.name, points: spec.max, duration: Math.max(1, Math.ceil(spec.windowMs / 1000)) };
  if (dialectOf(databaseUrl()) !== "postgres") return new BoundedMemoryLimiter(options);
  const Postgres = fromLib<typeof RateLimiterPostgres>("RateLimiterPostgres");
  return new Postgres({
    ...options,
    storeClient: getPgPool(),
    storeType: "pool",
    tableName: "rate_limits",
    // Created by migration 0006, like every other table.
    tableCreated: true,
    insuranceLimiter: new BoundedMemoryLimiter(options),
  });
}

interface Window {
  value: number;
  expiresAt: number;
}

/**
 * The library's memory limiter over a store of our own: no timer per key, windows kept in the
 * order they started (all of one limiter last as long, so that is also the order they end in),
 * expired ones dropped from the front as new ones come, and at most `maxKeys` of them.
 */
class BoundedWindows {
  private readonly windows = new Map<string, Window>();
  constructor(private readonly maxKeys: number) {}

  incrby(key: string, value: number, durationSec: number): RateLimiterRes {
    const window = this.windows.get(key);
    const left = window ? window.expiresAt - Date.now() : 0;
    if (!window || left <= 0) return this.set(key, value, durationSec);
    window.value += value;
    return new Res(0, left, window.value, false);
  }

  set(key: string, value: number, durationSec: number): RateLimiterRes {
    const now = Date.now();
    // Deleted first so that the new window goes to the end of the order.
    this.windows.delete(key);
    for (const [oldest, window] of this.windows) {
      if (window.expiresAt > now && this.windows.size < this.maxKeys) break;
      this.windows.delete(oldest);
    }
    this.windows.set(key, { value, expiresAt: now + durationSec * 1000 });
    return new Res(0, durationSec * 1000, value, true);
  }

  get(key: string): RateLimiterRes | null {
    const window = this.windows.get(key);
    return window ? new Res(0, window.expiresAt - Date.now(), window.value, false) : null;
  }

  delete(key: string): boolean {
    return this.windows.delete(key);
  }
}

export class BoundedMemoryLimiter extends Memory {
  constructor(options: ConstructorParameters<typeof RateLimiterMemory>[0], maxKeys = MAX_KEYS_PER_LIMITER) {
    super(options);
    // The library reads and writes its windows only through these four methods of `_memoryStorage`.
    (this as unknown as { _memoryStorage: BoundedWindows })._memoryStorage = new BoundedWindows(maxKeys);
  }
}
