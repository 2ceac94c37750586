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
 * The link is shown on the page the submit redirects to, and again there until the sharer says they
 * saved it (or an hour passes): it travels in a signed, httpOnly cookie (never in a URL, which would
 * end up in history and logs), with the code and platform it belongs to, so the step can name them.
 */
type OwnerLinkData = { token: string; code: string; platform: string };

let storage: ReturnType<typeof ownerLinkCookieStorage<OwnerLinkData>> | undefined;
const linkStorage = () => (storage ??= ownerLinkCookieStorage<OwnerLinkData>());

export async function ownerLinkCookie(link: OwnerLinkData): Promise<string> {
  const session = await linkStorage().getSession();
  session.set("token", link.token);
  session.set("code", link.code);
  session.set("platform", link.platform);
  return linkStorage().commitSession(session);
}

/** The link a submit just made, if this browser holds one the sharer has not yet said they saved. */
export async function readOwnerLink(request: Request): Promise<OwnerLinkData | null> {
  if (!hasCookie(request, "owner-link")) return null;
  const session = await linkStorage().getSession(request.headers.get("Cookie"));
  const [token, code, platform] = [session.get("token"), session.get("code"), session.get("platform")];
  return isOwnerTokenShape(token) && typeof code === "string" && typeof platform === "string" ? { token, code, platform } : null;
}

/** The Set-Cookie that forgets the link (the sharer saved it). */
export async function forgetOwnerLink(request: Request): Promise<string> {
  return linkStorage().destroySession(await linkStorage().getSession(request.headers.get("Cookie")));
}
