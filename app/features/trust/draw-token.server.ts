import crypto from "node:crypto";
import { getEnv } from "~/utils/env.server";

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
