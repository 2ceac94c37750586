import crypto from "node:crypto";
import { getEnv } from "~/utils/env.server";
import { DEVICE_TYPES, RULES, type DeviceType } from "./rules";

/**
 * A game session is a signed token: `{id}.{device}.{startedAt ms}.{HMAC}`. Nothing is stored when a
 * game starts; the id is written once, when a score is saved with it (db/repositories/game.server.ts),
 * so it serves once. A score is accepted from 60 s after the start (a game cannot end sooner) until
 * a few minutes later (time to type a pseudo, or to retry a failed save).
 */
const SESSION_MIN_AGE_MS = RULES.durationMs;
export const SESSION_MAX_AGE_MS = 5 * 60_000;

export interface GameSession {
  id: string;
  device: DeviceType;
  startedAt: number;
}

function sign(payload: string): string {
  return crypto.createHmac("sha256", getEnv().SESSION_SECRET).update(`game-session:${payload}`).digest("base64url");
}

export function createGameSession(device: DeviceType, startedAt = Date.now()): string {
  const payload = `${crypto.randomBytes(12).toString("base64url")}.${device}.${startedAt}`;
  return `${payload}.${sign(payload)}`;
}

const SHAPE = /^([\w-]{16})\.(mobile|desktop)\.(\d{13})\.([\w-]{43})$/;

/** The session a token names when its signature holds, else null. */
export function readGameSession(token: string): GameSession | null {
  const match = SHAPE.exec(token);
  if (!match) return null;
  const [, id, device, startedAt, signature] = match as unknown as [string, string, DeviceType, string, string];
  const expected = Buffer.from(sign(`${id}.${device}.${startedAt}`));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null;
  if (!DEVICE_TYPES.includes(device)) return null;
  return { id, device, startedAt: Number(startedAt) };
}

export type SessionAge = "ok" | "too-early" | "expired";

export function sessionAge(session: GameSession, now = Date.now()): SessionAge {
  const age = now - session.startedAt;
  if (age < SESSION_MIN_AGE_MS) return "too-early";
  return age > SESSION_MAX_AGE_MS ? "expired" : "ok";
}
