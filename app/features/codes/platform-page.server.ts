import { getPlatformBySlug } from "~db/repositories/platforms.server";
import type { Platform } from "~db/schema";
import { getT } from "~/i18n/i18next.server";
import { getOptionalAdmin } from "~/utils/auth.server";
import { redirectWithToast } from "~/utils/toast.server";

/**
 * The platform behind /{slug} and /{slug}/get-code. Unknown: 404 'Plateforme introuvable'.
 * Inactive: home with a toast, except for a signed-in admin, who previews it.
 */
export async function loadPlatformPage(
  request: Request,
  slug: string | undefined,
): Promise<{ platform: Platform; preview: boolean }> {
  const platform = slug ? await getPlatformBySlug(slug) : undefined;
  if (!platform) {
    const t = await getT(request, "platform");
    throw new Response(t("errors.notFound"), { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  if (platform.is_active) return { platform, preview: false };
  if (await getOptionalAdmin(request)) return { platform, preview: true };
  throw await redirectWithToast("/", { type: "error", key: "platform:errors.unavailable" });
}
