import crypto from "node:crypto";
import type { RequestHandler } from "express";
import { contentSecurityPolicy } from "./csp";

const FIXED_HEADERS: Array<[string, string]> = [
  ["X-Content-Type-Options", "nosniff"],
  ["Referrer-Policy", "strict-origin-when-cross-origin"],
  ["X-Frame-Options", "DENY"],
  ["Permissions-Policy", "camera=(), microphone=(), geolocation=(), interest-cohort=()"],
];

/** The headers every answer carries, static files included. */
export function fixedSecurityHeaders(): RequestHandler {
  return (_req, res, next) => {
    for (const [name, value] of FIXED_HEADERS) res.setHeader(name, value);
    next();
  };
}

const NONCE_BYTES = 16;
const POOL_NONCES = 256;
let pool = Buffer.alloc(0);
let used = 0;

/**
 * 16 bytes from the system's random source, base64: a nonce for one page. The bytes are read 4 KB
 * at a time (a synchronous `randomBytes` call per request was 1.5 % of an uncached page's CPU) and
 * each slice is handed out once, so no two answers share a nonce and none can be guessed.
 */
export function freshNonce(): string {
  if (used + NONCE_BYTES > pool.length) {
    pool = crypto.randomBytes(NONCE_BYTES * POOL_NONCES);
    used = 0;
  }
  const nonce = pool.toString("base64", used, used + NONCE_BYTES);
  used += NONCE_BYTES;
  return nonce;
}

/**
 * The per-request CSP nonce (`res.locals.cspNonce`, handed to Remix through the load context) and
 * the policy naming it, for everything past the static files (which run no script of ours and
 * skip this work). Vite's dev server injects inline scripts without it: no CSP in development.
 */
export function securityHeaders({ csp }: { csp: boolean }): RequestHandler {
  return (_req, res, next) => {
    const nonce = freshNonce();
    res.locals.cspNonce = nonce;
    if (csp) {
      res.setHeader("Content-Security-Policy", contentSecurityPolicy(nonce));
      // The app may widen one page's policy (analytics after consent): its header replaces this one
      // instead of joining it, since browsers enforce every policy they are sent.
      const append = res.append.bind(res);
      res.append = (field, value) =>
        field.toLowerCase() === "content-security-policy" && value !== undefined ? res.set(field, value) : append(field, value);
    }
    next();
  };
}
