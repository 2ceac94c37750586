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

/** An address or an `addressKey` (its /64 form reads as the /64's first address), parsed; null if unreadable. */
function parseAddress(ipOrKey: string): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const text = ipOrKey.endsWith("::/64") ? ipOrKey.slice(0, -"/64".length) : ipOrKey;
  try {
    return ipaddr.process(text);
  } catch {
    return null;
  }
}

const slash48 = (address: ipaddr.IPv6) =>
  `${address.parts
    .slice(0, 3)
    .map((p) => p.toString(16))
    .join(":")}::/48`;

/**
 * The network an address belongs to (decision 315): an IPv6 /48 (what one site or subscriber is
 * usually given, so its many /64s are one network), an IPv4 /24. Takes an address or an
 * `addressKey`. The trust loop's pause counts these: the draws that fail a code must come from
 * several networks, not from a few addresses of one person. Anything unreadable is its own network.
 */
export function networkKey(ipOrKey: string): string {
  const address = parseAddress(ipOrKey);
  if (!address) return ipOrKey;
  if (address.kind() === "ipv4") return `${(address as ipaddr.IPv4).octets.slice(0, 3).join(".")}.0/24`;
  return slash48(address as ipaddr.IPv6);
}

/**
 * What one subscriber holds (decision 316): an IPv6 /48, one IPv4 address (scarce: the next one in
 * its /24 is usually another household). Votes and the game's board count these, so that 20 /64s of
 * one /48 weigh what one visitor weighs.
 */
export function subscriberKey(ipOrKey: string): string {
  const address = parseAddress(ipOrKey);
  if (!address) return ipOrKey;
  return address.kind() === "ipv4" ? address.toString() : slash48(address as ipaddr.IPv6);
}

/**
 * The wider network an address key belongs to, for the draw's daily bounds (decision 312): an IPv6
 * /64 key's /48, an IPv4 address's /24 (`networkKey`). Null for a key that is neither (unreadable
 * addresses count as themselves only).
 */
export function networkOf(key: string): { kind: "ipv6-48" | "ipv4-24"; key: string } | null {
  const address = parseAddress(key);
  if (!address) return null;
  return { kind: address.kind() === "ipv4" ? "ipv4-24" : "ipv6-48", key: networkKey(key) };
}
