import { LRUCache } from "lru-cache";
import { RateLimiterCompatibleAbstract, RateLimiterPostgres, RateLimiterRes, type RateLimiterLike } from "rate-limiter-flexible";
import { databaseUrl, dialectOf, getPgPool } from "./client.server";

/** Whether a rejected `consume` was a refusal (the window is full) rather than a failure. */
export function isRefusal(value: unknown): value is RateLimiterRes {
  return value instanceof RateLimiterRes;
}

export interface LimiterSpec {
  /** Names the limiter; keys of different limiters never meet. */
  name: string;
  /** Allowed hits per window. */
  max: number;
  windowMs: number;
}

/**
 * Keys one in-memory limiter holds at most. Past the cap the least recently counted window goes
 * first: a client that already holds this many addresses gains nothing by it (decision 202).
 */
const MAX_KEYS_PER_LIMITER = 10_000;

/**
 * A fixed-window limiter behind rate-limiter-flexible's one interface, with the store the database
 * calls for: in memory on SQLite (one process), in the `rate_limits` table on PostgreSQL so every
 * process counts the same windows (the library deletes expired rows every few minutes). If
 * PostgreSQL cannot be reached, each process falls back to its own memory (the library's insurance
 * limiter) rather than refusing or letting everything through. Memory stays bounded either way.
 */
export function createLimiter(spec: LimiterSpec): RateLimiterLike {
  const options = { keyPrefix: spec.name, points: spec.max, duration: Math.max(1, Math.ceil(spec.windowMs / 1000)) };
  const memory = new BoundedMemoryLimiter(options, MAX_KEYS_PER_LIMITER, { shared: false });
  return sharedStore(options, memory) ?? memory;
}

type LimiterOptions = { keyPrefix: string; points: number; duration: number };

/** On PostgreSQL, the windows in the `rate_limits` table, with `insurance` while it cannot be reached; else null. */
function sharedStore(options: LimiterOptions, insurance: BoundedMemoryLimiter): RateLimiterPostgres | null {
  if (dialectOf(databaseUrl()) !== "postgres") return null;
  return new RateLimiterPostgres({
    ...options,
    storeClient: getPgPool(),
    storeType: "pool",
    tableName: "rate_limits",
    // Created by migration 0006, like every other table.
    tableCreated: true,
    insuranceLimiter: insurance,
  });
}

interface Window {
  points: number;
  expiresAt: number;
}

/**
 * rate-limiter-flexible's limiter interface (`RateLimiterCompatibleAbstract`, the library's documented
 * base for limiters of one's own) over an lru-cache store with a cap and a time to live.
 *
 * On PostgreSQL (unless `shared: false`) it counts in the `rate_limits` table instead, as
 * createLimiter's limiters do, with its memory as the insurance: the site's processes share one
 * count, so a limit holds whatever the number of VMs (the draws' limits, decision 366).
 * Hand-written beside the library's own `RateLimiterMemory` because that one keeps a timer per key
 * and has no cap (about 1 KB a key, unbounded: 30,000 IPv6 /64s took the server past 200 MB).
 * Fixed windows, as the library's: a window starts at its first hit and lasts `duration` seconds.
 */
export class BoundedMemoryLimiter extends RateLimiterCompatibleAbstract {
  override readonly keyPrefix: string;
  override blockDuration = 0;
  override execEvenly = false;
  readonly points: number;
  private readonly msDuration: number;
  private readonly windows: LRUCache<string, Window>;
  private readonly shared: RateLimiterPostgres | null;

  constructor(options: LimiterOptions, maxKeys = MAX_KEYS_PER_LIMITER, { shared = true }: { shared?: boolean } = {}) {
    super();
    this.keyPrefix = options.keyPrefix;
    this.points = options.points;
    this.msDuration = options.duration * 1000;
    this.windows = new LRUCache<string, Window>({ max: maxKeys, ttl: this.msDuration, ttlAutopurge: false });
    this.shared = shared ? sharedStore(options, new BoundedMemoryLimiter(options, maxKeys, { shared: false })) : null;
  }

  private getKey(key: string | number): string {
    return `${this.keyPrefix}:${key}`;
  }

  /** The key's window if it has not ended (the cache's own clock may not have dropped it yet). */
  private live(id: string, now: number): Window | undefined {
    const window = this.windows.get(id);
    if (window && window.expiresAt <= now) {
      this.windows.delete(id);
      return undefined;
    }
    return window;
  }

  private add(key: string | number, points: number): RateLimiterRes {
    const id = this.getKey(key);
    const now = Date.now();
    let window = this.live(id, now);
    const isFirst = !window;
    if (!window) this.windows.set(id, (window = { points: 0, expiresAt: now + this.msDuration }));
    window.points += points;
    const remaining = Math.max(this.points - window.points, 0);
    return new RateLimiterRes(remaining, window.expiresAt - now, window.points, isFirst);
  }

  override consume(key: string | number, pointsToConsume = 1): Promise<RateLimiterRes> {
    if (this.shared) return this.shared.consume(key, pointsToConsume);
    const res = this.add(key, pointsToConsume);
    return res.consumedPoints > this.points ? Promise.reject(res) : Promise.resolve(res);
  }

  override penalty(key: string | number, points = 1): Promise<RateLimiterRes> {
    if (this.shared) return this.shared.penalty(key, points);
    return Promise.resolve(this.add(key, points));
  }

  override reward(key: string | number, points = 1): Promise<RateLimiterRes> {
    if (this.shared) return this.shared.reward(key, points);
    return Promise.resolve(this.add(key, -points));
  }

  override get(key: string | number): Promise<RateLimiterRes | null> {
    if (this.shared) return this.shared.get(key);
    const window = this.live(this.getKey(key), Date.now());
    if (!window) return Promise.resolve(null);
    const remaining = Math.max(this.points - window.points, 0);
    return Promise.resolve(new RateLimiterRes(remaining, window.expiresAt - Date.now(), window.points, false));
  }

  override set(key: string | number, points: number, secDuration: number): Promise<RateLimiterRes> {
    if (this.shared) return this.shared.set(key, points, secDuration);
    const ms = secDuration > 0 ? secDuration * 1000 : this.msDuration;
    this.windows.set(this.getKey(key), { points, expiresAt: Date.now() + ms }, { ttl: ms });
    return Promise.resolve(new RateLimiterRes(Math.max(this.points - points, 0), ms, points, true));
  }

  override block(key: string | number, secDuration: number): Promise<RateLimiterRes> {
    if (this.shared) return this.shared.block(key, secDuration);
    return this.set(key, this.points + 1, secDuration);
  }

  override delete(key: string | number): Promise<boolean> {
    if (this.shared) return this.shared.delete(key);
    return Promise.resolve(this.windows.delete(this.getKey(key)));
  }
}
