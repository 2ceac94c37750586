import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { ROOT, tmpPath } from "./paths";
import { postgresDatabaseFor } from "./postgres";

export interface RunningServer {
  url: string;
  port: number;
  /** The server process (its memory is read from /proc/<pid>/status). */
  pid: number;
  /** The server's SQLite file (on the PostgreSQL pass, the key of its database: see databaseUrl). */
  dbFile: string;
  databaseUrl: string;
  output: () => string;
  /** SIGTERM once (as Fly sends it), then waits for the exit; a second call waits for the same exit (a second signal exits at once). */
  stop: () => Promise<void>;
  /** Ends the process with `signal` (SIGKILL: no shutdown at all) and waits for it to exit. */
  kill: (signal: NodeJS.Signals) => Promise<void>;
  /** The process's exit code once it has exited (null before, or when a signal ended it). */
  exitCode: () => number | null;
}

/** The DATABASE_URL for a server on `dbFile`: that file, or on the PostgreSQL pass the database standing for it. */
function databaseUrlFor(dbFile: string): Promise<string> {
  return process.env.TEST_POSTGRES_URL ? postgresDatabaseFor(dbFile) : Promise.resolve(`file:${dbFile}`);
}

/**
 * Starts the production build (`build/server.mjs`) on a free port with its own SQLite file (on the
 * PostgreSQL pass, its own PostgreSQL database). Integration tests talk to it over real HTTP.
 * `npm test` builds before running tests.
 */
export async function startServer(env: Record<string, string> = {}, { dev = false } = {}): Promise<RunningServer> {
  const entry = path.join(ROOT, "build", "server.mjs");
  if (!dev && !fs.existsSync(entry)) throw new Error("No build: run `npm run build` first (npm test does).");
  const dbFile = env.DATABASE_FILE ?? tmpPath("server.db");
  const databaseUrl = await databaseUrlFor(dbFile);
  let output = "";
  // `dev`: `npm run dev`'s server (tsx, Vite's module graph) instead of the build.
  const args = dev ? ["--import", "tsx", path.join(ROOT, "server", "index.ts"), "--dev"] : [entry];
  // Vitest's own variables would keep the Remix plugin out of Vite's config (vite.config.ts).
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !(dev && name.startsWith("VITEST"))));
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      ...inherited,
      NODE_ENV: dev ? "development" : "production",
      SESSION_SECRET: "integration-secret-0123456789",
      PORT: "0",
      DATABASE_URL: databaseUrl,
      UPLOADS_DIR: tmpPath("uploads"),
      LOG_REQUESTS: "0",
      // Tests write the database behind the server's back: no anonymous page cache and no read cache unless asked.
      PAGE_CACHE_MS: "0",
      READ_CACHE_MS: "0",
      I18N_STRICT: "1",
      // Tests draw from one address far more than a visitor: the limit has its own test (draw-limit.test.ts).
      DRAW_RATE_LIMIT: "0",
      DRAW_DAILY_LIMIT: "0",
      // The soft bound's browser proof has its own tests (draw-proof.test.ts, draw-proof.spec.ts).
      DRAW_SOFT_LIMIT: "0",
      // scrypt at 2^10 rather than 2^14: about 11 ms a hash instead of 180 (decision 399).
      PASSWORD_HASH_COST: "10",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), dev ? 60_000 : 20_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on http:\/\/localhost:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  let stopping: Promise<void> | null = null;
  return {
    url: `http://localhost:${port}`,
    port,
    pid: child.pid!,
    dbFile,
    databaseUrl,
    output: () => output,
    stop: () => (stopping ??= killChild(child, "SIGTERM")),
    kill: (signal) => killChild(child, signal),
    exitCode: () => child.exitCode,
  };
}

function killChild(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill(signal);
  });
}

/** A form POST as a browser without JS sends it (redirects not followed). */
export async function postForm(
  url: string,
  fields: Record<string, string>,
  init: { cookie?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
  const origin = new URL(url).origin;
  return fetch(url, {
    method: "POST",
    redirect: "manual",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: origin,
      ...(init.cookie ? { Cookie: init.cookie } : {}),
      ...init.headers,
    },
    body: new URLSearchParams(fields).toString(),
  });
}

/** Cookie header value from a response's Set-Cookie lines (name=value pairs only). */
export function cookiesFrom(response: Response, previous = ""): string {
  const jar = new Map<string, string>();
  for (const pair of previous.split(/;\s*/).filter(Boolean)) {
    const [k, ...v] = pair.split("=");
    jar.set(k!, v.join("="));
  }
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(";");
    const [k, ...v] = pair!.split("=");
    jar.set(k!.trim(), v.join("="));
  }
  return [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
}
