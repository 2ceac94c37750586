import type { Request } from "express";
import ipaddr from "ipaddr.js";

/**
 * Express's `trust proxy` when TRUST_PROXY=1: our own side of the network (Fly's proxies, loopback,
 * private ranges). `req.ip` is then the right-most `X-Forwarded-For` entry that is not one of these:
 * entries to its left were written by the client and prove nothing.
 */
export const TRUSTED_PROXIES = ["loopback", "linklocal", "uniquelocal", "100.64.0.0/10", "0.0.0.0/32", "::/128"];

function parse(value: string | undefined): string | null {
  const text = value?.trim().replace(/^\[(.*)\]$/, "$1");
  if (!text || !ipaddr.isValid(text)) return null;
  const address = ipaddr.parse(text);
  return (
    address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress()
      ? (address as ipaddr.IPv6).toIPv4Address()
      : address
  ).toString();
}

/**
 * The client's address: without TRUST_PROXY the socket's; behind Fly, `Fly-Client-IP` (Fly's edge
 * sets it itself), else Express's `req.ip` (above). An unreadable value gives the socket's address.
 */
export function clientIpOf(req: Request, trustProxy: boolean): string {
  const socket = req.socket.remoteAddress ?? "unknown";
  if (!trustProxy) return socket;
  return parse(req.get("fly-client-ip")) ?? parse(req.ip) ?? socket;
}
