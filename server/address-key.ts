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
