import fs from "node:fs";
import path from "node:path";

/**
 * Why the database refuses writes for now (decision 210):
 * - `full`: no space left (SQLITE_FULL; PostgreSQL 53100 disk_full);
 * - `busy`: another process holds the write lock past our budget (SQLITE_BUSY/LOCKED; 55P03, 55006,
 *   and 40001/40P01 once their retries are spent);
 * - `readonly`: the file or the server refuses writes (SQLITE_READONLY, 25006);
 * - `io`: the disk or the server failed (SQLITE_IOERR, SQLITE_CANTOPEN; 57P01-57P03, 08xxx);
 * - `gone`: the database file was removed or replaced while the server ran (until a restart).
 */
export type UnavailableKind = "full" | "busy" | "readonly" | "io" | "gone";

const RETRY_AFTER_SECONDS: Record<UnavailableKind, number> = { busy: 5, full: 60, readonly: 60, io: 30, gone: 300 };

/** A write refused for a reason the visitor can do nothing about: answered 503 with Retry-After. */
export class DatabaseUnavailable extends Error {
  readonly retryAfterSeconds: number;
  constructor(
    readonly kind: UnavailableKind,
    options?: { cause?: unknown },
  ) {
    super(`database unavailable (${kind})`, options);
    this.name = "DatabaseUnavailable";
    this.retryAfterSeconds = RETRY_AFTER_SECONDS[kind];
  }
}

/** Node's codes for a server that cannot be reached or stopped answering (the pg driver passes them on). */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
]);

/** pg's own words for a connection lost or never made (no code): the pool's timeout, a server gone mid-query. */
function isLostConnection(error: unknown): boolean {
  const message = error instanceof Error ? error.message : "";
  return /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/.test(
    message,
  );
}

/** What a database error means for a write: a kind to answer with, `retry` (run it again), or null (a bug, a constraint). */
function classifyDatabaseError(error: unknown): UnavailableKind | "retry" | null {
  if (error instanceof DatabaseUnavailable) return error.kind;
  const code = (error as { code?: unknown } | null)?.code;
  // PostgreSQL out of reach (stopped, restarting, the network): the driver's own errors, no SQLSTATE.
  if (typeof code === "string" && NETWORK_CODES.has(code)) return "io";
  if (typeof code !== "string") return isLostConnection(error) ? "io" : null;
  if (code.startsWith("SQLITE_")) {
    if (code.startsWith("SQLITE_FULL")) return "full";
    if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED")) return "retry";
    if (code === "SQLITE_READONLY_DBMOVED") return "gone";
    if (code.startsWith("SQLITE_READONLY")) return "readonly";
    if (code.startsWith("SQLITE_IOERR") || code.startsWith("SQLITE_CANTOPEN")) return "io";
    return null;
  }
  if (code === "53100") return "full";
  if (code === "40001" || code === "40P01" || code === "55P03" || code === "55006") return "retry";
  if (code === "25006") return "readonly";
  if (/^57P0[1-3]$/.test(code) || code.startsWith("08") || code === "53300") return "io";
  return null;
}

/**
 * Why a failed statement says the database is unavailable for now (locked, full, read-only, out of
 * reach), or null when it says nothing of the kind (a bug, a constraint): for a read or a write that
 * escaped the write path, answered 503 instead of 500 (decision 304).
 */
export function unavailableKindOf(error: unknown): UnavailableKind | null {
  const kind = classifyDatabaseError(error);
  return kind === "retry" ? "busy" : kind;
}

/**
 * The Retry-After, in seconds, for a request the database failed: its kind's when the error says the
 * database is unavailable for now, else 30 (a failure of ours, worth a later try all the same).
 */
export function retryAfterSecondsOf(error: unknown): number {
  if (error instanceof DatabaseUnavailable) return error.retryAfterSeconds;
  const kind = unavailableKindOf(error);
  return kind === null ? 30 : RETRY_AFTER_SECONDS[kind];
}

/** How long a write may wait, in total, for a lock another process holds before its 503. */
const LOCK_BUDGET_MS = 2_000;
/** While the lock is held elsewhere, one write tries again this often; the others wait their turn, asynchronously. */
const LOCK_RETRY_MS = 50;

