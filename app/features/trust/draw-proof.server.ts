import crypto from "node:crypto";
import { data, type AppLoadContext } from "@remix-run/node";
import type { RateLimiterLike } from "rate-limiter-flexible";
import { createLimiter, isRefusal } from "~db/rate-limits.server";
import { getEnv } from "~/utils/env.server";
import { addressKeyOf, rawClientAddress } from "~/utils/client-address.server";
import { pseudonymOf } from "~/utils/pseudonym.server";
import { CAPTCHA_FIELD, captchaFor, verifyCaptcha } from "~/features/codes/captcha.server";
import { DAY_SECONDS, DRAW_NETWORK_FACTORS } from "~/features/codes/limits";
import { networkOf } from "../../../server/address-key";
import {
  DRAW_PROOF_FIELD,
  DRAW_PROOF_NONCE_FIELD,
  hasLeadingZeroBits,
  type DrawProofReason,
  type DrawProofView,
} from "./draw-proof";

/**
 * The soft bound's browser proof (issue 55, decision 350). Past DRAW_SOFT_LIMIT draws a day from one
 * IPv6 /64 (or IPv4 address), twice that from its /48, ten times from its IPv4 /24, a draw counts
 * only with a proof that a browser asked for it: the captcha when the admin configured one and the
 * visitor accepted Google's services (as on /submit), otherwise a challenge the server signed for
 * this address, single-use and short-lived, passed either by a small proof of work the page
 * computes, or, without JavaScript, by sending it back after a few seconds ("one moment").
 * Counted through the limiter abstraction (db/rate-limits.server.ts): shared by every process on
 * PostgreSQL. The hard daily bounds (decision 312) stay where they are.
 */

/** Zero bits the proof of work asks for: about 4,000 hashes, well under a second on a cheap phone. */
const DRAW_PROOF_BITS = 12;
/** How long a challenge is good for. */
const CHALLENGE_TTL_MS = 5 * 60_000;
/** Without a proof of work, a challenge is taken back only after this wait (the "one moment" step). */
const DRAW_PROOF_WAIT_MS = 3_000;

type Bound = keyof typeof DRAW_NETWORK_FACTORS;
let soft: { max: number; limiters: Map<Bound, RateLimiterLike> } | null = null;
let used: RateLimiterLike | null = null;

function softLimiter(max: number, bound: Bound): RateLimiterLike {
  if (soft?.max !== max) soft = { max, limiters: new Map() };
  let limiter = soft.limiters.get(bound);
  if (!limiter) {
    limiter = createLimiter({ name: `draw-soft-${bound}`, max: max * DRAW_NETWORK_FACTORS[bound], windowMs: DAY_SECONDS * 1000 });
    soft.limiters.set(bound, limiter);
  }
  return limiter;
}

/** The soft bound's limiters and keys for an address key (pseudonyms, never the address). */
async function softKeys(address: string, max: number): Promise<Array<[RateLimiterLike, string, number]>> {
  const network = networkOf(address);
  const keys: Array<[Bound, string]> = [["subscriber", address]];
  if (network) keys.push([network.kind, network.key]);
  return Promise.all(
    keys.map(
      async ([bound, key]) =>
        [softLimiter(max, bound), await pseudonymOf("draw-soft", key), max * DRAW_NETWORK_FACTORS[bound]] as [
          RateLimiterLike,
          string,
          number,
        ],
    ),
  );
}

async function countDraw(keys: Array<[RateLimiterLike, string, number]>): Promise<void> {
  // Past the bound the count goes on (a refusal here is expected); a store failure counts nothing.
  for (const [limiter, key] of keys) await limiter.consume(key).catch(() => undefined);
}

/**
 * Whether `address` (its address key) may draw now without a proof; counts the draw when so. False
 * past the soft bound, with nothing counted: the draw page's action then asks for the proof.
 */
async function admitDrawWithoutProof(address: string): Promise<boolean> {
  const max = getEnv().DRAW_SOFT_LIMIT;
  if (max === 0) return true;
  const keys = await softKeys(address, max);
  for (const [limiter, key, points] of keys) {
    const res = await limiter.get(key).catch(() => null);
    if (res && res.consumedPoints >= points) return false;
  }
  await countDraw(keys);
  return true;
}

