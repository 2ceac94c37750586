import crypto from "node:crypto";
import { DRAWS_COOKIE, drawsCookie } from "~/utils/cookies.server";
import { getEnv } from "~/utils/env.server";
import { networkHashOf } from "./address.server";

/**
 * A result page's address names the random_requests row plus an HMAC of its id: a reload shows the
 * same code without drawing again, and nobody can walk other people's results by counting ids.
 */
function sign(requestId: number): string {
  return crypto.createHmac("sha256", getEnv().SESSION_SECRET).update(`draw:${requestId}`).digest("base64url").slice(0, 22);
}

export function drawToken(requestId: number): string {
  return `${requestId}.${sign(requestId)}`;
}

/** The request id of a valid token, else null. */
export function readDrawToken(token: string | null): number | null {
  if (!token) return null;
  // One spelling per token: no leading zero (`0001.sig` is not `1.sig`).
  const match = /^([1-9]\d{0,11})\.([\w-]{22})$/.exec(token);
  if (!match) return null;
  const id = Number(match[1]);
  const expected = Buffer.from(sign(id));
  const given = Buffer.from(match[2]!);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected) ? id : null;
}

/** How long after a draw its answer is taken, and how many recent draws a browser keeps answerable. */
export const ANSWER_WINDOW_MS = 24 * 60 * 60_000;
const BOUND_DRAWS_KEPT = 10;

/** A draw this browser made: when, on which page (/random or a platform's), and from which network. */
export interface BoundDraw {
  requestId: number;
  drawnAt: number;
  onRandom: boolean;
  /** Keyed hash of the drawing network (`networkHashOf`): what the pause rule counts. */
  network: string;
}

function signBound(body: string): string {
  return crypto.createHmac("sha256", getEnv().SESSION_SECRET).update(`draw-bound:${body}`).digest("base64url").slice(0, 22);
}

function boundBody(draw: BoundDraw): string {
  return `${draw.requestId}.${draw.drawnAt.toString(36)}.${draw.onRandom ? "r" : "p"}.${draw.network}`;
}

const BOUND_ENTRY = /^([1-9]\d{0,11})\.([0-9a-z]{1,11})\.([rp])\.([\w-]{10,64})\.([\w-]{22})$/;

function parseBound(entry: string): BoundDraw | null {
  const match = BOUND_ENTRY.exec(entry);
  if (!match) return null;
  const draw = { requestId: Number(match[1]), drawnAt: parseInt(match[2]!, 36), onRandom: match[3] === "r", network: match[4]! };
  const expected = Buffer.from(signBound(boundBody(draw)));
  const given = Buffer.from(match[5]!);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected) ? draw : null;
}

/** The `draws` cookie's value in a Cookie header (the first of that name), or "". */
function drawsCookieValue(cookieHeader: string | null | undefined): string {
  for (const part of (cookieHeader ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === DRAWS_COOKIE) return part.slice(eq + 1).trim();
  }
  return "";
}

/** The valid draws of a `draws` cookie still within the answer window, oldest first. */
function boundDraws(cookieHeader: string | null | undefined, now: number): BoundDraw[] {
  const value = drawsCookieValue(cookieHeader);
  if (!value || value.length > 2_000) return [];
  return value
    .split("~")
    .map(parseBound)
    .filter((d): d is BoundDraw => d !== null && now - d.drawnAt < ANSWER_WINDOW_MS && d.drawnAt <= now + 60_000);
}

/**
 * Binds a draw to the browser that made it (decision 315): the Set-Cookie line that adds the draw
 * behind `location` (a result page's address, `?draw=<token>`) to the browser's `draws` cookie, with
 * the drawing network. Stateless: nothing is written for it, the draw stays one transaction. Null when
 * `location` names no draw. `address` is the client's address (or its address key).
 */
export async function bindDrawCookie(
  location: string,
  cookieHeader: string | null | undefined,
  address: string,
  now = Date.now(),
): Promise<string | null> {
  const requestId = readDrawToken(new URL(location, "http://draw.invalid").searchParams.get("draw"));
  if (requestId === null) return null;
  const draw: BoundDraw = {
    requestId,
    drawnAt: now,
    onRandom: location.startsWith("/random"),
    network: await networkHashOf(address),
  };
  const kept = boundDraws(cookieHeader, now).filter((d) => d.requestId !== requestId);
  const entries = [...kept, draw].slice(-BOUND_DRAWS_KEPT).map((d) => `${boundBody(d)}.${signBound(boundBody(d))}`);
  return drawsCookie(entries.join("~"));
}

/** This browser's draw `requestId`, if it made it within the answer window; else null. */
export function boundDraw(request: Request, requestId: number, now = Date.now()): BoundDraw | null {
  return boundDraws(request.headers.get("Cookie"), now).find((d) => d.requestId === requestId) ?? null;
}
