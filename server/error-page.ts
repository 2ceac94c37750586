import type { ErrorRequestHandler } from "express";
import type { RefusalWords } from "./refusal-texts";
import { redactedPath } from "./request-log";

/**
 * The last handler: whatever failed before or outside Remix (a malformed escape in the path that
 * Express cannot decode, a bug in a middleware) is answered with a plain page in the visitor's
 * language, never Express's default page, which prints the stack and absolute paths whenever
 * NODE_ENV is not `production` (as with a bare `npm start`). A client error (4xx) is not logged;
 * anything else is, once, on the server only.
 */
export function finalErrorHandler(log: (line: string) => void, words: RefusalWords): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    const declared = Number(
      (error as { status?: unknown; statusCode?: unknown } | null)?.status ??
        (error as { statusCode?: unknown } | null)?.statusCode,
    );
    const status = declared >= 400 && declared < 500 ? declared : 500;
    if (status >= 500)
      log(
        `[error] ${req.method} ${redactedPath(req.originalUrl).slice(0, 200)}: ${error instanceof Error ? error.stack : String(error)}`,
      );
    if (res.headersSent) {
      // Too late for a page: end the answer so the client sees it was cut.
      res.destroy();
      return;
    }
    res
      .status(status)
      .type("text/plain; charset=utf-8")
      .send(words(req, status === 404 ? "notFound" : status === 413 ? "tooLarge" : status < 500 ? "badRequest" : "serverError"));
  };
}
