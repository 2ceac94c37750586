import { DatabaseUnavailable, retryAfterSecondsOf, unavailableKindOf } from "~db/availability.server";
import { getT } from "~/i18n/i18next.server";
import { failure } from "./responses.server";
import { redactedPath } from "../../server/request-log";

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
 * The 503 for a write the database refused for now (full, locked past the wait, read-only, removed):
 * the message names why, in the visitor's language, with Retry-After. Other errors pass unchanged.
 */
export async function unavailableAnswer(request: Request, error: unknown): Promise<unknown> {
  if (!(error instanceof DatabaseUnavailable)) return error;
  const t = await getT(request, "availability");
  return failure(503, t(`unavailable.${error.kind}`), { headers: { "Retry-After": String(error.retryAfterSeconds) } });
}

/**
 * The last net under every loader and action (decision 304): an error that says the database is
 * unavailable for now (a lock held elsewhere, a full disk, PostgreSQL out of reach) escaping a
 * route becomes a 503 with Retry-After and the message that names why, in the visitor's language:
 * never the generic 500. What the routes answer themselves (their own named 503s) passes unchanged,
 * as does any other error.
 */
async function databaseFailureAnswer(request: Request, error: unknown): Promise<unknown> {
  if (error instanceof Response) return error;
  const kind = unavailableKindOf(error);
  if (kind === null) return error;
  // One line, no stack: during an outage every request says it, and the stack says nothing more.
  const detail = error instanceof Error ? error.message : String(error);
  console.error(
    `[db] ${request.method} ${redactedPath(new URL(request.url).pathname)}: database unavailable (${kind}): ${detail}`,
  );
  const reading = request.method === "GET" || request.method === "HEAD";
  const retryAfter = String(retryAfterSecondsOf(error));
  const t = await getT(request, reading ? "common" : "availability");
  return failure(503, t(reading ? "errors.load.generic" : `unavailable.${kind}`), { headers: { "Retry-After": retryAfter } });
}

const NETTED = Symbol("database failures answered");

/**
 * A route's loader or action with the last net around it (decision 304): every route declares its
 * loader and action through it, `export const loader = withDatabaseNet(async ({ request }) => …)`,
 * so a reader sees the net where the route is written (Remix 2 has no middleware to hold it).
 */
export function withDatabaseNet<Args extends { request: Request }, Result>(
  fn: (args: Args) => Result | Promise<Result>,
): (args: Args) => Promise<Result> {
  const netted = async (args: Args): Promise<Result> => {
    try {
      return await fn(args);
    } catch (error) {
      throw await databaseFailureAnswer(args.request, error);
    }
  };
  return Object.assign(netted, { [NETTED]: true });
}

/** Whether `fn` was made by withDatabaseNet (the test that every route declares its net). */
export function hasDatabaseNet(fn: unknown): boolean {
  return typeof fn === "function" && (fn as unknown as Record<symbol, unknown>)[NETTED] === true;
}
