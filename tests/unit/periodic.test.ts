import { describe, expect, it } from "vitest";
import { startPeriodic } from "~/utils/periodic.server";

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A job's stop (decision 294): the shutdown closes the database after it, so it must wait for the
 * run under way, and tell that run to end at its next batch.
 */
describe("startPeriodic's stop", () => {
  it("aborts the run under way and resolves only once that run has ended; no run starts after it", async () => {
    const seen: string[] = [];
    let runs = 0;
    const stop = startPeriodic(
      "job",
      (line) => seen.push(line),
      { firstMs: 0, intervalMs: 5 },
      async (signal) => {
        runs++;
        // A job in batches: one batch after another until told to stop.
        while (!signal.aborted) await tick(2);
        await tick(30); // the batch under way when the stop came
        seen.push("batch ended");
      },
    );
    await expect.poll(() => runs).toBe(1);
    await stop();
    expect(seen).toEqual(["batch ended"]);
    await tick(30);
    expect(runs).toBe(1);
  });

  it("resolves at once with nothing running, and after a failed run has been logged", async () => {
    const seen: string[] = [];
    const stop = startPeriodic(
      "job",
      (line) => seen.push(line),
      { firstMs: 0, intervalMs: 60_000 },
      () => Promise.reject(new Error("disk full")),
    );
    await expect.poll(() => seen).toEqual(["[job] failed: disk full"]);
    await stop();
    const idle = startPeriodic(
      "idle",
      (line) => seen.push(line),
      { firstMs: 60_000, intervalMs: 60_000 },
      () => Promise.resolve(),
    );
    await idle();
    expect(seen).toEqual(["[job] failed: disk full"]);
  });
});
