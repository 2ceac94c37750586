import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { AppHooks } from "./app-hooks";
import type { RecentDraws } from "./recent-draws";
import type { RefusalWords } from "./refusal-texts";

/** `/{slug}/get-code/draw` and `/random/draw`: where the draw forms post (decision 041). */
const DRAW_ENDPOINT = /^(\/(?:[a-z0-9-]{1,60}\/get-code|random))\/draw$/;

/**
 * The draw endpoint: our own small HTTP route, answered here without Remix's request handling
 * (which costs several times the draw itself). The address says what to do, so the body is not read.
 * - Drawn: 303 to the signed result page; or, when the client asks for JSON (the enhanced form),
 *   200 `{"location": "<result page>"}`.
 * - Nothing drawn (no code, unknown or inactive platform, a draw that failed and rolled back, so
 *   nothing was written): 307 to the draw page, so the browser posts the same form to the route,
 *   whose action answers as before; with JSON, 200 `{"location": null}` and the enhanced form
 *   posts to the route itself.
 * - The draw failed (the database refused it for now: full, locked past its wait, file removed,
 *   decision 210; or anything else): never a second attempt. The page's action answers why (the
 *   request goes on to Remix, marked with what happened): a 503 with its message and Retry-After,
 *   or the general error page; with JSON, 503 (with Retry-After) or 500 `{"location": null}`.
 * Runs after the server's guards (cross-site writes are refused there). Each draw's result page is
 * noted in `overload.recentDraws`, so that admission control lets it wait ahead of other pages; while
 * those result pages wait too much (`overload.backedUp`), a draw is refused before anything is
 * written: 503 with Retry-After, the overload message in the visitor's language (decision 212).
 * An address past its draws (decision 298) gets 429 with Retry-After: with JSON at once, else from
 * the page's action, as for the database's refusals.
 */
export function drawEndpoint(
  hooks: () => Promise<AppHooks>,
  /** The client's address key (address-key.ts): its draws are counted (decision 298). */
  addressOf: (req: Request) => string,
  overload?: {
    recentDraws: RecentDraws;
    backedUp: (drawing: number) => boolean;
    retryAfterSeconds: number;
    words: RefusalWords;
  },
): RequestHandler {
  // Draws being made (their result pages will be asked next).
  let drawing = 0;
  return (req, res, next) => {
    if (req.method !== "POST") return next();
    const match = DRAW_ENDPOINT.exec(req.path);
    if (!match) return next();
    const page = match[1]!;
    const slug = page === "/random" ? null : page.slice(1, -"/get-code".length);
    req.resume(); // the form's body (`intent=draw`) says nothing the address does not
    if (overload?.backedUp(drawing)) {
      res.status(503).set({ "Retry-After": String(overload.retryAfterSeconds), "Cache-Control": "no-store" });
      if (req.accepts(["html", "json"]) === "json") return void res.json({ location: null });
      return void res.type("text/plain; charset=utf-8").end(overload.words(req, "overloaded"));
    }
    drawing++;
    hooks()
      .then(async (app) => {
        const location = await app.drawForPage(slug, addressOf(req));
        // Only this browser may answer about the draw (decision 315): its `draws` cookie.
        return { location, cookie: location ? await app.bindDraw(location, req.get("cookie"), addressOf(req)) : null };
      })
      .finally(() => drawing--)
      .then(
        ({ location, cookie }) => {
          overload?.recentDraws.note(location);
          res.set("Cache-Control", "no-store");
          if (cookie) res.append("Set-Cookie", cookie);
          if (req.accepts(["html", "json"]) === "json") res.status(200).json({ location });
          else
            res
              .status(location ? 303 : 307)
              .location(location ?? page)
              .end();
        },
        (error: unknown) => answerRefusedDraw(req, res, next, page, error),
      )
      .catch(next);
  };
}

/** A draw the database refused, or one past the address's limit: answered once, never drawn again (see drawEndpoint). */
function answerRefusedDraw(req: Request, res: Response, next: NextFunction, page: string, error: unknown) {
  const retryAfter = (error as { retryAfterSeconds?: unknown } | null)?.retryAfterSeconds;
  if (req.accepts(["html", "json"]) === "json") {
    res.set("Cache-Control", "no-store");
    // Too many draws (429), the database refused for now (503; both say when to come back), or
    // something else failed.
    const status = (error as { status?: unknown } | null)?.status === 429 ? 429 : 503;
    if (typeof retryAfter === "number") res.status(status).set("Retry-After", String(retryAfter));
    else res.status(500);
    return void res.json({ location: null });
  }
  // The page's action reads this (context.drawUnavailable) before anything else and answers the 503.
  res.locals.drawUnavailable = error;
  req.url = req.originalUrl = page;
  next();
}
