import type { Request } from "express";
import type { AppHooks, RefusalKey } from "./app-hooks";

/**
 * The words of the few refusals Express answers before Remix runs. The app words them, in the
 * language it would answer in (AppHooks.refusalText: its translations, its language rule), so the
 * server holds no text and no language detection of its own (decision 262). The hooks are loaded
 * before the server listens, so every refusal has them.
 */
export type RefusalWords = (req: Request, key: RefusalKey) => string;

export function refusalWordsOf(hooks: Pick<AppHooks, "refusalText">): RefusalWords {
  return (req, key) => {
    const query = req.originalUrl.indexOf("?");
    return hooks.refusalText(
      {
        method: req.method,
        search: query < 0 ? "" : req.originalUrl.slice(query),
        cookie: req.get("cookie"),
        acceptLanguage: req.get("accept-language"),
        contentType: req.get("content-type"),
      },
      key,
    );
  };
}
