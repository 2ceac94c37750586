import fs from "node:fs";
import path from "node:path";
import express, { type RequestHandler } from "express";
import { localeSets } from "./locale-sets";

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json",
};

/** Serves the .br/.gz copy made at build time when the browser accepts it (no per-request gzip). */
function precompressed(root: string): RequestHandler {
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const type = TYPES[path.extname(req.path)];
    if (!type) return next();
    const accept = req.get("accept-encoding") ?? "";
    const file = path.join(root, path.normalize(req.path).replace(/^(\.\.[/\\])+/, ""));
    if (!file.startsWith(root)) return next();
    for (const [encoding, ext] of [
      ["br", ".br"],
      ["gzip", ".gz"],
    ] as const) {
      if (!accept.includes(encoding) || !fs.existsSync(file + ext)) continue;
      res.setHeader("Content-Encoding", encoding);
      res.setHeader("Content-Type", type);
      res.setHeader("Vary", "Accept-Encoding");
      res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
      return res.sendFile(file + ext);
    }
    next();
  };
}

/** The build's client files: hashed assets cached for a year (precompressed copies first), other public files an hour. */
export function clientFiles(clientDir: string): express.Router {
  const router = express.Router();
  router.use("/assets", localeSets(path.join(clientDir, "assets")));
  router.use("/assets", precompressed(path.join(clientDir, "assets")));
  router.use("/assets", express.static(path.join(clientDir, "assets"), { immutable: true, maxAge: "1y", index: false }));
  // Other public files (favicon, og image) all have an extension: skip the disk look-up for pages.
  const publicFiles = express.static(clientDir, { maxAge: "1h", index: false });
  router.use((req, res, next) => (/\.\w+$/.test(req.path) && !req.path.endsWith(".data") ? publicFiles(req, res, next) : next()));
  return router;
}
