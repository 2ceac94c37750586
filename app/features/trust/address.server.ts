import crypto from "node:crypto";
import type { AppLoadContext } from "@remix-run/node";
import { getEnv } from "~/utils/env.server";
import { addressKeyOf, rawClientAddress } from "~/utils/client-address.server";
import { networkKey, subscriberKey } from "../../../server/address-key";

let derived: { secret: string; key: Buffer } | undefined;

function keyed(value: string): string {
  const secret = getEnv().SESSION_SECRET;
  if (derived?.secret !== secret) {
    derived = { secret, key: crypto.createHmac("sha256", secret).update("parrainly:report-address").digest() };
  }
  return crypto.createHmac("sha256", derived.key).update(value).digest("base64url");
}

/** Keyed hash of the answering address: tells addresses apart without storing any (the `ip_hash` column). */
export function addressHash(context: AppLoadContext): string {
  return keyed(addressKeyOf(context));
}

/**
 * Keyed hash of a network (`networkKey`: IPv6 /48, IPv4 /24) from an address or address key: the
 * `network_hash` columns. Same key as `addressHash`, its own input (`net:`), so the two never match.
 */
export function networkHashOf(ipOrKey: string): string {
  return keyed(`net:${networkKey(ipOrKey)}`);
}

/** What the visitor's subscriber holds (`subscriberKey`: an IPv6 /48, an IPv4 address), hashed: the game board's key. */
export function subscriberHash(context: AppLoadContext): string {
  return keyed(`sub:${subscriberKey(rawClientAddress(context))}`);
}

/** The visitor's network, hashed (`networkHashOf`). */
export function networkHash(context: AppLoadContext): string {
  return networkHashOf(rawClientAddress(context));
}
