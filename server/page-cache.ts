import type { RequestHandler, Response } from "express";
import { LRUCache } from "lru-cache";
import { PAGE_CACHE_HEADER } from "./page-cache-header";

/**
 * An anonymous HTML micro-cache in front of Remix: a page rendered for a visitor without a session
 * is kept a few seconds and served again to visitors who would get the very same bytes. Which pages
 * qualify is the app's call: a page it may keep answers with the `x-page-cache` header
 * (page-cache-header.ts) naming the cookies it depends on. The key is the path and query, the value
 * of each of those cookies (the first of each name, which is the one the app reads) and
 * Accept-Language (the language when no cookie is set). A request carrying any other cookie (a
 * session, a toast, a vote identity) is neither looked up nor stored: it goes to Remix. Only a 200
 * text/html answer with the header and without Set-Cookie is stored. A write that succeeds (a
 * non-GET, non-HEAD answered below 400, e.g. an admin saving a setting) empties the cache when it
 * ends, so what it changed shows at once; a refused one changes nothing and empties nothing. Each
 * answer keeps its own CSP nonce: the stored page's nonce is replaced by the request's.
 *
 * Memory is bounded by bytes (pages, keys and headers together), not by entries: pages echo their
 * query, so one entry can be 100 KB. The store is an lru-cache with `maxSize` and `ttl` (decision 334):
 * past its bytes the least recently used pages go first; an expired one is never served.
 * The URLs whose cookie list is remembered are bounded by bytes too (a stranger's thousands of
 * distinct 12 KB queries once kept 25 MB there, outside the pages' bound), and a URL longer than any
 * page of the site has is neither looked up nor kept.
 * Hand-written around lru-cache (decision 334): no Express cache middleware asks the app, page by
 * page, which cookies its bytes depend on (decision 261); keyed on the URL, a visitor's language or
 * theme would reach the next one.
 */
/** Per entry, on top of its body and key: the headers and the cache's own share. */
const ENTRY_OVERHEAD_BYTES = 1024;
/** Bytes of URLs whose cookie list is remembered; past this the least recently used go (it is only a hint for lookups). */
const MAX_KNOWN_BYTES = 1024 * 1024;
/** Per remembered URL, on top of its characters: the Map's share and the cookie list. */
const KNOWN_OVERHEAD_BYTES = 128;
/** The site's own links stay far below this; a longer URL is a stranger's query, rendered and never kept. */
const MAX_URL_LENGTH = 2048;

interface Entry {
  bytes: number;
  status: number;
  headers: Array<[string, string | number | string[]]>;
  body: string;
  nonce: string;
}

/** The cookie names a page's header lists ("language, theme"), or null when it has none (not to be kept). */
function keyedCookiesOf(header: unknown): string[] | null {
  if (typeof header !== "string") return null;
  return header
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
}

/** Key part for the cookies, or null when the request carries any cookie not in `keyed`. */
function cookieKey(header: string | undefined, keyed: readonly string[]): string | null {
  const first = new Map<string, string>();
  for (const part of (header ?? "").split(";")) {
    const pair = part.trim();
    if (!pair) continue;
    const eq = pair.indexOf("=");
    const name = eq < 0 ? pair : pair.slice(0, eq).trim();
    if (!keyed.includes(name)) return null;
    if (!first.has(name)) first.set(name, eq < 0 ? "" : pair.slice(eq + 1).trim());
  }
  return keyed.map((name) => (first.has(name) ? `${name}=${first.get(name)}` : "")).join(";");
}

/**
 * Several processes (decision 365): `share` subscribes `clear` to the other processes' successful
 * writes and returns what tells them of this one's.
 */
type SharePageWrites = (clear: () => void) => () => void;

