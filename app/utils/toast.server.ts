import { redirect } from "@remix-run/node";
import { z } from "zod";
import { hasCookie, toastCookieStorage } from "./cookies.server";

/**
 * One-shot messages that survive a redirect (post/redirect/get), so they show with JS off.
 * A toast holds a translation key, rendered in the visitor's language by the root.
 */
export const toastSchema = z.object({
  type: z.enum(["success", "error", "info"]).default("info"),
  key: z.string().min(1),
  values: z.record(z.union([z.string(), z.number()])).optional(),
});
export type Toast = z.infer<typeof toastSchema>;
export type ToastInput = z.input<typeof toastSchema>;

const FLASH_KEY = "toast" as const;

type FlashData = { [FLASH_KEY]: Toast };
let storage: ReturnType<typeof toastCookieStorage<FlashData>> | undefined;
function toastStorage() {
  storage ??= toastCookieStorage<FlashData>();
  return storage;
}

async function createToastHeaders(toast: ToastInput): Promise<Headers> {
  const session = await toastStorage().getSession();
  session.flash(FLASH_KEY, toastSchema.parse(toast));
  return new Headers({ "Set-Cookie": await toastStorage().commitSession(session) });
}

/** 303 to a GET page with a toast, as every successful form does. */
export async function redirectWithToast(url: string, toast: ToastInput, init?: ResponseInit) {
  const headers = new Headers(init?.headers);
  for (const [k, v] of await createToastHeaders(toast)) headers.append(k, v);
  return redirect(url, { status: 303, ...init, headers });
}

/** Reads and clears the pending toast. `headers` must reach the response when a toast was read. */
export async function getToast(request: Request): Promise<{ toast: Toast | null; headers: Headers | null }> {
  if (!hasCookie(request, "toast")) return { toast: null, headers: null };
  const cookie = request.headers.get("Cookie");
  const session = await toastStorage().getSession(cookie);
  const parsed = toastSchema.safeParse(session.get(FLASH_KEY));
  const headers = new Headers({ "Set-Cookie": await toastStorage().destroySession(session) });
  return { toast: parsed.success ? parsed.data : null, headers };
}
