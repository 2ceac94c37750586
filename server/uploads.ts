import type { RequestHandler } from "express";
import { readStoredLogo } from "~/features/admin/catalog/logo.server";

/** A stored file's name: one path segment, no dot first (nothing else is ever stored). */
const UPLOAD_NAME = /^\/([a-z0-9][a-z0-9._-]{0,199})$/i;

/**
 * `/uploads/<name>`: an uploaded logo from the database (migration 0009), cached for an hour like
 * the files before it. Anything else under /uploads is a bare 404, as the static files gave.
 */
export function uploadsFromDatabase(): RequestHandler {
  return (req, res, next) => {
    const name = UPLOAD_NAME.exec(req.path)?.[1];
    if (!name || (req.method !== "GET" && req.method !== "HEAD")) return void res.status(404).end();
    readStoredLogo(name)
      .then((file) => {
        if (!file) return void res.status(404).end();
        res.set({ "Content-Type": file.contentType, "Cache-Control": "public, max-age=3600" });
        res.end(req.method === "HEAD" ? undefined : Buffer.from(file.bytes));
      })
      .catch(next);
  };
}
