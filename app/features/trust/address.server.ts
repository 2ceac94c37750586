import crypto from "node:crypto";
import type { AppLoadContext } from "@remix-run/node";
import { getEnv } from "~/utils/env.server";
import { addressKeyOf } from "~/utils/client-address.server";

let derived: { secret: string; key: Buffer } | undefined;

/** Keyed hash of the answering address: tells addresses apart without storing any (the `ip_hash` column). */
export function addressHash(context: AppLoadContext): string {
  const secret = getEnv().SESSION_SECRET;
  if (derived?.secret !== secret) {
    derived = { secret, key: crypto.createHmac("sha256", secret).update("parrainly:report-address").digest() };
  }
  return crypto.createHmac("sha256", derived.key).update(addressKeyOf(context)).digest("base64url");
}
