import type { EntryContext } from "@remix-run/node";
import { PAGE_CACHE_HEADER } from "../../server/page-cache-header";
import { PAGE_COOKIES } from "./cookies.server";

/** What a route's `handle` may say: `pageCache: false` keeps its pages (and its children's) out of the page cache. */
export interface PageCacheHandle {
  pageCache?: false;
}

/**
 * Tells the server's page cache (server/page-cache.ts) that this page may be kept a few seconds for
 * visitors who would get the same bytes, and which cookies those bytes depend on. Not for a write's
 * answer, an error, a page that asks not to be stored (`Cache-Control: no-store`, such as an owner's
 * private page), nor a route whose handle says `pageCache: false` (the admin's).
 */
export function markKeepablePage(request: Request, status: number, headers: Headers, context: EntryContext): void {
  if (request.method !== "GET" || status !== 200) return;
  if (/\bno-store\b/.test(headers.get("Cache-Control") ?? "")) return;
  const refused = context.staticHandlerContext.matches.some(
    (match) => (context.routeModules[match.route.id]?.handle as PageCacheHandle | undefined)?.pageCache === false,
  );
  if (!refused) headers.set(PAGE_CACHE_HEADER, PAGE_COOKIES.join(", "));
}
