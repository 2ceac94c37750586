import type { AppLoadContext } from "@remix-run/node";
import { addressKeyOf, rawClientAddress } from "~/utils/client-address.server";
import { pseudonymOf } from "~/utils/pseudonym.server";
import { networkKey, subscriberKey } from "../../../server/address-key";

/** Pseudonym of the answering address: tells addresses apart without storing any (the `ip_hash` column). */
export function addressHash(context: AppLoadContext): Promise<string> {
  return pseudonymOf("report-address", addressKeyOf(context));
}

/**
 * Pseudonym of a network (`networkKey`: IPv6 /48, IPv4 /24) from an address or address key: the
 * `network_hash` columns and the draw cookie's network. Under the month's key like every pseudonym
 * (decision 322): a network compared across a month's end counts as another one.
 */
export function networkHashOf(ipOrKey: string): Promise<string> {
  return pseudonymOf("network", networkKey(ipOrKey));
}

/** What the visitor's subscriber holds (`subscriberKey`: an IPv6 /48, an IPv4 address), as a pseudonym: the game board's key. */
export function subscriberHash(context: AppLoadContext): Promise<string> {
  return pseudonymOf("subscriber", subscriberKey(rawClientAddress(context)));
}

/** The visitor's network, as a pseudonym (`networkHashOf`). */
export function networkHash(context: AppLoadContext): Promise<string> {
  return networkHashOf(rawClientAddress(context));
}
