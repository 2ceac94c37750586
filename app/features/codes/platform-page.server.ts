import { brandMarkOf } from "./brand-marks.server";
import { cachedRead, forgetRead } from "~db/read-cache.server";
import { countAvailableCodes } from "~db/repositories/code-counts.server";
import { getPlatformBySlug } from "~db/repositories/platforms.server";
import type { Platform } from "~db/schema";
import { MAX_SLUG_LENGTH, RESERVED_SLUGS, SLUG_PATTERN } from "~/features/admin/catalog/slug";
import { loadOfferSection } from "~/features/offer/offer.server";
import { platformAnswerFigure } from "~/features/trust/trust-view.server";
import { getOptionalAdmin } from "~/utils/auth.server";
import { redirectWithToast } from "~/utils/toast.server";
import { loadOrFail } from "~/utils/failures.server";
import { notFound } from "~/utils/responses.server";

/**
 * The platform behind /{slug} and /{slug}/get-code. Unknown: 404 'Plateforme introuvable'.
 * Inactive: home with a toast, except for a signed-in admin, who previews it.
 */
export async function loadPlatformPage(
  request: Request,
  slug: string | undefined,
): Promise<{ platform: Platform; preview: boolean }> {
  // A path of the site itself (/404, a page another route would serve) is never a platform: the
  // plain not-found page, not 'Plateforme introuvable'.
  if (!slug || RESERVED_SLUGS.has(slug)) throw new Response(null, { status: 404 });
  // A slug no platform can have (upper case, a dot, 16 KB of it) is not looked up; one no platform
  // has is not kept: made-up paths never fill the read cache nor push out what pages read.
  if (slug.length > MAX_SLUG_LENGTH || !SLUG_PATTERN.test(slug)) throw await notFound(request, "platform:errors.notFound");
  const key = `platform:${slug}`;
  // The database out of reach: 503 with Retry-After and "Erreur lors du chargement", not a 500.
  const platform = await loadOrFail(request, "errors.load.generic", () =>
    cachedRead(key, "catalogue", () => getPlatformBySlug(slug)),
  );
  if (!platform) {
    forgetRead(key);
    throw await notFound(request, "platform:errors.notFound");
  }
  if (platform.is_active) return { platform, preview: false };
  if (await getOptionalAdmin(request)) return { platform, preview: true };
  throw await redirectWithToast("/", { type: "error", key: "platform:errors.unavailable" });
}

/** What the platform pages' header shows of a platform (name, emoji, gradient, logos). */
export function platformHeader(platform: Platform) {
  return {
    name: platform.name,
    slug: platform.slug,
    emoji: platform.emoji_icon,
    from: platform.gradient_from,
    to: platform.gradient_to,
    logoLight: platform.custom_logo_light_url,
    logoDark: platform.custom_logo_dark_url,
    mark: brandMarkOf(platform.slug),
  };
}

/*
 * What a platform's pages show every visitor alike, read through the read cache (decision 264):
 * shared between requests and frozen, so a loader builds its own objects from them.
 */

/** Codes a draw could serve now (the live count). */
export const availableCodes = (platformId: number) =>
  cachedRead(`available:${platformId}`, "activity", () => countAvailableCodes(platformId));

/** The offer in the visitor's language and the hints of recent answers. */
export const offerSection = (platformId: number, language: string) =>
  cachedRead(`offer:${platformId}:${language}`, "activity", () => loadOfferSection(platformId, language));

/** How many answers said a code worked, or null under the minimum. */
export const answerFigure = (platformId: number) =>
  cachedRead(`answer-figure:${platformId}`, "activity", () => platformAnswerFigure(platformId));
