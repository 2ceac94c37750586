import { afterEach, describe, expect, it } from "vitest";
import { getEnv, resetEnvCache, seedsDemo, sqlitePathFromUrl } from "~/utils/env.server";

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
  resetEnvCache();
});

describe("environment", () => {
  it("applies the documented defaults", () => {
    for (const key of ["PORT", "DATABASE_URL", "SITE_URL", "UPLOADS_DIR", "TRUST_PROXY"]) delete process.env[key];
    resetEnvCache();
    const env = getEnv();
    expect(env.PORT).toBe(3000);
    expect(env.DATABASE_URL).toBe("file:./data/app.db");
    expect(env.SITE_URL).toBe("http://localhost:3000");
    expect(env.UPLOADS_DIR).toBe("./data/uploads");
    expect(env.TRUST_PROXY).toBe(false);
    expect(env.RECAPTCHA_VERIFY_URL).toBe("https://www.google.com/recaptcha/api/siteverify");
  });

  it("refuses production without SESSION_SECRET", () => {
    process.env.NODE_ENV = "production";
    delete process.env.SESSION_SECRET;
    resetEnvCache();
    expect(() => getEnv()).toThrow(/SESSION_SECRET is required/);
  });

  it("explains a bad value", () => {
    process.env.PORT = "not-a-port";
    resetEnvCache();
    expect(() => getEnv()).toThrow(/PORT/);
  });

  it("trims a trailing slash from SITE_URL and reads TRUST_PROXY=1", () => {
    process.env.SITE_URL = "https://parrainly.example/";
    process.env.TRUST_PROXY = "1";
    resetEnvCache();
    expect(getEnv().SITE_URL).toBe("https://parrainly.example");
    expect(getEnv().TRUST_PROXY).toBe(true);
  });

  it("reads SQLite paths and refuses PostgreSQL until its dialect exists", () => {
    expect(sqlitePathFromUrl("file:./data/app.db")).toBe("./data/app.db");
    expect(sqlitePathFromUrl("/abs/app.db")).toBe("/abs/app.db");
    expect(() => sqlitePathFromUrl("postgres://u@h/db")).toThrow(/PostgreSQL/);
  });

  it("adds the demo data to a development start's new database only, unless SEED_DEMO says otherwise (decision 345)", () => {
    const at = (NODE_ENV: "development" | "production" | "test", SEED_DEMO?: boolean) => ({ NODE_ENV, SEED_DEMO });
    expect(seedsDemo(at("development"), true)).toBe(true);
    expect(seedsDemo(at("development"), false)).toBe(false);
    expect(seedsDemo(at("development", false), true)).toBe(false);
    expect(seedsDemo(at("production"), true)).toBe(false);
    expect(seedsDemo(at("test"), true)).toBe(false);
    expect(seedsDemo(at("production", true), false)).toBe(true);
    process.env.SEED_DEMO = "0";
    resetEnvCache();
    expect(getEnv().SEED_DEMO).toBe(false);
    delete process.env.SEED_DEMO;
    resetEnvCache();
    expect(getEnv().SEED_DEMO).toBeUndefined();
  });
});
