import { badRequest } from "./responses.server";

/**
 * The `intent` a form posts, read once against the route's one list of intents:
 *
 *     const INTENTS = ["update", "delete"] as const;
 *     const intent = await parseIntent(request, form, INTENTS);
 *     switch (intent) { case "update": …; case "delete": …; default: return assertUnreachable(intent); }
 *
 * Anything else (no intent, an unknown one) throws `badRequest`: a 400 that changes nothing. `key`
 * is the message that 400 carries (a page's own "unknown action" text), `common:errors.badRequest` by default.
 */
export async function parseIntent<const T extends readonly string[]>(
  request: Request,
  form: FormData,
  intents: T,
  key?: string,
): Promise<T[number]> {
  const intent = form.get("intent");
  if (typeof intent === "string" && intents.includes(intent)) return intent;
  throw await badRequest(request, key);
}

/** The default branch of a switch that has a case for every intent: TypeScript refuses it when one is missing. */
export function assertUnreachable(value: never): never {
  throw new Error(`Unhandled case: ${String(value)}`);
}
