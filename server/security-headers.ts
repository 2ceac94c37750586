import crypto from "node:crypto";
import type { RequestHandler } from "express";
import { contentSecurityPolicy } from "./csp";

/**
 * Headers on every answer, and the per-request CSP nonce (`res.locals.cspNonce`, handed to Remix
 * through the load context). Vite's dev server injects inline scripts without it: no CSP in development.
 */
export function securityHeaders({ csp }: { csp: boolean }): RequestHandler {
  return (_req, res, next) => {
    const nonce = crypto.randomBytes(16).toString("base64");
    res.locals.cspNonce = nonce;
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Referrer-Policy", "strict-origin-when-cross-origin");
    res.setHeader("X-Frame-Options", "DENY");
    res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=(), interest-cohort=()");
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
