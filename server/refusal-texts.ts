import type { Request } from "express";
import { refusalText, type RefusalKey } from "~/i18n/refusals.server";

/**
 * The words of the few refusals Express answers before Remix runs. The app words them, in the
 * language it would answer in (its translations, its language rule), so the server holds no text
 * and no language detection of its own (decision 262).
 */
export type RefusalWords = (req: Request, key: RefusalKey) => string;

export const refusalWords: RefusalWords = (req, key) => {
  const query = req.originalUrl.indexOf("?");
  return refusalText(
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
