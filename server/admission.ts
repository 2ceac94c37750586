import type { Request, RequestHandler, Response } from "express";
import type { RefusalWords } from "./refusal-texts";

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
  /** How long a page with priority (the result page of a draw just made) may wait, ahead of the others. */
  priorityMaxWaitMs: number;
  retryAfterSeconds: number;
}

const DEFAULT_ADMISSION: AdmissionLimits = {
  maxInFlight: 2,
  maxQueued: 32,
  maxWaitMs: 1_000,
  priorityMaxWaitMs: 5_000,
  retryAfterSeconds: 5,
};

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
    priorityMaxWaitMs: DEFAULT_ADMISSION.priorityMaxWaitMs,
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

/** Waiting requests of one kind, served in order, each at most `maxWaitMs`. */
interface Line {
  waiting: Waiting[];
  maxWaitMs: number;
  maxQueued: number;
}

/**
 * Only page renders wait for a place. Writes (a form's POST answers with a redirect, or a page
 * when refused) are bounded by the per-address rate limits and their own transaction batching, and
 * a write the visitor asked for is never thrown away for a page's sake. Event streams never end by
 * themselves, so they hold no place.
 */
const exempt = (req: Request) => (req.method !== "GET" && req.method !== "HEAD") || req.path.startsWith("/events/");

/**
 * Where an admitted request finds how to give its place back before it is answered: `res.locals`'
 * key for a function (handed to the app as `AppLoadContext.leaveAdmission`). A sitemap audit waits
 * seconds on another site, bounded by its own slots; holding a place meanwhile deadlocked an audit
 * of our own sitemap, whose request for /sitemap.xml waited behind the audit that made it.
 */
export const LEAVE_ADMISSION = "leaveAdmission";

/** How often the queue is swept for requests waiting too long or whose client has gone. */
const SWEEP_MS = 100;

export type Admission = RequestHandler & {
  /**
   * Whether the result pages of draws already wait too much for one more draw to be made now: every
   * place is taken and their line, with the `pending` result pages about to join it (draws being
   * made, draws answered whose page has not come yet), is a quarter full, or its first has waited a
   * fifth of its bound. The draw endpoint then refuses the draw (nothing written): a draw made while
   * its result page cannot be shown would be stored and counted for a visitor who never sees its code.
   */
  drawsBackedUp: (pending: number) => boolean;
};

/**
 * `priority`: requests that wait ahead of the others, up to `priorityMaxWaitMs`, in a line twice as
 * long as the other's: the result page of a draw just made (server/recent-draws.ts), whose code the
 * visitor must see once the draw is stored. They take no more places than any page.
 */
export function admissionControl(
  limits: AdmissionLimits,
  words: RefusalWords,
  priority: (req: Request) => boolean = () => false,
): Admission {
  if (limits.maxInFlight <= 0)
    return Object.assign((_req: Request, _res: Response, next: () => void) => next(), { drawsBackedUp: () => false });
  let inFlight = 0;
  // First served first: results of draws, then other pages.
  const lines: Line[] = [
    { waiting: [], maxWaitMs: limits.priorityMaxWaitMs, maxQueued: 2 * limits.maxQueued },
    { waiting: [], maxWaitMs: limits.maxWaitMs, maxQueued: limits.maxQueued },
  ];
  const waitingCount = () => lines[0]!.waiting.length + lines[1]!.waiting.length;
  let sweeper: NodeJS.Timeout | undefined;

  const refuse = (req: Request, res: Response) => {
    if (res.headersSent || res.writableEnded) return;
    res.status(503).set({
      "Retry-After": String(limits.retryAfterSeconds),
      "Cache-Control": "no-store",
      "Content-Type": "text/plain; charset=utf-8",
    });
    res.end(words(req, "overloaded"));
  };

  const admit = (req: Request, res: Response, next: () => void) => {
    inFlight++;
    let left = false;
    const leave = () => {
      if (left) return;
      left = true;
      inFlight--;
      pump();
    };
    // 'close' comes once the answer is sent or the connection is lost, whichever is first.
    res.once("close", leave);
    // A request about to wait long on another site gives its place back first (LEAVE_ADMISSION).
    res.locals[LEAVE_ADMISSION] = leave;
    next();
  };

  // Starts waiting requests while there is room, priority first; skips those whose client has gone
  // (never rendered).
  const pump = () => {
    const now = Date.now();
    for (const line of lines) {
      while (inFlight < limits.maxInFlight && line.waiting.length > 0) {
        const waiting = line.waiting.shift()!;
        if (waiting.gone || waiting.req.socket.destroyed) continue;
        if (now - waiting.since > line.maxWaitMs) refuse(waiting.req, waiting.res);
        else admit(waiting.req, waiting.res, waiting.next);
      }
    }
    if (waitingCount() === 0 && sweeper) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
  };

  // Answers at once those that waited too long, even while every place is held by slow work.
  const sweep = () => {
    const now = Date.now();
    for (const line of lines) {
      line.waiting = line.waiting.filter((waiting) => {
        if (waiting.gone || waiting.req.socket.destroyed) return false;
        if (now - waiting.since <= line.maxWaitMs) return true;
        refuse(waiting.req, waiting.res);
        return false;
      });
    }
    pump();
  };

  const drawsBackedUp = (pending: number) => {
    // A place free: result pages are rendered as they come.
    if (inFlight < limits.maxInFlight) return false;
    const results = lines[0]!;
    const first = results.waiting[0];
    return (
      results.waiting.length + pending >= results.maxQueued / 4 ||
      (first !== undefined && Date.now() - first.since > results.maxWaitMs / 5)
    );
  };

  const middleware = (req: Request, res: Response, next: () => void) => {
    if (exempt(req)) return next();
    if (inFlight < limits.maxInFlight) return admit(req, res, next);
    const line = lines[priority(req) ? 0 : 1]!;
    if (line.waiting.length >= line.maxQueued) return refuse(req, res);
    const waiting: Waiting = { req, res, next, since: Date.now(), gone: false };
    res.once("close", () => (waiting.gone = true));
    line.waiting.push(waiting);
    if (!sweeper) {
      sweeper = setInterval(sweep, SWEEP_MS);
      sweeper.unref();
    }
  };
  return Object.assign(middleware, { drawsBackedUp });
}
