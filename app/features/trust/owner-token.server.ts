import crypto from "node:crypto";
import { hasCookie, ownerLinkCookieStorage } from "~/utils/cookies.server";

/**
 * The owner's private link: 256 random bits, base64url (43 characters). Only its SHA-256 is stored,
 * so the database alone cannot open anyone's page; a fast hash is enough for a random secret this
 * long (nothing to brute-force, unlike a password).
 */
const TOKEN_BYTES = 32;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export function newOwnerToken(): { token: string; hash: string } {
  const token = crypto.randomBytes(TOKEN_BYTES).toString("base64url");
  return { token, hash: hashOwnerToken(token) };
}

export function hashOwnerToken(token: string): string {
  return crypto.createHash("sha256").update(token).digest("base64url");
}

export function isOwnerTokenShape(value: string | undefined): value is string {
  return typeof value === "string" && TOKEN_SHAPE.test(value);
}

export function ownerPath(token: string): string {
  return `/my-code/${token}`;
}

/**
 * The link is shown once, on the page the submit redirects to: it travels in a signed, httpOnly,
 * one-shot cookie (never in a URL, which would end up in history and logs), read and cleared there.
 */
type Flash = { token: string };
let storage: ReturnType<typeof ownerLinkCookieStorage<Flash>> | undefined;
const linkStorage = () => (storage ??= ownerLinkCookieStorage<Flash>());

export async function ownerLinkCookie(token: string): Promise<string> {
  const session = await linkStorage().getSession();
  session.flash("token", token);
  return linkStorage().commitSession(session);
}

/** The token to show, if a submit just set one, and the Set-Cookie that clears it. */
export async function takeOwnerLink(request: Request): Promise<{ token: string | null; setCookie: string | null }> {
  const cookie = request.headers.get("Cookie");
  if (!hasCookie(request, "owner-link")) return { token: null, setCookie: null };
  const session = await linkStorage().getSession(cookie);
  const token = session.get("token");
  return { token: isOwnerTokenShape(token) ? token : null, setCookie: await linkStorage().destroySession(session) };
}
