import {
  createReadableStreamFromReadable,
  createRequestHandler,
  writeReadableStreamToWritable,
  type AppLoadContext,
  type ServerBuild,
} from "@remix-run/node";
import type { NextFunction, Request, Response } from "express";

/** Hands an Express request to Remix; `body` replays a body already read (the draw fast path). */
export type RemixHandler = (req: Request, res: Response, next: NextFunction, body?: Buffer) => Promise<void>;

/**
 * What @remix-run/express does, with one addition: a request whose body was already read before
 * Remix (server/draw-fast-path.ts) is handed over with that body.
 */
export function remixHandler(options: {
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode: string;
  getLoadContext: (req: Request, res: Response) => AppLoadContext;
}): RemixHandler {
  const handle = createRequestHandler(options.build, options.mode);
  return async (req, res, next, body) => {
    try {
      const response = await handle(toFetchRequest(req, res, body), options.getLoadContext(req, res));
      await send(res, response);
    } catch (error) {
      next(error);
    }
  };
}

function toFetchRequest(req: Request, res: Response, body?: Buffer): globalThis.Request {
  // req.hostname honours "trust proxy"; it has no port, so take it from X-Forwarded-Host or Host.
  const portOf = (host: string | undefined) => {
    const port = Number.parseInt(host?.split(":")[1] ?? "", 10);
    return Number.isSafeInteger(port) ? port : null;
  };
  const port = portOf(req.get("x-forwarded-host")) ?? portOf(req.get("host"));
  const url = new URL(`${req.protocol}://${req.hostname}${port ? `:${port}` : ""}${req.originalUrl}`);
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(key, v);
    else if (value !== undefined) headers.set(key, value);
  }
  // Loaders and actions are aborted when the client goes away before the answer is written.
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  // Already gone (while the draw fast path read the body or drew): nothing to render for.
  if (res.destroyed) controller.abort();
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal: controller.signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = body ? new Uint8Array(body) : createReadableStreamFromReadable(req);
    init.duplex = "half";
  }
  return new Request(url.href, init);
}

async function send(res: Response, response: globalThis.Response): Promise<void> {
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [key, value] of response.headers.entries()) {
    // The app may widen the policy for one page (analytics after consent): replace, never add a
    // second header (browsers would enforce both).
    if (key === "content-security-policy") res.setHeader(key, value);
    else res.append(key, value);
  }
  if (/text\/event-stream/i.test(response.headers.get("Content-Type") ?? "")) res.flushHeaders();
  if (response.body) await writeReadableStreamToWritable(response.body, res);
  else res.end();
}
