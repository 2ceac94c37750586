import type { Readable } from "node:stream";
import { finished } from "node:stream";
import {
  createReadableStreamFromReadable,
  createRequestHandler as createRemixHandler,
  type AppLoadContext,
  type ServerBuild,
} from "@remix-run/node";
import type { NextFunction, Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from "express";

/** Set by app/utils/node-body.server.ts on a page's body: the Node stream React renders into. */
const NODE_BODY = Symbol.for("parrainly.node-body");

/**
 * Remix's Express adapter (@remix-run/express 2.17), with one difference: a page whose body
 * carries the Node stream React renders into (app/utils/node-body.server.ts) is piped from that
 * stream to the socket, instead of being read back, chunk by chunk, through the web stream Remix's
 * API returns. Any other body goes the adapter's way (decision 240).
 */
export function createRequestHandler(options: {
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode: string;
  getLoadContext: (req: ExpressRequest, res: ExpressResponse) => AppLoadContext;
}): RequestHandler {
  const handleRequest = createRemixHandler(options.build, options.mode);
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    try {
      const response = await handleRequest(remixRequest(req, res), options.getLoadContext(req, res));
      await sendResponse(res, response);
    } catch (error) {
      // Express doesn't support async functions: the error goes on through next().
      next(error);
    }
  };
}

/** The web Request Remix reads, as the adapter builds it; aborted when the client goes before the answer is sent. */
function remixRequest(req: ExpressRequest, res: ExpressResponse): Request {
  // req.hostname respects "trust proxy"; the port comes from X-Forwarded-Host, else Host.
  const forwardedPort = Number.parseInt(req.get("X-Forwarded-Host")?.split(":")[1] ?? "", 10);
  const hostPort = Number.parseInt(req.get("host")?.split(":")[1] ?? "", 10);
  const port = Number.isSafeInteger(forwardedPort) ? forwardedPort : Number.isSafeInteger(hostPort) ? hostPort : "";
  const url = `${req.protocol}://${req.hostname}${port ? `:${port}` : ""}${req.originalUrl}`;
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (!value) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(key, v);
    else headers.set(key, value);
  }
  let controller: AbortController | null = new AbortController();
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal: controller.signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = createReadableStreamFromReadable(req);
    init.duplex = "half";
  }
  res.on("finish", () => (controller = null));
  res.on("close", () => controller?.abort());
  return new Request(url, init);
}

async function sendResponse(res: ExpressResponse, response: Response): Promise<void> {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [key, value] of response.headers.entries()) res.append(key, value);
  if (/text\/event-stream/i.test(response.headers.get("Content-Type") ?? "")) res.flushHeaders();
  const body = response.body;
  if (!body) {
    res.end();
    return;
  }
  const source = (body as unknown as { [NODE_BODY]?: Readable })[NODE_BODY];
  if (source && !body.locked) {
    await pipePage(source, res);
    return;
  }
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
      // An event stream's chunks go out at once.
      (res as unknown as { flush?: () => void }).flush?.();
    }
    res.end();
  } catch (error) {
    res.destroy(error as Error);
    throw error;
  }
}

/**
 * The page's bytes from React's stream to the socket. What `pipeline` does, without the
 * AbortController and the DOMException it makes for every page (about 1 % of an uncached page's
 * CPU): a visitor who leaves mid-page destroys the source, which stops rendering; nothing to answer
 * and nothing to report then. Any other error is the caller's.
 */
function pipePage(source: Readable, res: ExpressResponse): Promise<void> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const settle = (error?: Error) => {
      if (settled) return;
      settled = true;
      if (error) reject(error);
      else resolve();
    };
    finished(source, { writable: false }, (error) => {
      if (!error) return;
      // The render failed after its first bytes (React has reported it): end the answer there.
      res.destroy(error);
      settle(error);
    });
    finished(res, (error) => {
      if (!error) return settle();
      source.destroy();
      // The visitor left before the end of the page.
      if ((error as NodeJS.ErrnoException).code === "ERR_STREAM_PREMATURE_CLOSE" && !res.writableFinished) return settle();
      settle(error);
    });
    const socket = res.socket;
    if (socket) {
      // Node's own cork lasts until the next tick, so the chunked answer's last piece ("0\r\n\r\n",
      // written by `end`, which comes a tick after the last bytes) went out in a system call of its
      // own. Corked until the end of this turn of the event loop instead, a page goes out in one
      // `writev`: `end` uncorks the socket fully, and so does this if the page goes on streaming.
      source.on("data", () => {
        if (socket.writableCorked) return;
        socket.cork();
        setImmediate(() => socket.uncork());
      });
    }
    source.pipe(res);
  });
}
