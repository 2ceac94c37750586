import { describe, expect, it } from "vitest";
import { nextDayStartIso, parisDayStarts, startOfDayIso } from "~db/time";

/** The list as it was built before it was remembered: one formatter call per day. */
function direct(days: number, now: Date): string[] {
  const starts = [startOfDayIso(now)];
  while (starts.length < days) starts.unshift(startOfDayIso(new Date(Date.parse(starts[0]!) - 3_600_000)));
  return starts;
}

describe("parisDayStarts (remembered for the day)", () => {
  it("equals the direct computation hour by hour across both DST changes", () => {
    // Every hour from 2026-03-26 to 2026-04-02 and 2026-10-22 to 2026-10-29 (clocks change on the 29th and 25th).
    for (const from of ["2026-03-26T00:30:00Z", "2026-10-22T00:30:00Z"]) {
      for (let h = 0; h < 24 * 7; h++) {
        const now = new Date(Date.parse(from) + h * 3_600_000);
        for (const days of [1, 7, 30])
          expect(parisDayStarts(days, now), `${now.toISOString()} ${days}`).toEqual(direct(days, now));
      }
    }
  });

  it("moves to the next day exactly at Paris midnight, and back for an older instant", () => {
    const start = startOfDayIso(new Date("2026-06-10T12:00:00Z"));
    const next = nextDayStartIso(start);
    expect(parisDayStarts(2, new Date(Date.parse(next) - 1)).at(-1)).toBe(start);
    expect(parisDayStarts(2, new Date(next)).at(-1)).toBe(next);
    expect(parisDayStarts(2, new Date(Date.parse(next) - 1)).at(-1)).toBe(start);
  });

  it("hands each caller its own array", () => {
    const now = new Date("2026-06-10T12:00:00Z");
    const first = parisDayStarts(3, now);
    first.pop();
    expect(parisDayStarts(3, now)).toHaveLength(3);
  });
});
