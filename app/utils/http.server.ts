import type { AppLoadContext } from "@remix-run/node";

/** The client's address as the server saw it (see server/client-ip.ts for TRUST_PROXY). */
export function clientIp(context: AppLoadContext): string {
  return context.clientIp || "unknown";
}

/** A local path to go back to after a form, never another site (`//x`, `/\x`, `https:`). */
export function safeRedirectPath(value: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) {
    return fallback;
  }
  return value;
}
