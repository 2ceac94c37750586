import crypto from "node:crypto";
import type { AppLoadContext } from "@remix-run/node";
import ipaddr from "ipaddr.js";
import { getEnv } from "~/utils/env.server";
import { clientIp } from "~/utils/http.server";

/**
 * The address an answer or a guess counts against. One IPv6 subscriber usually holds a whole /64,
 * so IPv6 counts by its /64 prefix; IPv4 (also when mapped in IPv6) by the full address. Anything
 * unreadable counts as itself.
 */
export function addressKey(ip: string): string {
  try {
    const parsed = ipaddr.process(ip);
    if (parsed.kind() === "ipv4") return parsed.toString();
    const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
    return `${parts.map((p) => p.toString(16)).join(":")}::/64`;
  } catch {
    return ip;
  }
}

export function requestAddressKey(context: AppLoadContext): string {
  return addressKey(clientIp(context));
}

let derived: { secret: string; key: Buffer } | undefined;

/** Keyed hash of the answering address: tells addresses apart without storing any (the `ip_hash` column). */
export function addressHash(context: AppLoadContext): string {
  const secret = getEnv().SESSION_SECRET;
  if (derived?.secret !== secret) {
    derived = { secret, key: crypto.createHmac("sha256", secret).update("parrainly:report-address").digest() };
  }
  return crypto.createHmac("sha256", derived.key).update(requestAddressKey(context)).digest("base64url");
}