interface Waiter {
  deadline: number;
  resolve: (turn: boolean) => void;
}

/**
 * While another process holds the write lock: writes wait here without blocking the event loop.
 * Each tick lets one of them try (a scout); the first success lets them all go. So a lock held
 * for seconds costs one short busy wait per tick, not one per waiting write.
 */
const lock: { contended: boolean; waiters: Waiter[]; ticker: NodeJS.Timeout | null } = {
  contended: false,
  waiters: [],
  ticker: null,
};

function tick() {
  lock.ticker = null;
  const now = Date.now();
  const expired = lock.waiters.filter((w) => w.deadline <= now);
  lock.waiters = lock.waiters.filter((w) => w.deadline > now);
  for (const waiter of expired) waiter.resolve(false);
  lock.waiters.shift()?.resolve(true);
  if (lock.waiters.length > 0) lock.ticker = setTimeout(tick, LOCK_RETRY_MS);
}

/** Resolves true when this write may try again, false once its budget is spent. */
function waitForTurn(deadline: number): Promise<boolean> {
  return new Promise((resolve) => {
    lock.waiters.push({ deadline, resolve });
    lock.ticker ??= setTimeout(tick, LOCK_RETRY_MS);
  });
}

function lockFree() {
  if (!lock.contended) return;
  lock.contended = false;
  if (lock.ticker) clearTimeout(lock.ticker);
  lock.ticker = null;
  const waiting = lock.waiters;
  lock.waiters = [];
  for (const waiter of waiting) waiter.resolve(true);
}

/** What a write the database refused for now gives its caller with `{ refused: "result" }`. */
export type WriteResult<T> = { ok: true; value: T } | { ok: false; headers: Record<string, string> };

/**
 * How a caller of `runWrite` takes a refusal: thrown (none given: a `DatabaseUnavailable`, which the
 * routes' net answers as a 503 with Retry-After and the message that names why), as a result
 * (`"result"`), as its own answer (a function of the Retry-After headers), or skipped (`"skip"`: a
 * write that can wait for a later request, such as renewing a session, neither waits for a lock nor
 * fails the request that asked; it resolves false).
 */
export type WriteRefusal<R> = "result" | "skip" | ((headers: Record<string, string>) => R);

/**
 * The one write helper (decision 210, docs/conventions.md): every write goes through it. Runs
 * `write` (a whole transaction, so it can run again); a lock held by another process is waited for
 * asynchronously, up to LOCK_BUDGET_MS; a full disk, a read-only file, a failing disk, a removed
 * database file become `DatabaseUnavailable`. With `refused`, that refusal, or any other failure of
 * the write (logged), is given back as the caller asked instead of thrown; a thrown Response passes.
 */
export async function runWrite<T>(label: string, write: () => Promise<T>): Promise<T>;
export async function runWrite<T>(label: string, write: () => Promise<T>, refused: "result"): Promise<WriteResult<T>>;
export async function runWrite(label: string, write: () => Promise<unknown>, refused: "skip"): Promise<boolean>;
export async function runWrite<T, R>(
  label: string,
  write: () => Promise<T>,
  refused: (headers: Record<string, string>) => R,
): Promise<T | R>;
export async function runWrite<T, R>(label: string, write: () => Promise<T>, refused?: WriteRefusal<R>): Promise<unknown> {
  if (refused === undefined) return writeWithLockWait(label, write);
  if (refused === "skip") {
    try {
      await write();
      return true;
    } catch (error) {
      if (classifyDatabaseError(error) === null) throw error;
      return false;
    }
  }
  try {
    const value = await writeWithLockWait(label, write);
    return refused === "result" ? { ok: true, value } : value;
  } catch (error) {
    if (error instanceof Response) throw error;
    if (!(error instanceof DatabaseUnavailable)) console.error(`write failed (${label})`, error);
    const headers = { "Retry-After": String(retryAfterSecondsOf(error)) };
    return refused === "result" ? { ok: false, headers } : refused(headers);
  }
}

