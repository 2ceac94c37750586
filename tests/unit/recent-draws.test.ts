import { describe, expect, it } from "vitest";
import { RecentDraws } from "../../server/recent-draws";

describe("recent draws (the result pages that wait ahead under overload)", () => {
  it("knows a draw's token for its minute, and nothing else", () => {
    const draws = new RecentDraws(60_000, 10);
    draws.note("/holy/get-code?draw=12.abcdefghijklmnopqrstuv", 1_000);
    expect(draws.has("12.abcdefghijklmnopqrstuv", 1_000)).toBe(true);
    expect(draws.has("12.abcdefghijklmnopqrstuv", 60_999)).toBe(true);
    expect(draws.has("12.abcdefghijklmnopqrstuv", 61_000)).toBe(false);
    expect(draws.has("13.abcdefghijklmnopqrstuv", 1_000)).toBe(false);
    expect(draws.has(["12.abcdefghijklmnopqrstuv"], 1_000)).toBe(false);
    expect(draws.has(undefined, 1_000)).toBe(false);
  });

  it("ignores addresses without a draw (nothing drawn)", () => {
    const draws = new RecentDraws();
    draws.note(null);
    draws.note("/holy/get-code");
    expect(draws.size).toBe(0);
  });

  it("is bounded: the expired and then the oldest go first", () => {
    const draws = new RecentDraws(1_000, 3);
    for (let i = 1; i <= 5; i++) draws.note(`/random?draw=${i}.x`, i);
    expect(draws.size).toBe(3);
    expect(draws.has("1.x", 5)).toBe(false);
    expect(draws.has("5.x", 5)).toBe(true);
    draws.note("/random?draw=9.x", 2_000);
    expect(draws.size).toBe(1);
  });

  it("counts the draws answered whose result page has not come yet, for a moment only", () => {
    const draws = new RecentDraws(60_000, 10, 2_000);
    draws.note("/holy/get-code?draw=1.a", 0);
    draws.note("/holy/get-code?draw=2.b", 100);
    expect(draws.owedCount(100)).toBe(2);
    draws.arrived("1.a");
    expect(draws.owedCount(100)).toBe(1);
    // A draw never followed weighs 2 s, its token stays known for its minute.
    expect(draws.owedCount(2_100)).toBe(0);
    expect(draws.has("2.b", 2_100)).toBe(true);
  });
});
