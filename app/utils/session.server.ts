import { SESSION_MAX_MS } from "~db/repositories/sessions.server";
import { adminSessionCookieStorage } from "./cookies.server";

let storage: ReturnType<typeof adminSessionCookieStorage> | undefined;
/** The admin's signed session cookie (defined in cookies.server.ts), created once env is read. */
export function adminSessionStorage() {
  storage ??= adminSessionCookieStorage(Math.floor(SESSION_MAX_MS / 1000));
  return storage;
}
