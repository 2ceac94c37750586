/**
 * The constellation game's rules as pure functions over plain data. Time is always passed in (an
 * injected clock in the browser, fixed numbers in tests and on the server), so the same code runs the
 * game, bounds the score and checks a submitted game on the server. Game times are whole milliseconds
 * since play began: the browser floors its clock before any rule sees it, and the server replays the
 * same integers.
 */

export type DeviceType = "mobile" | "desktop";
export const DEVICE_TYPES = ["mobile", "desktop"] as const satisfies readonly DeviceType[];

export const RULES = {
  durationMs: 60_000,
  countdownMs: 3_000,
  orbPoints: 10,
  orbSize: 8,
  /** An orb is collected by a pointer within its size plus this margin. */
  collectMargin: 10,
  orbLifetimeMs: 5_000,
  /** Up to this many orbs live at once; beyond it a spawn happens only by chance, up to the hard cap. */
  orbSoftCap: 4,
  orbHardCap: 6,
  extraOrbChance: 0.1,
  spawnStartMs: 800,
  spawnStepMs: 50,
  spawnMinMs: 300,
  /** Collections closer together than this speed the spawns up... */
  quickCollectMs: 1_000,
  /** ...once more than this many orbs have been collected. */
  quickAfterCollections: 3,
} as const;

const TRIGGERS = {
  /** Below this viewport width the game is the mobile one (taps), else the desktop one (links). */
  mobileBreakpointPx: 768,
  tapsToStart: 10,
  tapsHint: 8,
  tapMaxDistancePx: 50,
  tapMaxGapMs: 5_000,
  linksToStart: 20,
  linksHint: 18,
  /** The 20 links must stay visible this long: a mouse merely crossing a crowded spot starts nothing. */
  linksHoldMs: 1_000,
} as const;

export const CONSTELLATION = {
  particles: 80,
  linkDistancePx: 120,
  attractionRadiusPx: 150,
} as const;

export const COLLECT_RADIUS = RULES.orbSize + RULES.collectMargin;

/** deviceTypeForWidth's rule as a media query: "mobile" where it matches. */
export const MOBILE_MEDIA_QUERY = `(max-width: ${TRIGGERS.mobileBreakpointPx - 0.02}px)`;

export function deviceTypeForWidth(width: number): DeviceType {
  return width < TRIGGERS.mobileBreakpointPx ? "mobile" : "desktop";
}

// ---------- triggers ----------

export interface Tap {
  x: number;
  y: number;
  t: number;
}
export interface TapCounter {
  count: number;
  last: Tap | null;
}
export type TriggerLevel = "none" | "hint" | "start";

export const NO_TAPS: TapCounter = { count: 0, last: null };

/**
 * Mobile: taps near the same spot. A tap more than 50 px from the previous one, or more than 5 s after
 * it, starts a new count at 1. The count starts over once it reaches the start threshold.
 */
export function countTap(counter: TapCounter, tap: Tap): { counter: TapCounter; level: TriggerLevel } {
  const last = counter.last;
  const continues =
    last !== null &&
    Math.hypot(tap.x - last.x, tap.y - last.y) <= TRIGGERS.tapMaxDistancePx &&
    tap.t - last.t <= TRIGGERS.tapMaxGapMs;
  const count = continues ? counter.count + 1 : 1;
  if (count >= TRIGGERS.tapsToStart) return { counter: NO_TAPS, level: "start" };
  return { counter: { count, last: tap }, level: count >= TRIGGERS.tapsHint ? "hint" : "none" };
}

/** Desktop: how many constellation links are visible at once. */
export function linkLevel(visibleLinks: number): TriggerLevel {
  if (visibleLinks >= TRIGGERS.linksToStart) return "start";
  return visibleLinks >= TRIGGERS.linksHint ? "hint" : "none";
}

/** Since when 20 links have been visible without a break (null: not now). */
export type LinkHold = number | null;

/**
 * Desktop trigger over time: the hint from 18 links, the start once 20 have stayed visible for the
 * hold time (the hint shows meanwhile).
 */
export function countLinks(hold: LinkHold, visibleLinks: number, t: number): { hold: LinkHold; level: TriggerLevel } {
  const level = linkLevel(visibleLinks);
  if (level !== "start") return { hold: null, level };
  const since = hold ?? t;
  return t - since >= TRIGGERS.linksHoldMs ? { hold: null, level: "start" } : { hold: since, level: "hint" };
}

// ---------- spawn schedule ----------

export interface SpawnSchedule {
  /** Game time of the next spawn. */
  nextAt: number;
  intervalMs: number;
  collections: number;
  lastCollectAt: number | null;
}

