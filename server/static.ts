import path from "node:path";
import express from "express";
import expressStaticGzip from "express-static-gzip";
import { localeSets } from "./locale-sets";

/**
 * The build's client files: hashed assets cached for a year, the .br/.gz copy made at build time
 * (scripts/build-server.mjs) when the browser accepts it (no per-request gzip); other public files an hour.
 */
export function clientFiles(clientDir: string): express.Router {
  const router = express.Router();
  const assets = path.join(clientDir, "assets");
  router.use("/assets", localeSets(assets));
  router.use(
    "/assets",
    expressStaticGzip(assets, {
      enableBrotli: true,
      orderPreference: ["br", "gzip"],
      index: false,
      serveStatic: { immutable: true, maxAge: "1y", index: false },
    }),
  );
  // Other public files (favicon, og image) all have an extension: skip the disk look-up for pages.
  const publicFiles = express.static(clientDir, { maxAge: "1h", index: false });
  router.use((req, res, next) => (/\.\w+$/.test(req.path) && !req.path.endsWith(".data") ? publicFiles(req, res, next) : next()));
  return router;
}
