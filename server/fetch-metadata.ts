import type { RequestHandler } from "express";
import { refusalText } from "./refusal-texts";

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * A browser tells where a request comes from in `Sec-Fetch-Site`, even when it sends no Origin
 * (older engines, some redirects, privacy extensions that strip it). A write that the browser
 * itself marks as coming from another site is refused, whatever Origin says. `none` (typed or
 * bookmarked) and `same-origin` pass; `same-site` is another origin of the same site (a
 * subdomain), which is not us either. Requests without the header (non-browsers) pass on to the
 * Origin check.
 */
export function refuseCrossSiteFetchMetadata(): RequestHandler {
  return (req, res, next) => {
    if (READS.has(req.method)) return next();
    const site = req.get("sec-fetch-site")?.trim().toLowerCase();
    if (site === undefined || site === "same-origin" || site === "none") return next();
    res.status(403).type("text/plain; charset=utf-8").send(refusalText(req, "crossSite"));
  };
}
