import type { LoaderFunctionArgs } from "@remix-run/node";
import { publicPlatformData } from "~/features/offer/public-data.server";
import { getT } from "~/i18n/i18next.server";
import { isLanguage } from "~/i18n/config";
import { getEnv } from "~/utils/env.server";
import { withDatabaseNet } from "~/utils/failures.server";

/** Briefly cached: the figures move with every answer, but a crawler's burst needs no fresh read per hit. */
const CACHE = "public, max-age=60";

/**
 * GET /api/platforms.json?lng=en: the active platforms' freshness (docs/decisions/231). Never a code.
 * `lng` is optional (French by default); an unknown one is a 400 that says which are known.
 */
export const loader = withDatabaseNet(async function loader({ request }: LoaderFunctionArgs) {
  const asked = new URL(request.url).searchParams.get("lng");
  if (asked !== null && !isLanguage(asked)) {
    const t = await getT(request, "offer");
    return Response.json({ error: t("api.badLanguage"), code: "bad-language" }, { status: 400 });
  }
  const data = await publicPlatformData(getEnv().SITE_URL, asked ?? "fr");
  return Response.json(data, { headers: { "Cache-Control": CACHE, "Access-Control-Allow-Origin": "*" } });
});
