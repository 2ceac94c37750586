import { getPlatformBySlug } from "~db/repositories/platforms.server";
import type { Platform } from "~db/schema";
import { getOptionalAdmin } from "~/utils/auth.server";
import { redirectWithToast } from "~/utils/toast.server";
import { notFound } from "~/utils/responses.server";

/**
 * The platform behind /{slug} and /{slug}/get-code. Unknown: 404 'Plateforme introuvable'.
 * Inactive: home with a toast, except for a signed-in admin, who previews it.
 */
export async function loadPlatformPage(
  request: Request,
  slug: string | undefined,
): Promise<{ platform: Platform; preview: boolean }> {
  const platform = slug ? await getPlatformBySlug(slug) : undefined;
  if (!platform) throw await notFound(request, "platform:errors.notFound");
  if (platform.is_active) return { platform, preview: false };
  if (await getOptionalAdmin(request)) return { platform, preview: true };
  throw await redirectWithToast("/", { type: "error", key: "platform:errors.unavailable" });
}
