import type { Request } from "express";

/** The client's address: the socket's, or with TRUST_PROXY the proxy's headers (Fly sets Fly-Client-IP). */
export function clientIpOf(req: Request, trustProxy: boolean): string {
  if (trustProxy) {
    const fly = req.get("fly-client-ip");
    if (fly) return fly.trim();
    const forwarded = req.get("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
  }
  return req.socket.remoteAddress ?? "unknown";
}
