import type { AppLoadContext } from "@remix-run/node";
import ipaddr from "ipaddr.js";

/**
 * The one address key (decision 202). Every limit, vote identity and answer counted per visitor
 * keys by `addressKeyOf(context)`: one IPv6 subscriber usually holds a whole /64, so IPv6 counts by
 * its /64 prefix (rotating the last 64 bits gives nothing); IPv4, also when mapped in IPv6, by the
 * full address. Anything unreadable counts as itself.
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
