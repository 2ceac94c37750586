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

/**
 * The per-request CSP nonce (`res.locals.cspNonce`, handed to Remix through the load context) and
 * the policy naming it, for everything past the static files (which run no script of ours and
 * skip this work). Vite's dev server injects inline scripts without it: no CSP in development.
 */
export function securityHeaders({ csp }: { csp: boolean }): RequestHandler {
  return (_req, res, next) => {
    const nonce = crypto.randomBytes(16).toString("base64");
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