export const FIRST_SPAWN: SpawnSchedule = {
  nextAt: 0,
  intervalMs: RULES.spawnStartMs,
  collections: 0,
  lastCollectAt: null,
};

/** A collection at game time `t`: after more than 3 collections, one within 1 s of the previous speeds spawns up by 50 ms. */
export function recordCollection(schedule: SpawnSchedule, t: number): SpawnSchedule {
  const collections = schedule.collections + 1;
  const quick = schedule.lastCollectAt !== null && t - schedule.lastCollectAt < RULES.quickCollectMs;
  const intervalMs =
    quick && collections > RULES.quickAfterCollections
      ? Math.max(RULES.spawnMinMs, schedule.intervalMs - RULES.spawnStepMs)
      : schedule.intervalMs;
  return { ...schedule, collections, lastCollectAt: t, intervalMs };
}

/** The spawn due at `nextAt` happened: the next one comes one interval later (collections before it counted). */
function afterSpawn(schedule: SpawnSchedule): SpawnSchedule {
  return { ...schedule, nextAt: schedule.nextAt + schedule.intervalMs };
}

/**
 * Every spawn time of a game whose orbs were collected at `collectedAt` (sorted game times). A spawn at T
 * counts the collections made before T; one made at T itself (right after the spawn) counts from the
 * next spawn on. This is what the browser does frame by frame, so it holds whatever the frame rate.
 */
export function spawnTimes(collectedAt: readonly number[]): number[] {
  const times: number[] = [];
  let schedule = FIRST_SPAWN;
  let next = 0;
  while (schedule.nextAt < RULES.durationMs) {
    while (next < collectedAt.length && collectedAt[next]! < schedule.nextAt)
      schedule = recordCollection(schedule, collectedAt[next++]!);
    times.push(schedule.nextAt);
    schedule = afterSpawn(schedule);
  }
  return times;
}

/**
 * The most orbs a 60 s game can yield: every orb collected the moment it appears is the fastest the
 * schedule can go (each collection speeds it up as early as possible, and no orb can be taken before
 * it exists), so its spawn count bounds every game.
 */
export function maxOrbs(): number {
  let schedule = FIRST_SPAWN;
  let orbs = 0;
  while (schedule.nextAt < RULES.durationMs) {
    const spawnedAt = schedule.nextAt;
    orbs++;
    schedule = recordCollection(afterSpawn(schedule), spawnedAt);
  }
  return orbs;
}

export const MAX_SCORE = maxOrbs() * RULES.orbPoints;

export type CollectionCheck = { ok: true } | { ok: false; reason: "count" | "range" | "order" | "schedule" };

/**
 * Could a game have collected orbs at these game times? One orb per collection, each taken while
 * alive (spawned at or before it, less than 5 s earlier), spawns replayed from the collections. The
 * server cannot know which spawns the live-orb cap skipped, so it grants every one.
 */
export function checkCollections(collectedAt: readonly number[], score: number): CollectionCheck {
  if (collectedAt.length * RULES.orbPoints !== score) return { ok: false, reason: "count" };
  for (let i = 0; i < collectedAt.length; i++) {
    const t = collectedAt[i]!;
    if (!Number.isInteger(t) || t < 0 || t >= RULES.durationMs) return { ok: false, reason: "range" };
    if (i > 0 && t < collectedAt[i - 1]!) return { ok: false, reason: "order" };
  }
  const spawns = spawnTimes(collectedAt);
  // Earliest-spawned living orb first: with equal lifetimes that also has the earliest end.
  let head = 0;
  let spawned = 0;
  for (const t of collectedAt) {
    while (spawned < spawns.length && spawns[spawned]! <= t) spawned++;
    while (head < spawned && spawns[head]! + RULES.orbLifetimeMs <= t) head++;
    if (head >= spawned) return { ok: false, reason: "schedule" };
    head++;
  }
  return { ok: true };
}

export function isPlausibleScore(score: number): boolean {
  return Number.isInteger(score) && score >= 0 && score <= MAX_SCORE && score % RULES.orbPoints === 0;
}

// ---------- the game ----------

export type Phase = "idle" | "countdown" | "playing" | "finished";

export interface Orb {
  id: number;
  x: number;
  y: number;
  bornAt: number;
}

export interface Field {
  width: number;
  height: number;
}

export interface GameState {
  phase: Phase;
  /** Clock time at which the current phase began (play starts exactly 3 s after the countdown did). */
  phaseStartedAt: number;
  score: number;
  orbs: readonly Orb[];
  schedule: SpawnSchedule;
  collectedAt: readonly number[];
  nextOrbId: number;
}

