import type { ErrorRequestHandler, Request, RequestHandler, Response } from "express";
import type { RefusalWords } from "./refusal-texts";
import { isAdminPath, normalizedPathOf } from "./request-path";

/**
 * Body size caps (decision 110): a form is a few hundred bytes, so 64 KB is generous; a logo
 * upload (multipart, under /admin only: no other form takes one) is capped by the app at 512 KB
 * per file, so 2 MB leaves room for the form around it. A declared length over the cap is refused before a byte is read; a chunked body
 * (no declared length) is counted as it arrives and refused as soon as it passes the cap.
 * Hand-written: body-parser's `limit` holds only for a body it reads itself, and Remix reads the
 * request stream itself (`request.formData()`), so the cap has to count what passes on to Remix.
 */
const MAX_FORM_BYTES = 64 * 1024;
const MAX_UPLOAD_BYTES = 2 * 1024 * 1024;
/** A body the route did not read is read and dropped after the answer, for this long at most. */
const DRAIN_TIMEOUT_MS = 10_000;

const REFUSED = "requestBodyRefused";
const noop = () => {};

export function limitRequestBodies(words: RefusalWords): RequestHandler {
  return (req, res, next) => {
    const declared = req.headers["content-length"];
    const chunked = req.headers["transfer-encoding"] !== undefined;
    if ((declared === undefined || declared === "0") && !chunked) return next();
    const upload = /^\s*multipart\/form-data/i.test(req.get("content-type") ?? "") && isAdminPath(normalizedPathOf(req));
    const cap = upload ? MAX_UPLOAD_BYTES : MAX_FORM_BYTES;
    // A failure on a refused or abandoned body is handled here, never an uncaught 'error' event.
    req.on("error", noop);
    drainUnreadBodyAfterAnswer(req, res);
    if (Number(declared) > cap) return refuse(req, res, words);
    if (chunked) countChunkedBody(req, res, cap, words);
    next();
  };
}

/**
 * A route that answers without reading the body (logout, a refusal) would leave the rest of it on
 * the connection: Node stops reading the socket while the body waits, so the next request on that
 * keep-alive connection would stall. After the answer, the rest is read and dropped; a client that
 * keeps sending past the drain time loses the connection.
 */
function drainUnreadBodyAfterAnswer(req: Request, res: Response) {
  res.once("finish", () => {
    if (req.complete || res.locals[REFUSED]) return;
    req.removeAllListeners("data");
    req.on("data", noop);
    req.resume();
    const timer = setTimeout(() => req.socket?.destroy(), DRAIN_TIMEOUT_MS);
    timer.unref();
    req.once("end", () => clearTimeout(timer));
    req.once("close", () => clearTimeout(timer));
  });
}

function countChunkedBody(req: Request, res: Response, cap: number, words: RefusalWords) {
  let seen = 0;
  const push = req.push;
  // The HTTP parser hands each piece of the body to push(): counting there refuses the body as soon
  // as it passes the cap, before anyone downstream has buffered it. Returning false pauses the socket.
  req.push = function (chunk: unknown, encoding?: BufferEncoding) {
    if (chunk !== null && chunk !== undefined) {
      if (res.locals[REFUSED]) return false;
      seen += (chunk as Buffer).length;
      if (seen > cap) {
        refuse(req, res, words);
        return false;
      }
    }
    return push.call(this, chunk, encoding);
  };
}

/** 413 and the connection closes after it: the rest of the body is never read. */
function refuse(req: Request, res: Response, words: RefusalWords) {
  res.locals[REFUSED] = true;
  // A reader already waiting for this body (Remix) gets an error, not a truncated body.
  res.once("close", () => req.destroy(new Error("request body over the size cap")));
  if (res.headersSent) {
    req.socket?.destroy();
    return;
  }
  res.status(413).set("Connection", "close").type("text/plain; charset=utf-8").send(words(req, "tooLarge"));
}

/**
 * A route still reading a body refused above fails later, when its answer can no longer be sent:
 * that failure is expected and not logged as a server error.
 */
export function ignoreFailuresAfterBodyRefusal(): ErrorRequestHandler {
  return (error, _req, res, next) => {
    if (res.locals[REFUSED]) return;
    next(error);
  };
}
