import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createConstellation, forEachLink, stepConstellation } from "~/features/game/constellation";
import {
  advance,
  checkCollections,
  collectAt,
  COLLECT_RADIUS,
  countdownLeft,
  countLinks,
  countTap,
  deviceTypeForWidth,
  FIRST_SPAWN,
  IDLE,
  isPlausibleScore,
  linkLevel,
  MAX_SCORE,
  maxOrbs,
  NO_TAPS,
  recordCollection,
  RULES,
  spawnTimes,
  startCountdown,
  startPlaying,
  timeLeftSeconds,
  type GameState,
  type TapCounter,
} from "~/features/game/rules";

const FIELD = { width: 400, height: 700 };
/** A seeded generator, so a failing case replays. */
function seeded(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

function tapAll(taps: Array<[number, number, number]>) {
  let counter: TapCounter = NO_TAPS;
  const levels: string[] = [];
  for (const [x, y, t] of taps) {
    const r = countTap(counter, { x, y, t });
    counter = r.counter;
    levels.push(r.level);
  }
  return { counter, levels };
}

describe("triggers", () => {
  it("mobile: a hint at the 8th tap near the same spot, the start at the 10th", () => {
    const taps = Array.from({ length: 10 }, (_, i) => [100 + i, 200, i * 300] as [number, number, number]);
    const { levels, counter } = tapAll(taps);
    expect(levels).toEqual(["none", "none", "none", "none", "none", "none", "none", "hint", "hint", "start"]);
    expect(counter).toEqual(NO_TAPS);
  });

  it("a tap more than 50 px away starts the count again at 1", () => {
    const near = Array.from({ length: 7 }, (_, i) => [100, 200, i * 100] as [number, number, number]);
    const { counter } = tapAll([...near, [151, 200, 800]]);
    expect(counter.count).toBe(1);
    expect(tapAll([...near, [150, 200, 800]]).counter.count).toBe(8); // exactly 50 px still counts
  });

  it("a tap more than 5 s after the previous one starts the count again at 1", () => {
    const near = Array.from({ length: 9 }, (_, i) => [100, 200, i * 100] as [number, number, number]);
    expect(tapAll([...near, [100, 200, 800 + 5_001]]).counter.count).toBe(1);
    expect(tapAll([...near, [100, 200, 800 + 5_000]]).levels.at(-1)).toBe("start");
  });

  it("desktop: a hint at 18 links visible at once, the start at 20", () => {
    expect([0, 17, 18, 19, 20, 40].map(linkLevel)).toEqual(["none", "none", "hint", "hint", "start", "start"]);
  });

  it("desktop: 20 links must stay visible for 1 s; a break starts the wait again", () => {
    let r = countLinks(null, 20, 0);
    expect(r.level).toBe("hint");
    r = countLinks(r.hold, 21, 999);
    expect(r.level).toBe("hint");
    expect(countLinks(countLinks(r.hold, 19, 500).hold, 20, 1_000).level).toBe("hint");
    expect(countLinks(r.hold, 20, 1_000)).toEqual({ hold: null, level: "start" });
    expect(countLinks(null, 17, 0)).toEqual({ hold: null, level: "none" });
  });

  it("the mobile game is the one below 768 px", () => {
    expect(deviceTypeForWidth(767)).toBe("mobile");
    expect(deviceTypeForWidth(768)).toBe("desktop");
  });
});

describe("state machine", () => {
  const random = seeded(7);

  it("countdown 3-2-1, then 60 s of play from score 0, then finished", () => {
    let s: GameState = startCountdown(1_000);
    expect(s.phase).toBe("countdown");
    expect(countdownLeft(s, 1_000)).toBe(3);
    expect(countdownLeft(s, 2_500)).toBe(2);
    expect(countdownLeft(s, 3_999)).toBe(1);
    s = advance(s, 3_999, FIELD, random);
    expect(s.phase).toBe("countdown");
    s = advance(s, 4_016, FIELD, random);
    expect(s.phase).toBe("playing");
    expect(s.phaseStartedAt).toBe(4_000); // play starts exactly 3 s later, whatever the frame time
    expect(s.score).toBe(0);
    expect(timeLeftSeconds(s, 4_016)).toBe(60);
    expect(timeLeftSeconds(s, 4_000 + 59_001)).toBe(1);
    s = advance(s, 4_000 + 59_999, FIELD, random);
    expect(s.phase).toBe("playing");
    s = advance(s, 4_000 + 60_000, FIELD, random);
    expect(s.phase).toBe("finished");
    expect(s.orbs).toEqual([]);
    expect(timeLeftSeconds(s, 70_000)).toBe(0);
  });

  it("idle and finished do not move by themselves; closing goes back to idle", () => {
    expect(advance(IDLE, 99_999, FIELD, random)).toBe(IDLE);
    const done = { ...startPlaying(0), phase: "finished" as const };
    expect(advance(done, 99_999, FIELD, random)).toBe(done);
  });

  it("orbs: first at once, then every 800 ms, each living 5 s, about 4 at most", () => {
    let s = startPlaying(0);
    s = advance(s, 0, FIELD, () => 0.5);
    expect(s.orbs.map((o) => o.bornAt)).toEqual([0]);
    s = advance(s, 2_400, FIELD, () => 0.5);
    expect(s.orbs.map((o) => o.bornAt)).toEqual([0, 800, 1_600, 2_400]);
    // A fifth only by chance (the random draw under 10 %), never more than six.
    expect(advance(s, 3_200, FIELD, () => 0.5).orbs).toHaveLength(4);
    expect(advance(s, 3_200, FIELD, () => 0.05).orbs).toHaveLength(5);
    expect(advance(s, 8_000, FIELD, () => 0.05).orbs.length).toBeLessThanOrEqual(RULES.orbHardCap);
    // Orbs born at 0 and 800 are gone at 5 000 and 5 800.
    const later = advance(s, 5_000, FIELD, () => 0.5);
    expect(later.orbs.some((o) => o.bornAt === 0)).toBe(false);
  });

  it("collection: within size + 10 px, 10 points each, not beyond the radius", () => {
    let s = advance(startPlaying(0), 0, FIELD, () => 0.5);
    const orb = s.orbs[0]!;
    const missed = collectAt(s, 10, orb.x + COLLECT_RADIUS + 0.5, orb.y, FIELD, () => 0.5);
    expect(missed.score).toBe(0);
    s = collectAt(s, 10, orb.x + COLLECT_RADIUS, orb.y, FIELD, () => 0.5);
    expect(s.score).toBe(10);
    expect(s.orbs).toHaveLength(0);
    expect(s.collectedAt).toEqual([10]);
  });
});

describe("spawn schedule", () => {
  it("starts at 800 ms and drops by 50 ms only for quick collections after more than 3", () => {
    let s = FIRST_SPAWN;
    for (const t of [100, 200, 300]) s = recordCollection(s, t);
    expect(s.intervalMs).toBe(800); // three quick ones: not yet
    s = recordCollection(s, 400);
    expect(s.intervalMs).toBe(750); // the fourth, 100 ms after the third
    s = recordCollection(s, 1_400);
    expect(s.intervalMs).toBe(750); // exactly 1 s apart is not quick
    s = recordCollection(s, 2_399);
    expect(s.intervalMs).toBe(700);
    for (let i = 0; i < 50; i++) s = recordCollection(s, 3_000 + i);
    expect(s.intervalMs).toBe(300); // floor
  });

  it("no collection: a spawn every 800 ms", () => {
    const times = spawnTimes([]);
    expect(times.slice(0, 4)).toEqual([0, 800, 1_600, 2_400]);
    expect(times).toHaveLength(75);
  });

  it("the engine spawns exactly what the replay of its collections predicts, at any frame rate", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 }), fc.integer({ min: 4, max: 120 }), (seed, frameMs) => {
        const random = seeded(seed);
        const player = seeded(seed + 1);
        let s = startPlaying(0);
        const born: number[] = [];
        for (let now = 0; now <= RULES.durationMs; now += frameMs) {
          s = advance(s, now, FIELD, random);
          for (const o of s.orbs) if (!born.includes(o.bornAt)) born.push(o.bornAt);
          if (s.phase !== "playing") break;
          const target = s.orbs[Math.floor(player() * s.orbs.length)];
          if (target && player() < 0.6) s = collectAt(s, now + player() * frameMs, target.x, target.y, FIELD, random);
        }
        s = advance(s, RULES.durationMs, FIELD, random);
        const predicted = spawnTimes(s.collectedAt);
        // Every orb that appeared was born at a predicted spawn (the cap may skip some).
        expect(born.every((t) => predicted.includes(t))).toBe(true);
        expect(checkCollections(s.collectedAt, s.score)).toEqual({ ok: true });
        expect(s.score).toBeLessThanOrEqual(MAX_SCORE);
      }),
      { numRuns: 60 },
    );
  });
});

