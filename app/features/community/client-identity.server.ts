import crypto from "node:crypto";
import type { AppLoadContext } from "@remix-run/node";
import { CLIENT_ID_COOKIE, clientIdCookie, readCookie } from "~/utils/cookies.server";
import { getEnv } from "~/utils/env.server";
import { rawClientAddress } from "~/utils/client-address.server";
import { subscriberKey } from "../../../server/address-key";

/**
 * Who votes, without knowing who: a random `client_id` cookie and the client address, both stored
 * only as keyed hashes (HMAC with a key derived from SESSION_SECRET), so the database never holds
 * an address or the cookie value in clear and a leaked table cannot be matched to people.
 */
const CLIENT_ID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface ClientIdentity {
  clientId: string;
  /** HMAC of the cookie value; the `client_fingerprint` column. */
  fingerprint: string;
  /**
   * HMAC of what the client's subscriber holds (`subscriberKey`: an IPv6 /48, an IPv4 address,
   * decision 316); the `ip_hash` column, which caps the votes one subscriber gives a suggestion: many
   * /64s of one /48 are one voter.
   */
  ipHash: string;
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

function keyedHash(purpose: "client" | "ip", value: string): string {
  return crypto.createHmac("sha256", hashKey()).update(`${purpose}:${value}`).digest("base64url");
}

export function getClientIdentity(request: Request, context: AppLoadContext): ClientIdentity {
  const existing = readCookie(request, CLIENT_ID_COOKIE);
  const valid = existing && CLIENT_ID_SHAPE.test(existing) ? existing : null;
  const clientId = valid ?? crypto.randomUUID();
  return {
    clientId,
    fingerprint: keyedHash("client", clientId),
    ipHash: keyedHash("ip", subscriberKey(rawClientAddress(context))),
    setCookie: valid ? null : clientIdCookie(clientId),
  };
}
