import { SUPPORTED_LANGUAGES, type Language } from "./config";
import { languageOf } from "./language-rule";
import { resources } from "./resources.server";

/**
 * The words of the refusals the server answers before Remix (server/refusal-texts.ts, decision 262):
 * the `refusals` namespace of app/locales, read once into a table, and the app's own language rule.
 * A refusal costs a few string operations and a look-up: it is answered while the server is overloaded.
 */
/** The refusals the server answers before Remix. */
export type RefusalKey = "notFound" | "tooLarge" | "overloaded" | "badRequest" | "serverError";

/** What the language of a refusal depends on (header values as sent; `search` is the URL's query or ""). */
export interface RefusalRequest {
  method: string;
  search: string;
  cookie: string | undefined;
  acceptLanguage: string | undefined;
  contentType: string | undefined;
}

const TEXTS = Object.fromEntries(
  SUPPORTED_LANGUAGES.map((lng) => [lng, resources[lng]!.refusals as Record<RefusalKey, string>]),
) as Record<Language, Record<RefusalKey, string>>;

export function refusalText(request: RefusalRequest, key: RefusalKey): string {
  return TEXTS[languageOf(request)][key];
}