describe("score bound", () => {
  it("is derived from the rules: every orb taken the instant it appears", () => {
    // By hand: the interval after a spawn counts the orbs taken before it, so the fourth quick
    // collection (taken at 2 400) first shortens the gap after the fifth spawn (3 200): 750 ms, then
    // 50 ms less each time down to 300 ms.
    const perfect: number[] = [];
    let t = 0;
    let interval = 800;
    let n = 0;
    while (t < 60_000) {
      perfect.push(t);
      n++;
      if (n - 1 > 3) interval = Math.max(300, interval - 50);
      t += interval;
    }
    expect(maxOrbs()).toBe(perfect.length);
    expect(MAX_SCORE).toBe(perfect.length * 10);
    expect(MAX_SCORE).toBe(1860);
    expect(checkCollections(spawnTimes(perfect), MAX_SCORE)).toEqual({ ok: true });
  });

  it("no strategy beats it (random players, collecting whenever they like)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 }), fc.double({ min: 0, max: 1, noNaN: true }), (seed, eagerness) => {
        const random = seeded(seed);
        let s = startPlaying(0);
        for (let now = 0; now <= RULES.durationMs; now += 1) {
          s = advance(s, now, FIELD, random);
          if (s.phase !== "playing") break;
          for (const o of s.orbs) if (random() < eagerness) s = collectAt(s, now, o.x, o.y, FIELD, random);
        }
        expect(s.score).toBeLessThanOrEqual(MAX_SCORE);
      }),
      { numRuns: 25 },
    );
  });

  it("plausible scores: whole multiples of 10 from 0 to the bound", () => {
    expect([0, 10, MAX_SCORE].every(isPlausibleScore)).toBe(true);
    expect([-10, 5, MAX_SCORE + 10, 10.5, Number.NaN].some(isPlausibleScore)).toBe(false);
  });

  it("collection times that no game could produce are refused", () => {
    expect(checkCollections([0, 800], 30)).toEqual({ ok: false, reason: "count" });
    expect(checkCollections([0, 60_000], 20)).toEqual({ ok: false, reason: "range" });
    expect(checkCollections([900, 800], 20)).toEqual({ ok: false, reason: "order" });
    expect(checkCollections([0.5], 10)).toEqual({ ok: false, reason: "range" });
    // Two orbs before the second one exists.
    expect(checkCollections([0, 10], 20)).toEqual({ ok: false, reason: "schedule" });
    // An orb taken after it faded (the only one born at 0, 5 s later): the others are still there.
    expect(checkCollections([5_000], 10)).toEqual({ ok: true });
    expect(checkCollections([0, 799, 1_599], 30)).toEqual({ ok: false, reason: "schedule" });
    // Many quick taps at the very end: more than the spawns alive.
    expect(
      checkCollections(
        Array.from({ length: 12 }, () => 59_999),
        120,
      ),
    ).toEqual({ ok: false, reason: "schedule" });
  });
});

describe("constellation", () => {
  it("stays in its field and pulls stars towards the pointer until 20 links show around it", () => {
    const field = { width: 1280, height: 720 };
    const c = createConstellation(field, seeded(3));
    const pointer = { x: 640, y: 360 };
    const before = forEachLink(c, pointer, null);
    let after = before;
    for (let i = 0; i < 60 * 60 && after < 20; i++) {
      stepConstellation(c, 16, field, pointer);
      after = forEachLink(c, pointer, null);
    }
    expect(after).toBeGreaterThanOrEqual(20);
    for (let i = 0; i < c.count; i++) {
      expect(c.data[i * 4]).toBeGreaterThanOrEqual(0);
      expect(c.data[i * 4]).toBeLessThanOrEqual(field.width);
    }
  });

  it("without a pointer nothing gathers: no links count towards the start", () => {
    const field = { width: 1280, height: 720 };
    const c = createConstellation(field, seeded(5));
    let drawn = 0;
    expect(forEachLink(c, null, () => drawn++)).toBe(0);
    expect(drawn).toBeGreaterThan(20); // links are drawn all over, only the ones around the pointer count
  });
});
