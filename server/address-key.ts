import ipaddr from "ipaddr.js";

/**
 * The one address key (decision 202), shared by the server's own cap on connections
 * (http-server.ts) and every limit of the app (`addressKeyOf`, app/utils/client-address.server.ts):
 * one IPv6 subscriber usually holds a whole /64, so IPv6 counts by its /64 prefix (rotating the last
 * 64 bits gives nothing); IPv4, also when mapped in IPv6, by the full address. Anything unreadable
 * counts as itself.
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

/**
 * The wider networks an address key belongs to, for the draw's daily bounds (issue 55, decision 312):
 * an IPv6 /64 key's /48 (one site, usually one customer), an IPv4 address's /24. Null for a key that
 * is neither (unreadable addresses count as themselves only).
 */
export function networkOf(key: string): { kind: "ipv6-48" | "ipv4-24"; key: string } | null {
  const v6 = /^([0-9a-f]{1,4}):([0-9a-f]{1,4}):([0-9a-f]{1,4}):[0-9a-f]{1,4}::\/64$/.exec(key);
  if (v6) return { kind: "ipv6-48", key: `${v6[1]}:${v6[2]}:${v6[3]}::/48` };
  const v4 = /^(\d{1,3}\.\d{1,3}\.\d{1,3})\.\d{1,3}$/.exec(key);
  if (v4) return { kind: "ipv4-24", key: `${v4[1]}.0/24` };
  return null;
}
