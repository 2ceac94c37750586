import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import type { RequestHandler } from "express";

/**
 * A page's translations in one request (decision 272): `/assets/locales-<hash>.<language>.<a>+<b>….js`
 * joins the build's one-namespace modules (`locales-<hash>.<language>.<a>.js`, vite.config.ts
 * `localeFiles`) into one module whose default export maps each namespace to its tree. The browser
 * asks for the namespaces its page needs at once (the layout's and the route's: four requests before,
 * each with its own compile and evaluation tasks on a cheap phone's main thread).
 *
 * Only what the browser itself asks is answered: the build's hash, a language and namespaces that
 * exist, names sorted and each once; anything else goes on to the static files (a 404). Each file
 * is read from disk once; answers are kept (at most `MAX_KEPT`, the oldest dropped first), cached by
 * the browser for a year like every hashed asset, gzipped when accepted. The gzip runs on libuv's
 * thread pool, never on the event loop: each set a stranger makes up (any sorted subset of the
 * namespaces is one) cost 2-3 ms of `gzipSync` there, before admission control (decision 297).
 */
const SET = /^\/locales-([\w-]+)\.([a-z]{2})\.([\w-]+(?:\+[\w-]+)+)\.js$/;
const ONE = /^locales-([\w-]+)\.([a-z]{2})\.([\w-]+)\.js$/;
const MODULE = /^export default (JSON\.parse\(".*"\));\n$/s;
const MAX_KEPT = 64;

type Answer = { plain: Buffer; gzip: Promise<Buffer> };

const gzipOffTheLoop = (plain: Buffer) =>
  new Promise<Buffer>((resolve, reject) =>
    zlib.gzip(plain, { level: 9 }, (error, gzip) => (error ? reject(error) : resolve(gzip))),
  );

export function localeSets(assetsDir: string): RequestHandler {
  /** `<hash>.<language>.<namespace>` → the file's path, listed on the first request. */
  let files: Map<string, string> | undefined;
  /** The same key → the file's `JSON.parse(…)` expression, read once per file (a fixed, small set). */
  const expressions = new Map<string, string>();
  const kept = new Map<string, Answer>();

  const list = () => {
    files = new Map();
    for (const name of fs.existsSync(assetsDir) ? fs.readdirSync(assetsDir) : []) {
      const m = ONE.exec(name);
      if (m) files.set(`${m[1]}.${m[2]}.${m[3]}`, path.join(assetsDir, name));
    }
    return files;
  };

  const expressionOf = (key: string): string | undefined => {
    const known = expressions.get(key);
    if (known) return known;
    const file = (files ?? list()).get(key);
    try {
      const expression = file ? MODULE.exec(fs.readFileSync(file, "utf8"))?.[1] : undefined;
      if (expression) expressions.set(key, expression);
      return expression;
    } catch {
      return undefined; // a file gone since the listing (a build replaced under a running server): not answered here
    }
  };

  const build = (hash: string, language: string, names: string[]): Answer | undefined => {
    const parts: string[] = [];
    for (const name of names) {
      const expression = expressionOf(`${hash}.${language}.${name}`);
      if (!expression) return undefined;
      parts.push(`${JSON.stringify(name)}:${expression}`);
    }
    const plain = Buffer.from(`export default {${parts.join(",")}};\n`);
    const gzip = gzipOffTheLoop(plain);
    gzip.catch(() => {}); // answered plain then (below)
    return { plain, gzip };
  };

  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const m = SET.exec(req.path);
    if (!m) return next();
    const [, hash, language, joined] = m as unknown as [string, string, string, string];
    const names = joined.split("+");
    // One spelling per set: sorted, no repeats (what the browser asks), so the kept answers stay few.
    if (names.some((name, i) => i > 0 && name <= names[i - 1]!)) return next();
    let answer = kept.get(req.path);
    if (!answer) {
      answer = build(hash, language, names);
      if (!answer) return next();
      if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value!);
      kept.set(req.path, answer);
    }
    const { plain } = answer;
    const send = (gzip: Buffer | null) => {
      res.setHeader("Content-Type", "text/javascript; charset=utf-8");
      res.setHeader("Cache-Control", "public, max-age=31536000, immutable");
      res.setHeader("Vary", "Accept-Encoding");
      if (gzip) res.setHeader("Content-Encoding", "gzip");
      res.send(gzip ?? plain);
    };
    if (!(req.get("accept-encoding") ?? "").includes("gzip")) return send(null);
    answer.gzip.then(send, () => send(null));
  };
}
