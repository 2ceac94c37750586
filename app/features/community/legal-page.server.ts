import { getLanguage, getT } from "~/i18n/i18next.server";
import { getEnv } from "~/utils/env.server";
import type { PageMeta } from "~/utils/meta";
import { breadcrumbLd } from "./structured-data";

/** Meta for /privacy and /terms: translated title, canonical path, breadcrumb. */
export async function legalMeta(request: Request, page: "privacy" | "terms"): Promise<PageMeta> {
  const t = await getT(request, "legal");
  const path = `/${page}`;
  const title = t(`${page}.meta.title`);
  return {
    title,
    description: t(`${page}.meta.description`),
    path,
    structuredData: breadcrumbLd(
      { siteUrl: getEnv().SITE_URL, language: await getLanguage(request), homeName: t("breadcrumbHome") },
      { name: title, path },
    ),
  };
}
