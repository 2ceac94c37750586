import type { AppLoadContext } from "@remix-run/node";
import { addressKeyOf } from "~/utils/client-address.server";
import { pseudonymOf } from "~/utils/pseudonym.server";

/** Pseudonym of the answering address: tells addresses apart without storing any (the `ip_hash` column). */
export function addressHash(context: AppLoadContext): Promise<string> {
  return pseudonymOf("report-address", addressKeyOf(context));
}
