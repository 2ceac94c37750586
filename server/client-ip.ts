import type { Request } from "express";
import ipaddr from "ipaddr.js";

/** Addresses of our own side of the network (Fly's proxies, loopback, private ranges). */
const TRUSTED_RANGES = new Set(["loopback", "private", "uniqueLocal", "linkLocal", "carrierGradeNat", "unspecified"]);

function parse(value: string | undefined): ipaddr.IPv4 | ipaddr.IPv6 | null {
  const text = value?.trim().replace(/^\[(.*)\]$/, "$1");
  if (!text || !ipaddr.isValid(text)) return null;
  const address = ipaddr.parse(text);
  return address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress()
    ? (address as ipaddr.IPv6).toIPv4Address()
    : address;
}

const isTrusted = (address: ipaddr.IPv4 | ipaddr.IPv6) => TRUSTED_RANGES.has(address.range());

/**
 * The client's address. Without TRUST_PROXY, the socket's. Behind Fly (TRUST_PROXY=1):
 * `Fly-Client-IP`, which Fly's edge sets itself; else the right-most `X-Forwarded-For` entry that
 * is not one of our proxies. Entries to its left were written by the client and prove nothing, so
 * the left-most (what a naive reader takes) would let anyone pick their address and slip past the
 * per-address limits. An unreadable entry stops the walk: the socket's address is used.
 */
export function clientIpOf(req: Request, trustProxy: boolean): string {
  const socket = req.socket.remoteAddress ?? "unknown";
  if (!trustProxy) return socket;
  const fly = parse(req.get("fly-client-ip"));
  if (fly) return fly.toString();
  const entries = (req.get("x-forwarded-for") ?? "").split(",").filter((entry) => entry.trim());
  for (let i = entries.length - 1; i >= 0; i--) {
    const address = parse(entries[i]);
    if (!address) break;
    if (!isTrusted(address) || i === 0) return address.toString();
  }
  return socket;
}