export const IDLE: GameState = {
  phase: "idle",
  phaseStartedAt: 0,
  score: 0,
  orbs: [],
  schedule: FIRST_SPAWN,
  collectedAt: [],
  nextOrbId: 1,
};

export type Random = () => number;

export function startCountdown(now: number): GameState {
  return { ...IDLE, phase: "countdown", phaseStartedAt: now };
}

export function startPlaying(now: number): GameState {
  return { ...IDLE, phase: "playing", phaseStartedAt: now };
}

export function closeGame(): GameState {
  return IDLE;
}

/** Whole milliseconds of play at clock time `now`. */
function gameTime(state: GameState, now: number): number {
  return Math.floor(now - state.phaseStartedAt);
}

export function countdownLeft(state: GameState, now: number): number {
  return state.phase === "countdown" ? Math.max(0, Math.ceil((state.phaseStartedAt + RULES.countdownMs - now) / 1000)) : 0;
}

export function timeLeftSeconds(state: GameState, now: number): number {
  if (state.phase !== "playing") return state.phase === "finished" ? 0 : RULES.durationMs / 1000;
  return Math.max(0, Math.ceil((RULES.durationMs - gameTime(state, now)) / 1000));
}

const SPAWN_MARGIN = 24;
/**
 * Orbs keep clear of the top band, where the score, the timer and the quit button sit (the button
 * ends about 71 px down): an orb is taken within COLLECT_RADIUS of its centre, and a finger aiming at
 * it must not land on "Quit" or let the browser's tap adjustment pick the button (it did at 72 px).
 * So the nearest centre sits a collect radius and a fingertip (about 24 px) below the button.
 */
const HUD_BAND = 116;

function spawnOrb(state: GameState, at: number, field: Field, random: Random): GameState {
  const alive = state.orbs.length;
  const spawns = alive < RULES.orbSoftCap || (alive < RULES.orbHardCap && random() < RULES.extraOrbChance);
  const schedule = afterSpawn(state.schedule);
  if (!spawns) return { ...state, schedule };
  const w = Math.max(field.width - 2 * SPAWN_MARGIN, 1);
  const h = Math.max(field.height - HUD_BAND - SPAWN_MARGIN, 1);
  const orb: Orb = { id: state.nextOrbId, x: SPAWN_MARGIN + random() * w, y: HUD_BAND + random() * h, bornAt: at };
  return { ...state, schedule, orbs: [...state.orbs, orb], nextOrbId: state.nextOrbId + 1 };
}

/**
 * Moves the game to clock time `now`: the countdown ends, due orbs spawn (in order, each seeing the
 * orbs alive at its own time), old ones fade, the timer ends the game.
 */
export function advance(state: GameState, now: number, field: Field, random: Random): GameState {
  if (state.phase === "countdown") {
    const playAt = state.phaseStartedAt + RULES.countdownMs;
    if (now < playAt) return state;
    return advance(startPlaying(playAt), now, field, random);
  }
  if (state.phase !== "playing") return state;
  const t = gameTime(state, now);
  let next = state;
  while (next.schedule.nextAt <= t && next.schedule.nextAt < RULES.durationMs) {
    const at = next.schedule.nextAt;
    next = withoutExpired(next, at);
    next = spawnOrb(next, at, field, random);
  }
  next = withoutExpired(next, t);
  if (t >= RULES.durationMs) return { ...next, phase: "finished", orbs: [] };
  return next;
}

function withoutExpired(state: GameState, t: number): GameState {
  const alive = state.orbs.filter((o) => o.bornAt + RULES.orbLifetimeMs > t);
  return alive.length === state.orbs.length ? state : { ...state, orbs: alive };
}

/** A pointer at (x, y) at clock time `now`: every living orb within reach is collected. */
export function collectAt(state: GameState, now: number, x: number, y: number, field: Field, random: Random): GameState {
  let next = advance(state, now, field, random);
  if (next.phase !== "playing") return next;
  const t = gameTime(next, now);
  const reached = next.orbs.filter((o) => Math.hypot(o.x - x, o.y - y) <= COLLECT_RADIUS);
  if (reached.length === 0) return next;
  let schedule = next.schedule;
  const collectedAt = [...next.collectedAt];
  for (let i = 0; i < reached.length; i++) {
    schedule = recordCollection(schedule, t);
    collectedAt.push(t);
  }
  next = {
    ...next,
    schedule,
    collectedAt,
    score: next.score + reached.length * RULES.orbPoints,
    orbs: next.orbs.filter((o) => !reached.includes(o)),
  };
  return next;
}