function sign(body: string, address: string): string {
  return crypto
    .createHmac("sha256", getEnv().SESSION_SECRET)
    .update(`draw-proof:${body}:${address}`)
    .digest("base64url")
    .slice(0, 22);
}

/** A fresh challenge for `address`: `{issued, base 36}.{random id}.{bits}.{signature}`. */
function issueChallenge(address: string, now = Date.now()): string {
  const body = `${now.toString(36)}.${crypto.randomBytes(12).toString("base64url")}.${DRAW_PROOF_BITS}`;
  return `${body}.${sign(body, address)}`;
}

const CHALLENGE = /^([0-9a-z]{1,11})\.([\w-]{16})\.(\d{1,2})\.([\w-]{22})$/;

/** A challenge signed for this address: its id and when it was issued; null when forged, altered or another address's. */
function readChallenge(token: string, address: string): { id: string; issuedAt: number; bits: number } | null {
  const match = CHALLENGE.exec(token);
  if (!match) return null;
  const expected = Buffer.from(sign(`${match[1]}.${match[2]}.${match[3]}`, address));
  const given = Buffer.from(match[4]!);
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null;
  return { id: match[2]!, issuedAt: parseInt(match[1]!, 36), bits: Number(match[3]) };
}

function proofOfWorkHolds(token: string, nonce: string, bits: number): boolean {
  if (!/^\d{1,12}$/.test(nonce)) return false;
  return hasLeadingZeroBits(crypto.createHash("sha256").update(`${token}:${nonce}`).digest(), bits);
}

function usedChallenges(): RateLimiterLike {
  used ??= createLimiter({ name: "draw-proof-used", max: 1, windowMs: CHALLENGE_TTL_MS + 60_000 });
  return used;
}

/** Marks a challenge used; false when it already was (a replay). */
async function spend(id: string): Promise<boolean> {
  try {
    await usedChallenges().consume(id);
    return true;
  } catch (refusal) {
    if (isRefusal(refusal)) return false;
    throw refusal;
  }
}

function field(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === "string" ? value.trim() : "";
}

/**
 * The draw action's one line (`const step = await drawProofStep(...); if (step) return step;`): null
 * when the draw may go on (under the soft bound, or with a valid proof, which is then spent and the
 * draw counted); else the 403 answer whose data (`drawProof`) the draw page shows as the step, with a
 * challenge, and nothing drawn or written.
 */
export async function drawProofStep(request: Request, context: AppLoadContext, form: FormData, now = Date.now()) {
  const address = addressKeyOf(context);
  const max = getEnv().DRAW_SOFT_LIMIT;
  if (max === 0 || (await admitDrawWithoutProof(address))) return null;
  const { siteKey } = await captchaFor(request);
  const token = field(form, DRAW_PROOF_FIELD);
  const step = (reason: DrawProofReason, challenge = issueChallenge(address, now)) =>
    data(
      {
        drawProof: {
          reason,
          challenge,
          siteKey,
          bits: DRAW_PROOF_BITS,
          waitSeconds: Math.ceil(DRAW_PROOF_WAIT_MS / 1000),
        } satisfies DrawProofView,
      },
      { status: 403, headers: { "Cache-Control": "no-store" } },
    );
  if (!token) return step("needed");
  const challenge = readChallenge(token, address);
  if (!challenge) return step("wrong");
  const age = now - challenge.issuedAt;
  if (age > CHALLENGE_TTL_MS || age < -60_000) return step("stale");
  if (siteKey) {
    const answer = field(form, CAPTCHA_FIELD);
    if (!answer || !(await verifyCaptcha(answer, rawClientAddress(context)))) return step("captcha", token);
  } else if (!proofOfWorkHolds(token, field(form, DRAW_PROOF_NONCE_FIELD), challenge.bits) && age < DRAW_PROOF_WAIT_MS) {
    // Neither the page's proof of work nor the wait: the same challenge, a moment later.
    return step("wait", token);
  }
  if (!(await spend(challenge.id))) return step("replayed");
  await countDraw(await softKeys(address, max));
  return null;
}
