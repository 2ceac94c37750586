import { redirect } from "@remix-run/node";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { createSession, deleteSession, getSessionUser } from "~db/repositories/sessions.server";
import { verifyCredentials, type VerifiedUser } from "~db/repositories/users.server";
import { getT } from "~/i18n/i18next.server";
import { getEnv } from "./env.server";
import { adminSessionStorage } from "./session.server";

/**
 * Who is signed in. Sessions: a signed httpOnly cookie holding the id of a row in `sessions`,
 * so logout and password changes revoke them server-side. Only admins ever sign in.
 */
export interface AdminUser {
  id: number;
  email: string;
}

export class InvalidCredentialsError extends Error {
  constructor() {
    super("invalid credentials");
  }
}

export const authenticator = new Authenticator<VerifiedUser>();
authenticator.use(
  new FormStrategy(async ({ form }) => {
    const email = form.get("email");
    const password = form.get("password");
    if (typeof email !== "string" || typeof password !== "string" || !email.trim() || !password)
      throw new InvalidCredentialsError();
    const user = await verifyCredentials(email, password);
    if (!user) throw new InvalidCredentialsError();
    return user;
  }),
  "form",
);

async function readSessionId(request: Request): Promise<string | null> {
  const cookie = request.headers.get("Cookie");
  if (!cookie?.includes("__session=")) return null;
  const session = await adminSessionStorage().getSession(cookie);
  const id = session.get("sessionId");
  return typeof id === "string" ? id : null;
}

/** The signed-in admin, or null (public pages: e.g. inactive platform preview). */
export async function getOptionalAdmin(request: Request): Promise<AdminUser | null> {
  const sessionId = await readSessionId(request);
  if (!sessionId) return null;
  const user = await getSessionUser(sessionId);
  return user?.isAdmin ? { id: user.id, email: user.email } : null;
}

/**
 * Every /admin loader and action calls this first (a parent layout's loader does not protect its
 * children: Remix runs them in parallel). Strangers: GET is redirected to the login page,
 * anything else is refused with 403 and nothing changes. Writes from another origin: 403.
 */
export async function requireAdmin(request: Request): Promise<AdminUser> {
  const isRead = request.method === "GET" || request.method === "HEAD";
  if (!isRead) await assertSameOrigin(request);
  const admin = await getOptionalAdmin(request);
  if (admin) return admin;
  if (isRead) {
    const url = new URL(request.url);
    throw redirect(`/admin/login?redirectTo=${encodeURIComponent(url.pathname + url.search)}`, 303);
  }
  const t = await getT(request, "admin");
  throw new Response(t("auth.required"), { status: 403 });
}

/** Refuses a state-changing request from another site (Sec-Fetch-Site, else Origin or Referer). */
export async function assertSameOrigin(request: Request): Promise<void> {
  // The browser's own word on where the request comes from, sent even when Origin is not.
  const site = request.headers.get("Sec-Fetch-Site");
  if (site && site !== "same-origin" && site !== "none") {
    const t = await getT(request, "common");
    throw new Response(t("errors.forbiddenOrigin"), { status: 403 });
  }
  const source = request.headers.get("Origin") ?? request.headers.get("Referer");
  if (!source || source === "null") {
    // Browsers always send Origin on form POSTs; a missing one is not a cross-site browser request.
    if (source !== "null") return;
  }
  let host: string | null = null;
  try {
    host = new URL(source!).host;
  } catch {
    host = null;
  }
  const allowed = new Set([new URL(getEnv().SITE_URL).host, request.headers.get("Host") ?? new URL(request.url).host]);
  if (!host || !allowed.has(host)) {
    const t = await getT(request, "common");
    throw new Response(t("errors.forbiddenOrigin"), { status: 403 });
  }
}

/** Signs the verified admin in: a new sessions row and its cookie. */
export async function startAdminSession(userId: number): Promise<string> {
  const storage = adminSessionStorage();
  const session = await storage.getSession();
  session.set("sessionId", await createSession(userId));
  return storage.commitSession(session);
}

/** Signs out: the row goes (the cookie is useless even if kept) and the cookie is cleared. */
export async function endAdminSession(request: Request): Promise<string> {
  const storage = adminSessionStorage();
  const session = await storage.getSession(request.headers.get("Cookie"));
  const id = session.get("sessionId");
  if (typeof id === "string") await deleteSession(id);
  return storage.destroySession(session);
}
