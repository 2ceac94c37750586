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

/** Runs a write; a failure is logged and turned into `null`, for the action to answer with its own message. */
export async function attemptWrite<T>(label: string, write: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false }> {
  try {
    return { ok: true, value: await write() };
  } catch (error) {
    if (error instanceof Response) throw error;
    console.error(`write failed (${label})`, error);
    return { ok: false };
  }
}
