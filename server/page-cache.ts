import type { RequestHandler, Response } from "express";
import { normalizePath } from "./request-path";

/**
 * An anonymous HTML micro-cache in front of Remix: a page rendered for a visitor without a session
 * is kept a few seconds and served again to visitors who would get the very same bytes. The key is
 * the path and query, the cookies a page depends on (language, theme, consent: the first of each
 * name, which is the one the app reads) and Accept-Language (the language when no cookie is set).
 * Only GETs from requests whose cookies are all among those are looked up or stored: a session, a
 * toast, a vote identity or any other cookie goes to Remix. Only a 200 text/html answer without
 * Set-Cookie is stored. A write that succeeds (a non-GET, non-HEAD answered below 400, e.g. an admin
 * saving a setting) empties the cache when it ends, so what it changed shows at once; a refused
 * one changes nothing and empties nothing. Each answer keeps its own CSP nonce: the stored page's
 * nonce is replaced by the request's.
 *
 * Memory is bounded by bytes (pages, keys and headers together), not by entries: pages echo their
 * query, so one entry can be 100 KB. Expired entries are dropped as new ones come (decision 201).
 */
const KEYED_COOKIES = ["language", "theme", "consent"];
const SKIPPED_PREFIXES = ["/admin", "/events", "/healthz"];
/** Per entry, on top of its body and key: the headers and the Map's own share. */
const ENTRY_OVERHEAD_BYTES = 1024;

interface Entry {
  expires: number;
  bytes: number;
  status: number;
  headers: Array<[string, string | number | string[]]>;
  body: string;
  nonce: string;
}

/** Key part for the cookies, or null when the request carries any other cookie. */
function cookieKey(header: string | undefined): string | null {
  const first = new Map<string, string>();
  for (const part of (header ?? "").split(";")) {
    const pair = part.trim();
    if (!pair) continue;
    const eq = pair.indexOf("=");
    const name = eq < 0 ? pair : pair.slice(0, eq).trim();
    if (!KEYED_COOKIES.includes(name)) return null;
    if (!first.has(name)) first.set(name, eq < 0 ? "" : pair.slice(eq + 1).trim());
  }
  return KEYED_COOKIES.map((name) => (first.has(name) ? `${name}=${first.get(name)}` : "")).join(";");
}

export function pageCache({ ttlMs = 3_000, maxBytes = 8 * 1024 * 1024 } = {}): RequestHandler {
  // In insertion order, which is also expiry order (one lifetime for all; a page stored again moves to the end).
  const entries = new Map<string, Entry>();
  let bytes = 0;

  const remove = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    bytes -= entry.bytes;
    entries.delete(key);
  };
  const clear = () => {
    entries.clear();
    bytes = 0;
  };
  /** Drops expired entries, then the oldest ones while `room` more bytes would not fit. */
  const makeRoom = (room: number) => {
    const now = Date.now();
    for (const [key, entry] of entries) {
      if (entry.expires > now && bytes + room <= maxBytes) break;
      remove(key);
    }
  };

  const keyOf = (url: string, cookie: string | undefined, acceptLanguage: string | undefined) => {
    const pathname = normalizePath(url.split("?", 1)[0]!);
    if (pathname.endsWith(".data") || SKIPPED_PREFIXES.some((p) => pathname === p || pathname.startsWith(`${p}/`))) {
      return null;
    }
    const cookies = cookieKey(cookie);
    return cookies === null ? null : `${url}\n${cookies}\n${acceptLanguage ?? ""}`;
  };

  const handler: RequestHandler = (req, res, next) => {
    if (req.method === "HEAD") return next();
    if (req.method !== "GET") {
      // A write may change what pages show: forget them once it has succeeded.
      res.once("finish", () => {
        if (res.statusCode < 400) clear();
      });
      return next();
    }
    const key = keyOf(req.originalUrl, req.headers.cookie, req.headers["accept-language"]);
    if (key === null) return next();
    const nonce = res.locals.cspNonce as string;
    const hit = entries.get(key);
    if (hit && hit.expires > Date.now()) {
      for (const [name, value] of hit.headers) res.setHeader(name, value);
      res.status(hit.status).end(hit.nonce ? hit.body.replaceAll(hit.nonce, nonce) : hit.body);
      return;
    }
    if (hit) remove(key);
    capture(res, (body) => {
      const type = String(res.getHeader("content-type") ?? "");
      if (res.statusCode !== 200 || !type.startsWith("text/html") || res.getHeader("set-cookie") !== undefined) return;
      const headers = Object.entries(res.getHeaders())
        .filter(([name]) => name !== "content-security-policy" && name !== "content-length" && name !== "date")
        .map(([name, value]) => [name, value!] as [string, string | number | string[]]);
      // JavaScript strings take two bytes a character.
      const size = 2 * (body.length + key.length) + ENTRY_OVERHEAD_BYTES;
      if (size > maxBytes / 8) return;
      remove(key);
      makeRoom(size);
      entries.set(key, { expires: Date.now() + ttlMs, bytes: size, status: 200, headers, body, nonce });
      bytes += size;
    });
    next();
  };
  return handler;
}

/** Passes the response through unchanged and hands its whole body to `done` once it is sent. */
function capture(res: Response, done: (body: string) => void) {
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
  res.once("finish", () => done(Buffer.concat(chunks).toString("utf8")));
}
