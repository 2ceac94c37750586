import { describe, expect, it, vi } from "vitest";
import { BoundedMemoryLimiter } from "~db/rate-limits.server";

describe("in-memory rate limits stay bounded", () => {
  it("counts and refuses like the library's limiter", async () => {
    const limiter = new BoundedMemoryLimiter({ keyPrefix: "t", points: 3, duration: 60 });
    for (let i = 0; i < 3; i++) await limiter.consume("a");
    await expect(limiter.consume("a")).rejects.toMatchObject({ consumedPoints: 4 });
    await limiter.reward("a", 2);
    expect((await limiter.get("a"))?.consumedPoints).toBe(2);
    await limiter.delete("a");
    expect(await limiter.get("a")).toBeNull();
  });

  it("holds at most its cap of keys: the oldest window goes first, the newest are still counted", async () => {
    const limiter = new BoundedMemoryLimiter({ keyPrefix: "t", points: 1, duration: 60 }, 100);
    for (let i = 0; i < 1_000; i++) await limiter.consume(`k${i}`);
    expect(await limiter.get("k0")).toBeNull();
    expect(await limiter.get("k899")).toBeNull();
    expect((await limiter.get("k900"))?.consumedPoints).toBe(1);
    await expect(limiter.consume("k999")).rejects.toMatchObject({ consumedPoints: 2 });
  });

  it("serves as the PostgreSQL limiter's insurance (the library accepts it)", async () => {
    const { RateLimiterPostgres } = await import("rate-limiter-flexible");
    const insurance = new BoundedMemoryLimiter({ keyPrefix: "t", points: 1, duration: 60 });
    const pg = new RateLimiterPostgres(
      { storeClient: {}, storeType: "pool", tableCreated: true, points: 1, duration: 60, insuranceLimiter: insurance },
      () => {},
    );
    expect((pg as unknown as { insuranceLimiter: unknown }).insuranceLimiter).toBe(insurance);
  });

  it("drops expired windows as new ones come", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const limiter = new BoundedMemoryLimiter({ keyPrefix: "t", points: 1, duration: 1 }, 100);
    await limiter.consume("old");
    vi.setSystemTime(Date.now() + 1_001);
    await limiter.consume("new");
    expect(await limiter.get("old")).toBeNull();
    expect((await limiter.get("new"))?.consumedPoints).toBe(1);
    // A new window for the old key starts from nothing.
    expect((await limiter.consume("old")).consumedPoints).toBe(1);
    vi.useRealTimers();
  });
});
