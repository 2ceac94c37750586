import { redirect } from "@remix-run/node";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { createSession, deleteSession, getSessionUser } from "~db/repositories/sessions.server";
import { verifyCredentials, type VerifiedUser } from "~db/repositories/users.server";
import { hasCookie } from "./cookies.server";
import { runWrite } from "~db/availability.server";
import { forbidden } from "./responses.server";
import { assertSameOrigin } from "./same-origin.server";
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
  if (!hasCookie(request, "admin-session")) return null;
  const session = await adminSessionStorage().getSession(request.headers.get("Cookie"));
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
  throw await forbidden(request, "admin:auth.required");
}

/** Signs the verified admin in: a new sessions row and its cookie. */
export async function startAdminSession(request: Request, userId: number): Promise<string> {
  const storage = adminSessionStorage();
  const session = await storage.getSession();
  session.set("sessionId", await runWrite("sign-in", () => createSession(userId)));
  return storage.commitSession(session);
}

/** Signs out: the row goes (the cookie is useless even if kept) and the cookie is cleared. */
export async function endAdminSession(request: Request): Promise<string> {
  const storage = adminSessionStorage();
  const session = await storage.getSession(request.headers.get("Cookie"));
  const id = session.get("sessionId");
  // A row that cannot be removed now is a 503 (the cookie kept): a cleared cookie over a live row would look signed out, and is not.
  if (typeof id === "string") await runWrite("sign-out", () => deleteSession(id));
  return storage.destroySession(session);
}
