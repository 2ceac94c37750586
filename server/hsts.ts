import type { RequestHandler } from "express";

/**
 * In production the site is only reached over HTTPS (Fly terminates TLS): browsers are told to
 * never try plain HTTP again for a year. No `includeSubDomains` or `preload`: the domain's other
 * hosts are not ours to commit. Browsers ignore the header on plain-HTTP answers.
 */
export function strictTransportSecurity(production: boolean): RequestHandler {
  return (_req, res, next) => {
    if (production) res.setHeader("Strict-Transport-Security", "max-age=31536000");
    next();
  };
}