async function writeWithLockWait<T>(label: string, write: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + LOCK_BUDGET_MS;
  for (;;) {
    if (lock.contended && !(await waitForTurn(deadline))) throw noteRefusal(label, new DatabaseUnavailable("busy"));
    assertFileInPlace();
    try {
      const value = await write();
      // A write that went into a file removed meanwhile is lost: never acknowledge it.
      assertFileInPlace();
      noteWriteSucceeded();
      lockFree();
      return value;
    } catch (error) {
      const kind = classifyDatabaseError(error);
      if (kind === null) throw error;
      if (kind === "retry") {
        lock.contended = true;
        if (Date.now() < deadline) continue;
      }
      throw noteRefusal(
        label,
        error instanceof DatabaseUnavailable
          ? error
          : new DatabaseUnavailable(kind === "retry" ? "busy" : kind, { cause: error }),
      );
    }
  }
}

function noteRefusal(label: string, error: DatabaseUnavailable): DatabaseUnavailable {
  noteWriteFailed(label, error);
  return error;
}

// ---- What /healthz reports, from memory -------------------------------------------------------

interface FileIdentity {
  file: string;
  dev: number;
  ino: number;
}

const state: {
  file: FileIdentity | null;
  gone: boolean;
  /** The last write failure that makes the site unhealthy until a write (or a probe) succeeds. */
  failing: { kind: Exclude<UnavailableKind, "busy" | "gone">; since: number } | null;
  log: (line: string) => void;
} = { file: null, gone: false, failing: null, log: (line) => console.error(line) };

/** Remembers which file the server's connection opened, to notice when its path no longer leads to it. */
export function rememberDatabaseFile(file: string): void {
  const stat = fs.statSync(file);
  state.file = { file: path.resolve(file), dev: stat.dev, ino: stat.ino };
  state.gone = false;
}

/** Where `log` lines about the database's health go (the server's log). */
export function setAvailabilityLog(log: (line: string) => void): void {
  state.log = log;
}

function fileInPlace(identity: FileIdentity): boolean {
  try {
    const stat = fs.statSync(identity.file);
    return stat.dev === identity.dev && stat.ino === identity.ino;
  } catch {
    return false;
  }
}

/** One stat of the path (a few microseconds): a write into a removed or replaced file is lost on restart. */
function assertFileInPlace(): void {
  if (state.gone) throw new DatabaseUnavailable("gone");
  if (state.file && !fileInPlace(state.file)) {
    markGone();
    throw new DatabaseUnavailable("gone");
  }
}

function markGone() {
  if (state.gone) return;
  state.gone = true;
  state.log(
    `[db] ALERT: the database file ${state.file?.file} was removed or replaced while the server runs: ` +
      "writes are refused and /healthz answers 503. Stop the server and restore a backup (npm run db:restore).",
  );
}

function noteWriteSucceeded() {
  if (state.failing) state.log(`[db] writes succeed again (after ${state.failing.kind})`);
  state.failing = null;
}

function noteWriteFailed(label: string, error: DatabaseUnavailable) {
  const cause = error.cause instanceof Error ? error.cause.message : "";
  state.log(`[db] write refused (${label}): ${error.kind}${cause ? `: ${cause}` : ""}`);
  if (error.kind === "busy" || error.kind === "gone") return;
  state.failing ??= { kind: error.kind, since: Date.now() };
}

/** The state /healthz reports: cheap, from memory, never a query. */
export function databaseHealth(): { ok: true } | { ok: false; reason: string } {
  if (state.gone) return { ok: false, reason: "database file removed or replaced" };
  if (state.failing) return { ok: false, reason: `writes failing (${state.failing.kind})` };
  return { ok: true };
}

/**
 * Every `intervalMs`: checks that the path still leads to the open file, and while writes fail for
 * want of space (or a failing disk), asks `probe` whether they would succeed now, so that health
 * recovers without a visitor's write. Unref'd; the returned function stops it.
 */
export function watchDatabase(probe: () => Promise<boolean>, intervalMs = 2_000): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    if (state.file && !state.gone && !fileInPlace(state.file)) markGone();
    if (!state.failing || state.gone) return;
    running = true;
    probe()
      .then((ok) => {
        if (ok) noteWriteSucceeded();
      })
      .catch(() => {})
      .finally(() => (running = false));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
