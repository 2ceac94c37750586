import type { RequestHandler } from "express";
import { encode } from "turbo-stream";
import type { AppHooks } from "./app-hooks";
import type { RemixHandler } from "./remix";

/** `/{slug}/get-code` or `/random`, and their `.data` twins (the request Remix's enhanced form sends). */
const DRAW_FORM = /^\/(?:([a-z0-9-]{1,60})\/get-code|random)(\.data)?$/;
/** A draw form's body is `intent=draw`; anything much longer is not one. */
const MAX_BODY = 1024;

/**
 * The draw form's POST without Remix's request handling, which costs several times the draw
 * itself (decision 010): when the form draws, this answers as the route's action would —
 * 303 to the signed result page, or for a `.data` request Remix's single-fetch redirect (202,
 * turbo-stream) — and Remix never sees the request. Anything else (nothing to draw, an unknown or
 * inactive platform, another intent, another encoding) goes to Remix untouched, with the body
 * already read handed over, so the route's action answers it: a miss writes nothing, so asking
 * the action again is safe; so is a draw that throws, which rolled back. Runs after the server's
 * guards (cross-site writes are refused there).
 */
export function drawFastPath(remix: RemixHandler, hooks: () => Promise<AppHooks>): RequestHandler {
  return (req, res, next) => {
    if (req.method !== "POST") return next();
    const match = DRAW_FORM.exec(req.path);
    const length = Number(req.get("content-length"));
    if (!match || !(length > 0 && length <= MAX_BODY) || !req.is("application/x-www-form-urlencoded")) return next();
    const slug = match[1] ?? null;
    const singleFetch = match[2] !== undefined;
    readBody(req)
      .then(async (body) => {
        if (!body) return; // the client went away before sending its form: nothing to answer
        let location: string | null = null;
        if (new URLSearchParams(body.toString("utf8")).get("intent") === "draw") {
          // A draw that throws wrote nothing (its transaction rolled back): the route's action tries
          // again and, if it fails too, answers with the visitor's error page and the error log line.
          location = await hooks()
            .then((app) => app.drawForPage(slug))
            .catch(() => null);
        }
        if (location === null) return remix(req, res, next, body);
        if (!singleFetch) {
          res.status(303).location(location).end();
          return;
        }
        // What Remix answers for an action's redirect on a single-fetch request.
        const payload = await singleFetchRedirect(location);
        res
          .status(202)
          .location(location)
          .set({ "Content-Type": "text/x-script; charset=utf-8", "X-Remix-Response": "yes" })
          .end(payload);
      })
      .catch(next);
  };
}

/** The whole body, or null when the client goes away first. */
function readBody(req: Parameters<RequestHandler>[0]): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.once("end", () => resolve(Buffer.concat(chunks)));
    req.once("error", () => resolve(null));
    req.once("close", () => resolve(null)); // after "end", a no-op
  });
}

async function singleFetchRedirect(location: string): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  const stream = encode({ redirect: location, status: 303, revalidate: false, reload: false, replace: false });
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk);
  return Buffer.concat(chunks);
}
