import type { RequestHandler } from "express";
import type { RefusalWords } from "./refusal-texts";

/**
 * No page of the site has a backslash in its path. An encoded one right after the first slash
 * (`/%5C`) makes the router read the path as `//host` and throw while rendering (a 500), so any
 * path holding one is answered 404 here, before Remix.
 */
export function refuseBackslashPaths(words: RefusalWords): RequestHandler {
  return (req, res, next) => {
    if (!/%5c|\\/i.test(req.path)) return next();
    res.status(404).type("text/plain; charset=utf-8").send(words(req, "notFound"));
  };
}
