import ipaddr from "ipaddr.js";

/**
 * Which addresses and names the sitemap audit may connect to. Allow-list: only what ipaddr.js
 * classifies as plain public unicast passes; every special range (loopback, private, link-local,
 * CGNAT, multicast, unique-local, IPv4-mapped, NAT64, 6to4, Teredo, documentation, ...) is refused,
 * so an IPv4 address wrapped in IPv6 cannot slip through.
 */
export type AddressRefusal = { ok: true } | { ok: false; range: string };

/** Fly.io's private network (6PN). */
const FLY_PRIVATE = ipaddr.parseCIDR("fdaa::/16");

export function checkAddress(address: string): AddressRefusal {
  const bare = address.replace(/^\[|\]$/g, "");
  // Zone ids (fe80::1%eth0) are link-local by definition.
  if (bare.includes("%")) return { ok: false, range: "linkLocal" };
  if (!ipaddr.isValid(bare)) return { ok: false, range: "invalid" };
  const parsed = ipaddr.parse(bare);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).match(FLY_PRIVATE)) return { ok: false, range: "flyPrivate" };
  const range = parsed.range();
  return range === "unicast" ? { ok: true } : { ok: false, range };
}

/**
 * Names that only mean something inside Fly's private network. `localhost` and the like are left to
 * the address check, which refuses whatever they resolve to.
 */
export function isPrivateHostname(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.+$/, "");
  return name === "internal" || name.endsWith(".internal") || name === "flycast" || name.endsWith(".flycast");
}

/** An IP literal as URL.hostname spells it (IPv6 in brackets), or null for a name. */
export function ipLiteral(hostname: string): string | null {
  const bare = hostname.replace(/^\[|\]$/g, "");
  return ipaddr.isValid(bare) && (bare.includes(":") || ipaddr.IPv4.isValidFourPartDecimal(bare)) ? bare : null;
}

/** `host:port` as AUDIT_ALLOWED_HOSTS lists it (default ports made explicit). */
export function hostKey(url: URL): string {
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return `${url.hostname.toLowerCase()}:${port}`;
}

export function parseAllowedHosts(value: string | undefined): Set<string> {
  return new Set(
    (value ?? "")
      .split(",")
      .map((entry) => entry.trim().toLowerCase())
      .filter(Boolean),
  );
}