export function pageCache({
  ttlMs = 3_000,
  maxBytes = 8 * 1024 * 1024,
  share,
}: { ttlMs?: number; maxBytes?: number; share?: SharePageWrites } = {}): RequestHandler {
  const entries = new LRUCache<string, Entry>({
    maxSize: maxBytes,
    maxEntrySize: maxBytes / 8,
    sizeCalculation: (entry) => entry.bytes,
    ttl: ttlMs,
  });
  // Per URL, the cookies its page said it depends on: what a lookup keys on (a hint, bounded by bytes).
  const keyedByUrl = new LRUCache<string, string[]>({
    maxSize: MAX_KNOWN_BYTES,
    sizeCalculation: (_keyed, url) => 2 * url.length + KNOWN_OVERHEAD_BYTES,
  });
  // Every cookie name a page has said it depends on (the app's header: a few fixed names). A request
  // with another cookie (a session, a vote, a toast) is never kept, whatever the URL.
  const keyableNames: string[] = [];

  // Bumped by every clear: a page whose render began before one may show what the write changed.
  let generation = 0;
  const clear = () => {
    generation++;
    entries.clear();
    keyedByUrl.clear();
  };
  const tellOthers = share?.(clear);

  const keyOf = (url: string, keyed: readonly string[], cookie: string | undefined, acceptLanguage: string | undefined) => {
    const cookies = cookieKey(cookie, keyed);
    return cookies === null ? null : `${url}\n${cookies}\n${acceptLanguage ?? ""}`;
  };

  const handler: RequestHandler = (req, res, next) => {
    if (req.method === "HEAD") return next();
    if (req.method !== "GET") {
      // A write may change what pages show: forget them once it has succeeded.
      res.once("finish", () => {
        if (res.statusCode >= 400) return;
        clear();
        tellOthers?.();
      });
      return next();
    }
    const url = req.originalUrl;
    if (url.length > MAX_URL_LENGTH) return next();
    const { cookie } = req.headers;
    const acceptLanguage = req.headers["accept-language"];
    const nonce = res.locals.cspNonce as string;
    const known = keyedByUrl.get(url);
    if (known) {
      const key = keyOf(url, known, cookie, acceptLanguage);
      // Another cookie than those the page depends on (a session): Remix answers, nothing is kept.
      if (key === null) return next();
      const hit = entries.get(key);
      if (hit) {
        for (const [name, value] of hit.headers) res.setHeader(name, value);
        res.status(hit.status).end(hit.nonce ? hit.body.replaceAll(hit.nonce, nonce) : hit.body);
        return;
      }
    } else if (cookie && cookieKey(cookie, keyableNames) === null) {
      // A URL not known yet (after any write, every URL) and a cookie no page depends on: the answer
      // will not be kept, so its bytes are not held until it ends (decision 267).
      return next();
    }
    const renderedIn = generation;
    capture(res, (readBody) => {
      if (generation !== renderedIn) return;
      const type = String(res.getHeader("content-type") ?? "");
      if (res.statusCode !== 200 || !type.startsWith("text/html") || res.getHeader("set-cookie") !== undefined) return;
      const keyed = keyedCookiesOf(res.getHeader(PAGE_CACHE_HEADER));
      if (!keyed) return;
      for (const name of keyed) if (!keyableNames.includes(name)) keyableNames.push(name);
      const key = keyOf(url, keyed, cookie, acceptLanguage);
      if (key === null) return;
      keyedByUrl.set(url, keyed);
      const body = readBody();
      const headers = Object.entries(res.getHeaders())
        .filter(([name]) => name !== "content-security-policy" && name !== "content-length" && name !== "date")
        .map(([name, value]) => [name, value!] as [string, string | number | string[]]);
      // JavaScript strings take two bytes a character.
      const size = 2 * (body.length + key.length) + ENTRY_OVERHEAD_BYTES;
      // Past maxEntrySize (an eighth of the whole) lru-cache keeps nothing.
      entries.set(key, { bytes: size, status: 200, headers, body, nonce });
    });
    next();
  };
  return handler;
}

/**
 * Passes the response through unchanged and, once it is sent, calls `done` with a way to read its
 * whole body: a page that will not be kept (a visitor with another cookie, a redirect) is never
 * joined and decoded.
 */
function capture(res: Response, done: (readBody: () => string) => void) {
  const chunks: Buffer[] = [];
  const keep = (chunk: unknown, encoding?: unknown) => {
    if (chunk == null || typeof chunk === "function") return;
    chunks.push(
      Buffer.isBuffer(chunk)
        ? chunk
        : chunk instanceof Uint8Array
          ? Buffer.from(chunk)
          : Buffer.from(String(chunk), typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8"),
    );
  };
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  res.write = ((...args: unknown[]) => {
    keep(args[0], args[1]);
    return write(...args);
  }) as Response["write"];
  res.end = ((...args: unknown[]) => {
    keep(args[0], args[1]);
    return end(...args);
  }) as Response["end"];
  res.once("finish", () => done(() => Buffer.concat(chunks).toString("utf8")));
}
