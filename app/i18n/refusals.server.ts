import type { RefusalKey, RefusalRequest } from "../../server/app-hooks";
import { SUPPORTED_LANGUAGES, type Language } from "./config";
import { languageOf } from "./language-rule";
import { resources } from "./resources.server";

/**
 * The words of the refusals the server answers before Remix (AppHooks.refusalText, decision 262):
 * the `refusals` namespace of app/locales, read once into a table, and the app's own language rule.
 * A refusal costs a few string operations and a look-up: it is answered while the server is overloaded.
 */
const TEXTS = Object.fromEntries(
  SUPPORTED_LANGUAGES.map((lng) => [lng, resources[lng]!.refusals as Record<RefusalKey, string>]),
) as Record<Language, Record<RefusalKey, string>>;

export function refusalText(request: RefusalRequest, key: RefusalKey): string {
  return TEXTS[languageOf(request)][key];
}
