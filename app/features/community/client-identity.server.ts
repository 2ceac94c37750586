import crypto from "node:crypto";
import type { AppLoadContext } from "@remix-run/node";
import { CLIENT_ID_COOKIE, clientIdCookie, readCookie } from "~/utils/cookies.server";
import { getEnv } from "~/utils/env.server";
import { rawClientAddress } from "~/utils/client-address.server";
import { pseudonymOf } from "~/utils/pseudonym.server";
import { subscriberKey } from "../../../server/address-key";

/**
 * Who votes, without knowing who: a random `client_id` cookie and the client address, both stored
 * only as keyed hashes, so the database never holds an address or the cookie value in clear. The
 * cookie's under a key derived from SESSION_SECRET (a random value, nothing about the person); the
 * address's is a pseudonym under the month's own key (`pseudonymOf`, decision 322).
 */
const CLIENT_ID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface ClientIdentity {
  clientId: string;
  /** HMAC of the cookie value; the `client_fingerprint` column. */
  fingerprint: string;
  /** Set-Cookie line when the visitor had no valid cookie yet. */
  setCookie: string | null;
}

let derivedKey: { secret: string; key: Buffer } | undefined;
function hashKey(): Buffer {
  const secret = getEnv().SESSION_SECRET;
  if (derivedKey?.secret !== secret) {
    derivedKey = { secret, key: crypto.createHmac("sha256", secret).update("parrainly:vote-identity").digest() };
  }
  return derivedKey.key;
}

function keyedHash(purpose: "client", value: string): string {
  return crypto.createHmac("sha256", hashKey()).update(`${purpose}:${value}`).digest("base64url");
}

/**
 * Pseudonym of what the client's subscriber holds (`subscriberKey`: an IPv6 /48, an IPv4 address,
 * decision 316): the `ip_hash` column of a vote, which caps the votes one subscriber gives a
 * suggestion, so many /64s of one /48 are one voter.
 */
export function voterAddress(context: AppLoadContext): Promise<string> {
  return pseudonymOf("vote-address", subscriberKey(rawClientAddress(context)));
}

/** The identity a vote is written with; the cookie is made here when the visitor has none yet. */
export function getClientIdentity(request: Request): ClientIdentity {
  const existing = readCookie(request, CLIENT_ID_COOKIE);
  const valid = existing && CLIENT_ID_SHAPE.test(existing) ? existing : null;
  const clientId = valid ?? crypto.randomUUID();
  return {
    clientId,
    fingerprint: keyedHash("client", clientId),
    setCookie: valid ? null : clientIdCookie(clientId),
  };
}
