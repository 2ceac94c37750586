import { DatabaseUnavailable, runWrite } from "~db/availability.server";
import { getT } from "~/i18n/i18next.server";
import { failure } from "./responses.server";

/**
 * A page whose data cannot be read answers 503 with the message that names what failed
 * ('Erreur lors du chargement des plateformes'), in the visitor's language, rendered by the error
 * boundary; never a bare 500 or the generic text alone. `key` is `namespace:key`.
 */
export async function loadOrFail<T>(request: Request, key: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (error instanceof Response) throw error;
    console.error(`load failed (${key})`, error);
    const t = await getT(request, "common");
    throw failure(503, t(key), { headers: { "Retry-After": "30" } });
  }
}

/**
 * Runs a write through the one write path (runWrite: a lock held elsewhere is waited for without
 * blocking, a removed file refuses it); a failure is logged and turned into `ok: false`, for the
 * action to answer with its own message (a 503 with `headers`' Retry-After when the database is unavailable).
 */
export async function attemptWrite<T>(
  label: string,
  write: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; headers: Record<string, string> }> {
  try {
    return { ok: true, value: await runWrite(label, write) };
  } catch (error) {
    if (error instanceof Response) throw error;
    if (!(error instanceof DatabaseUnavailable)) console.error(`write failed (${label})`, error);
    return { ok: false, headers: { "Retry-After": String(error instanceof DatabaseUnavailable ? error.retryAfterSeconds : 30) } };
  }
}

/**
 * The 503 for a write the database refused for now (full, locked past the wait, read-only, removed):
 * the message names why, in the visitor's language, with Retry-After. Other errors pass unchanged.
 */
export async function unavailableAnswer(request: Request, error: unknown): Promise<unknown> {
  if (!(error instanceof DatabaseUnavailable)) return error;
  const t = await getT(request, "availability");
  return failure(503, t(`unavailable.${error.kind}`), { headers: { "Retry-After": String(error.retryAfterSeconds) } });
}

/** `write` through the one write path; a refusal of the database is thrown as its 503 (unavailableAnswer). */
export async function writeOrFail<T>(request: Request, label: string, write: () => Promise<T>): Promise<T> {
  try {
    return await runWrite(label, write);
  } catch (error) {
    throw await unavailableAnswer(request, error);
  }
}
