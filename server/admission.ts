import type { Request, RequestHandler, Response } from "express";
import type { RefusalWords } from "./refusal-texts";

/**
 * How much work the one event loop takes at once (decision 212, measured on this machine). A page
 * render is mostly synchronous JavaScript, so running more of them at once only makes each one
 * slower and the heap larger; past `maxInFlight` requests wait in a queue. A page is refused (a 503
 * with Retry-After at once, in the visitor's language) when the wait it can expect (the requests
 * ahead of it times the measured time a page takes, per place) is past `maxWaitMs`, not by a fixed
 * count of waiting requests (decision 330). The result page of a draw already stored is never refused.
 */
export interface AdmissionLimits {
  maxInFlight: number;
  /** A hard bound on waiting pages (memory), far above what the expected wait lets in. */
  maxQueued: number;
  maxWaitMs: number;
  /**
   * The expected wait of a draw's result page past which a new draw is refused before it is made
   * (`drawsBackedUp`, asked by the draw action): a result page, once its draw is stored, waits as long as it takes.
   */
  priorityMaxWaitMs: number;
  retryAfterSeconds: number;
}

const DEFAULT_ADMISSION: AdmissionLimits = {
  maxInFlight: 2,
  maxQueued: 256,
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

/** Waiting requests of one kind, served in order. */
interface Line {
  waiting: Waiting[];
  /** How long one may wait before it is refused; Infinity: never refused. */
  maxWaitMs: number;
  maxQueued: number;
}

/** The first guess of a page's service time, before any was measured (an uncached page on this machine). */
const FIRST_SERVICE_MS = 20;
/**
 * How many of the latest service times the median is taken over: a median, not a mean, so that a
 * pause of the whole machine (a collection, a noisy neighbour) does not refuse the pages behind it.
 */
const SERVICE_SAMPLES = 32;

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
   * Whether the result page of one more draw, made now, would wait past `priorityMaxWaitMs`: the
   * result pages waiting, with the `pending` ones about to join them (draws being made, draws
   * answered whose page has not come yet), times the measured service time, per place. The draw
   * action then refuses the draw (nothing written), since a result page is never refused once its
   * draw is stored.
   */
  drawsBackedUp: (pending: number) => boolean;
  /** The median of the latest service times, in ms (what the expected wait is made of). */
  serviceMs: () => number;
};

/**
 * `priority`: requests that wait ahead of the others and are never refused: the result page of a
 * draw just made (server/recent-draws.ts), whose code the visitor must see once the draw is stored.
 * They take no more places than any page.
 */
export function admissionControl(
  limits: AdmissionLimits,
  words: RefusalWords,
  priority: (req: Request) => boolean = () => false,
): Admission {
  if (limits.maxInFlight <= 0)
    return Object.assign((_req: Request, _res: Response, next: () => void) => next(), {
      drawsBackedUp: () => false,
      serviceMs: () => 0,
    });
  let inFlight = 0;
  const samples: number[] = [];
  let slot = 0;
  let median: number | null = FIRST_SERVICE_MS;
  const serviceMs = () => {
    if (median === null) {
      // The first pages after a start are the slowest (nothing compiled yet): they alone say little.
      const sorted = [...samples].sort((a, b) => a - b);
      median = sorted.length < SERVICE_SAMPLES / 4 ? FIRST_SERVICE_MS : sorted[(sorted.length - 1) >> 1]!;
    }
    return median;
  };
  // First served first: results of draws, then other pages.
  const lines: Line[] = [
    { waiting: [], maxWaitMs: Infinity, maxQueued: Infinity },
    { waiting: [], maxWaitMs: limits.maxWaitMs, maxQueued: limits.maxQueued },
  ];
  /** The wait to expect behind `ahead` requests, each place serving one at a time. */
  const expectedWaitMs = (ahead: number) => ((ahead + 1) / limits.maxInFlight) * serviceMs();
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
    const started = performance.now();
    const leave = () => {
      if (left) return;
      left = true;
      inFlight--;
      samples[slot] = performance.now() - started;
      slot = (slot + 1) % SERVICE_SAMPLES;
      median = null;
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
    return expectedWaitMs(lines[0]!.waiting.length + pending) > limits.priorityMaxWaitMs;
  };

  const middleware = (req: Request, res: Response, next: () => void) => {
    if (exempt(req)) return next();
    if (inFlight < limits.maxInFlight) return admit(req, res, next);
    const first = priority(req);
    const line = lines[first ? 0 : 1]!;
    // A page waits behind the result pages and the pages before it.
    const ahead = first ? 0 : lines[0]!.waiting.length + line.waiting.length;
    if (!first && (line.waiting.length >= line.maxQueued || expectedWaitMs(ahead) > line.maxWaitMs)) return refuse(req, res);
    const waiting: Waiting = { req, res, next, since: Date.now(), gone: false };
    res.once("close", () => (waiting.gone = true));
    line.waiting.push(waiting);
    if (!sweeper) {
      sweeper = setInterval(sweep, SWEEP_MS);
      sweeper.unref();
    }
  };
  return Object.assign(middleware, { drawsBackedUp, serviceMs });
}
