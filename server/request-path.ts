import type { Request } from "express";

/**
 * The path as the router matches it, for every prefix decision the server makes before Remix
 * (the admin guard, the page cache's skip list, the upload body cap): percent-escapes decoded,
 * lower-cased (routes match whatever the case), runs of slashes made one. `/%61dmin`, `/ADMIN`
 * and `//admin` are all `/admin`. A malformed escape is kept as it is (the router refuses it).
 */
export function normalizePath(path: string): string {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // kept raw
  }
  return decoded.toLowerCase().replace(/\/{2,}/g, "/");
}

/** Computed once per request. */
export function normalizedPathOf(req: Request): string {
  const locals = req.res?.locals as { normalizedPath?: string } | undefined;
  if (locals?.normalizedPath !== undefined) return locals.normalizedPath;
  const path = normalizePath(req.path);
  if (locals) locals.normalizedPath = path;
  return path;
}

/** Under `/admin` (the admin pages and their data requests). */
export const isAdminPath = (normalized: string) =>
  normalized === "/admin" || normalized === "/admin.data" || normalized.startsWith("/admin/");
