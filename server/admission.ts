import type { Request, RequestHandler, Response } from "express";
import { refusalText } from "./refusal-texts";

/**
 * How much work the one event loop takes at once (decision 212, measured on this machine). A page
 * render is mostly synchronous JavaScript, so running more of them at once only makes each one
 * slower and the heap larger; past `maxInFlight` requests wait in a short queue, and past the queue
 * (or past `maxWaitMs` in it) they get a 503 with Retry-After at once, in the visitor's language.
 */
export interface AdmissionLimits {
  maxInFlight: number;
  maxQueued: number;
  maxWaitMs: number;
  retryAfterSeconds: number;
}

const DEFAULT_ADMISSION: AdmissionLimits = { maxInFlight: 2, maxQueued: 32, maxWaitMs: 1_000, retryAfterSeconds: 5 };

/** The limits, each overridable by environment (benchmarks compare settings; 0 in-flight turns admission off). */
export function admissionLimitsFromEnv(env: NodeJS.ProcessEnv): AdmissionLimits {
  const read = (name: string, fallback: number) => {
    const value = Number(env[name]);
    return env[name] !== undefined && env[name] !== "" && Number.isInteger(value) && value >= 0 ? value : fallback;
  };
  return {
    maxInFlight: read("ADMISSION_MAX_IN_FLIGHT", DEFAULT_ADMISSION.maxInFlight),
    maxQueued: read("ADMISSION_MAX_QUEUED", DEFAULT_ADMISSION.maxQueued),
    maxWaitMs: read("ADMISSION_MAX_WAIT_MS", DEFAULT_ADMISSION.maxWaitMs),
    retryAfterSeconds: DEFAULT_ADMISSION.retryAfterSeconds,
  };
}

interface Waiting {
  req: Request;
  res: Response;
  next: () => void;
  since: number;
  gone: boolean;
}

/**
 * Only page renders wait for a place. Writes (a form's POST answers with a redirect, or a page
 * when refused) are bounded by the per-address rate limits and their own transaction batching, and
 * a write the visitor asked for is never thrown away for a page's sake. Event streams never end by
 * themselves, so they hold no place.
 */
const exempt = (req: Request) => (req.method !== "GET" && req.method !== "HEAD") || req.path.startsWith("/events/");

/** How often the queue is swept for requests waiting too long or whose client has gone. */
const SWEEP_MS = 100;

export function admissionControl(limits: AdmissionLimits): RequestHandler {
  if (limits.maxInFlight <= 0) return (_req, _res, next) => next();
  let inFlight = 0;
  let queue: Waiting[] = [];
  let sweeper: NodeJS.Timeout | undefined;

  const refuse = (req: Request, res: Response) => {
    if (res.headersSent || res.writableEnded) return;
    res.status(503).set({
      "Retry-After": String(limits.retryAfterSeconds),
      "Cache-Control": "no-store",
      "Content-Type": "text/plain; charset=utf-8",
    });
    res.end(refusalText(req, "overloaded"));
  };

  const admit = (req: Request, res: Response, next: () => void) => {
    inFlight++;
    // 'close' comes once the answer is sent or the connection is lost, whichever is first.
    res.once("close", () => {
      inFlight--;
      pump();
    });
    next();
  };

  // Starts waiting requests while there is room; skips those whose client has gone (never rendered).
  const pump = () => {
    const now = Date.now();
    while (inFlight < limits.maxInFlight && queue.length > 0) {
      const waiting = queue.shift()!;
      if (waiting.gone || waiting.req.socket.destroyed) continue;
      if (now - waiting.since > limits.maxWaitMs) refuse(waiting.req, waiting.res);
      else admit(waiting.req, waiting.res, waiting.next);
    }
    if (queue.length === 0 && sweeper) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
  };

  // Answers at once those that waited too long, even while every place is held by slow work.
  const sweep = () => {
    const deadline = Date.now() - limits.maxWaitMs;
    const kept: Waiting[] = [];
    for (const waiting of queue) {
      if (waiting.gone || waiting.req.socket.destroyed) continue;
      if (waiting.since < deadline) refuse(waiting.req, waiting.res);
      else kept.push(waiting);
    }
    queue = kept;
    pump();
  };

  return (req, res, next) => {
    if (exempt(req)) return next();
    if (inFlight < limits.maxInFlight) return admit(req, res, next);
    if (queue.length >= limits.maxQueued) return refuse(req, res);
    const waiting: Waiting = { req, res, next, since: Date.now(), gone: false };
    res.once("close", () => (waiting.gone = true));
    queue.push(waiting);
    if (!sweeper) {
      sweeper = setInterval(sweep, SWEEP_MS);
      sweeper.unref();
    }
  };
}
