import { createCookieSessionStorage } from "@remix-run/node";
import { SESSION_MAX_MS } from "~db/repositories/sessions.server";
import { getEnv } from "./env.server";

/** The admin's signed cookie: it only carries the id of a row in the sessions table. */
type SessionData = { sessionId: string };

let storage: ReturnType<typeof createCookieSessionStorage<SessionData>> | undefined;
export function adminSessionStorage() {
  const env = getEnv();
  storage ??= createCookieSessionStorage<SessionData>({
    cookie: {
      name: "__session",
      path: "/",
      httpOnly: true,
      sameSite: "lax",
      secure: env.NODE_ENV === "production",
      secrets: [env.SESSION_SECRET],
      maxAge: Math.floor(SESSION_MAX_MS / 1000),
    },
  });
  return storage;
}
