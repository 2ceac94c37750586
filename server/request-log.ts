import type { RequestHandler } from "express";

/**
 * The address as a log may show it (issue 56): an owner's private link (`/my-code/{token}`, its
 * `.data` twin included) and a draw's token (`draw=` in the query) are secrets, replaced by `[token]`.
 */
export function redactedPath(url: string): string {
  return url
    .replace(/(\/my-code\/)[^/?#.]+/gi, "$1[token]")
    .replace(/([?&](?:draw|token)=)[^&#]*/gi, "$1[token]")
    .replace(/(%2Fmy-code%2F)[^%&#]+/gi, "$1[token]");
}

/** One line per answered request: method, address (tokens redacted), status, time. */
export function requestLog(log: (line: string) => void): RequestHandler {
  return (req, res, next) => {
    const start = process.hrtime.bigint();
    res.on("finish", () => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      log(`${req.method} ${redactedPath(req.originalUrl)} ${res.statusCode} ${ms.toFixed(1)}ms`);
    });
    next();
  };
}
