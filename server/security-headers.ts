import crypto from "node:crypto";
import type { RequestHandler, Response } from "express";
import helmet from "helmet";

/**
 * The headers every answer carries, static files and /healthz included: helmet's defaults (nosniff,
 * frame-ancestors, COOP/CORP...), framing denied, the referrer cut to the origin across sites, and
 * in production HSTS for a year (Fly terminates TLS; no includeSubDomains or preload: the domain's
 * other hosts are not ours to commit). The CSP comes later, with the page's nonce (below).
 */
export function fixedSecurityHeaders({ production }: { production: boolean }): RequestHandler[] {
  return [
    helmet({
      contentSecurityPolicy: false,
      strictTransportSecurity: production ? { maxAge: 31_536_000, includeSubDomains: false } : false,
      frameguard: { action: "deny" },
      referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    }),
    // Hand-written: helmet 8 has no Permissions-Policy (it was dropped upstream as too volatile).
    (_req, res, next) => {
      res.setHeader("Permissions-Policy", "camera=(), microphone=(), geolocation=(), interest-cohort=()");
      next();
    },
  ];
}

const NONCE_BYTES = 16;
const POOL_NONCES = 256;
let pool = Buffer.alloc(0);
let used = 0;

/**
 * 16 bytes from the system's random source, base64: a nonce for one page. Hand-written: the bytes
 * are read 4 KB at a time (a synchronous `randomBytes` call per request was 1.5 % of an uncached
 * page's CPU) and each slice is handed out once, so no two answers share a nonce and none can be guessed.
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

const nonceSource = (_req: unknown, res: unknown) => `'nonce-${(res as Response).locals.cspNonce as string}'`;

/**
 * Content-Security-Policy (helmet). Scripts: our own and the per-request nonce, plus Google
 * reCAPTCHA when a site key is set. Images: any https (partner logos). `worker-src blob:` leaves
 * room for the game island's canvas worker.
 */
const contentSecurityPolicy = helmet.contentSecurityPolicy({
  useDefaults: false,
  directives: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'", nonceSource, "https://www.google.com/recaptcha/", "https://www.gstatic.com/recaptcha/"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", "data:", "blob:", "https:"],
    fontSrc: ["'self'"],
    connectSrc: ["'self'"],
    frameSrc: ["https://www.google.com/recaptcha/", "https://recaptcha.google.com/recaptcha/"],
    workerSrc: ["'self'", "blob:"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
});

/**
 * The per-request CSP nonce (`res.locals.cspNonce`, handed to Remix through the load context) and
 * the policy naming it, for everything past the static files (which run no script of ours and
 * skip this work). Vite's dev server injects inline scripts without it: no CSP in development.
 */
export function securityHeaders({ csp }: { csp: boolean }): RequestHandler {
  return (req, res, next) => {
    res.locals.cspNonce = freshNonce();
    if (!csp) return next();
    // Hand-written: the app may widen one page's policy (analytics after consent) through Remix's
    // headers, which the adapter appends; browsers enforce every policy sent, so it must replace ours.
    const append = res.append.bind(res);
    res.append = (field, value) =>
      field.toLowerCase() === "content-security-policy" && value !== undefined ? res.set(field, value) : append(field, value);
    contentSecurityPolicy(req, res, next);
  };
}
