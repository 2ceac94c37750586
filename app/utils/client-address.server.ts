import type { AppLoadContext } from "@remix-run/node";
import { addressKey } from "../../server/address-key";

/**
 * The key every limit, vote identity and answer counted per visitor uses (decision 202): the
 * client's address by `addressKey` (server/address-key.ts: an IPv6 /64 is one client).
 */
export function addressKeyOf(context: AppLoadContext): string {
  return addressKey(rawClientAddress(context));
}

/**
 * The client's full address as the server saw it (server/client-ip.ts reads it, TRUST_PROXY
 * included). Only for telling someone else who the visitor is (the captcha check's `remoteip`);
 * never a key for counting: that is `addressKeyOf`.
 */
export function rawClientAddress(context: AppLoadContext): string {
  return context.clientIp || "unknown";
}
