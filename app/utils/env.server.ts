import { z } from "zod";

const booleanFlag = z
  .enum(["0", "1", "true", "false", ""])
  .optional()
  .transform((v) => v === "1" || v === "true");

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATABASE_URL: z.string().min(1).default("file:./data/app.db"),
  /**
   * A PostgreSQL streaming replica of DATABASE_URL: the public pages' reads that tolerate a second's
   * lag go there while it keeps up (decision 368); unset, every read goes to DATABASE_URL.
   */
  DATABASE_READ_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//i, "must be a postgres:// URL (a replica of the PostgreSQL DATABASE_URL)")
    .optional(),
  SESSION_SECRET: z.string().min(1).optional(),
  SITE_URL: z.string().url().optional(),
  ADMIN_EMAIL: z.string().email().optional(),
  ADMIN_PASSWORD: z.string().min(1).optional(),
  RECAPTCHA_SECRET_KEY: z.string().min(1).optional(),
  RECAPTCHA_VERIFY_URL: z.string().url().default("https://www.google.com/recaptcha/api/siteverify"),
  ANTHROPIC_API_KEY: z.string().optional(),
  ANTHROPIC_BASE_URL: z.string().url().optional(),
  ANTHROPIC_MODEL: z.string().optional(),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: z.string().url().optional(),
  OPENAI_MODEL: z.string().optional(),
  AI_DAILY_TOKEN_BUDGET: z.coerce.number().int().min(0).default(200_000),
  /** How long one call to the assistant's provider may take (the tests shorten it). */
  AI_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
  UPLOADS_DIR: z.string().min(1).default("./data/uploads"),
  TRUST_PROXY: booleanFlag,
  /**
   * Demo data: `1` adds it at every start, `0` never; unset, a development start (NODE_ENV not
   * production or test) adds it to a database it has just created (decision 345).
   */
  SEED_DEMO: z
    .enum(["0", "1", "true", "false"])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === "1" || v === "true")),
  LOG_REQUESTS: z.enum(["0", "1"]).optional(),
  BACKUP_DIR: z.string().min(1).optional(),
  BACKUP_KEEP: z.coerce.number().int().min(1).max(10_000).default(48),
  BACKUP_INTERVAL_SECONDS: z.coerce.number().int().min(1).default(3600),
  /** The backups together take at most this many megabytes (besides the volume's own reserve, decision 281). */
  BACKUP_MAX_MB: z.coerce.number().positive().optional(),
  /**
   * Seconds between two runs of each background job (clean-up, history, retention, platform
   * deletions); unset: each job's own (an hour; platform deletions a minute). The tests shorten it.
   */
  JOB_INTERVAL_SECONDS: z.coerce.number().int().min(1).optional(),
  /** scrypt's N exponent for new password hashes; unset: 14 (OWASP's). Test servers lower it; a start below 14 says so (decision 399). */
  PASSWORD_HASH_COST: z.coerce.number().int().min(10).max(20).optional(),
  /** `1`: log each background job run this process leads (start and end) and each one it skips (decision 367). */
  LOG_JOB_RUNS: booleanFlag,
  /** How long an admin's platform delete waits for its rows to go before it answers that the rest goes on in the background (decision 292). */
  PLATFORM_DELETE_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(2_000),
  /** Draws one address may make in 10 minutes (0: no limit; benchmarks), decision 298. */
  DRAW_RATE_LIMIT: z.coerce.number().int().min(0).default(300),
  /** Draws per IPv6 /64 per day (the /48 gets twice as many, an IPv4 /24 ten times); 0: off (issue 55, decision 312). */
  DRAW_DAILY_LIMIT: z.coerce.number().int().min(0).default(20),
  /** Draws a day per IPv6 /64 before each draw needs a browser proof (the /48 twice, an IPv4 /24 ten times); 0: off (decision 350). */
  DRAW_SOFT_LIMIT: z.coerce.number().int().min(0).default(3),
  /** `host:port,host:port` the sitemap audit may fetch although private (tests only). */
  AUDIT_ALLOWED_HOSTS: z.string().optional(),
  /** Start with an empty database although one existed at DATABASE_URL's path (its marker or backups say so). */
  DATABASE_START_FRESH: booleanFlag,
});

export type Env = z.infer<typeof envSchema> & { SESSION_SECRET: string; SITE_URL: string };

const DEV_SECRET = "parrainly-dev-only-secret-change-me";
let cached: Env | undefined;
let warned = false;

/** Reads and checks process.env once; throws a readable error on bad configuration. */
export function getEnv(): Env {
  if (cached) return cached;
  // Empty strings mean "unset" (a common way to blank a variable in fly.toml or a shell).
  const raw = Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== ""));
  const parsed = envSchema.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join("\n")}`);
  }
  const env = parsed.data;
  if (!env.SESSION_SECRET) {
    if (env.NODE_ENV === "production") {
      throw new Error("SESSION_SECRET is required when NODE_ENV=production. Refusing to start.");
    }
    if (!warned && env.NODE_ENV !== "test") {
      warned = true;
      console.warn("⚠️  SESSION_SECRET is not set: using an insecure development secret. Never do this in production.");
    }
  }
  cached = {
    ...env,
    SESSION_SECRET: env.SESSION_SECRET ?? DEV_SECRET,
    SITE_URL: (env.SITE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ""),
  };
  return cached;
}

/** Tests change process.env between runs. */
export function resetEnvCache() {
  cached = undefined;
}

/**
 * Whether this start adds the demo data: asked for (SEED_DEMO=1), or a development start on the
 * database it has just created, unless SEED_DEMO=0. Production never does it unasked.
 */
export function seedsDemo(env: Pick<Env, "SEED_DEMO" | "NODE_ENV">, freshDatabase: boolean): boolean {
  return env.SEED_DEMO ?? (freshDatabase && env.NODE_ENV === "development");
}

/** The SQLite file path behind DATABASE_URL (`file:./x.db`, `sqlite:x.db` or a bare path). */
export function sqlitePathFromUrl(url: string): string {
  if (/^postgres(ql)?:\/\//.test(url)) {
    throw new Error("DATABASE_URL points at PostgreSQL: this works on a SQLite file only (see docs/operations.md, PostgreSQL).");
  }
  return url.replace(/^file:(\/\/)?/, "").replace(/^sqlite:(\/\/)?/, "");
}
