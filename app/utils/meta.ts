import type { MetaArgs, MetaDescriptor } from "@remix-run/react";

export const SITE_NAME = "Parrainly";
const DEFAULT_OG_IMAGE = "/og-default.png";

/** What a loader tells about its page; translated on the server (see pageMeta). */
export interface PageMeta {
  title: string;
  description: string;
  keywords?: string;
  /** Path for the canonical link; the site base alone when absent. */
  path?: string;
  ogImage?: string;
  structuredData?: Record<string, unknown> | Array<Record<string, unknown>>;
  /** Keep crawlers out (admin, results of a draw). */
  noindex?: boolean;
}

function absolute(siteUrl: string, pathOrUrl: string): string {
  return /^https?:\/\//.test(pathOrUrl) ? pathOrUrl : `${siteUrl}${pathOrUrl.startsWith("/") ? "" : "/"}${pathOrUrl}`;
}

const LANGUAGES = ["fr", "en", "de", "es"] as const;

/**
 * Each language version lives on its own URL: French (the default) on the bare path, the others
 * with `?lng=xx`. The bare path is also x-default (it follows the visitor's cookie or browser).
 */
export function languageUrl(url: string, language: string): string {
  if (language === "fr") return url;
  return `${url}${url.includes("?") ? "&" : "?"}lng=${language}`;
}

/**
 * The one metadata helper, so every page has the same tags: `{title} | Parrainly`, a self-referencing
 * canonical, hreflang alternates, Open Graph, JSON-LD.
 */
export function buildMeta(meta: PageMeta, siteUrl: string, language = "fr"): MetaDescriptor[] {
  const title = `${meta.title} | ${SITE_NAME}`;
  const base = meta.path ? absolute(siteUrl, meta.path) : siteUrl;
  const canonical = languageUrl(base, language);
  const image = absolute(siteUrl, meta.ogImage ?? DEFAULT_OG_IMAGE);
  const tags: MetaDescriptor[] = [
    { title },
    { name: "description", content: meta.description },
    { tagName: "link", rel: "canonical", href: canonical },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: SITE_NAME },
    { property: "og:locale", content: { fr: "fr_FR", en: "en_GB", de: "de_DE", es: "es_ES" }[language] ?? "fr_FR" },
    { property: "og:title", content: title },
    { property: "og:description", content: meta.description },
    { property: "og:url", content: canonical },
    { property: "og:image", content: image },
    { name: "twitter:card", content: "summary_large_image" },
  ];
  if (meta.keywords) tags.push({ name: "keywords", content: meta.keywords });
  if (meta.noindex) tags.push({ name: "robots", content: "noindex, nofollow" });
  else {
    for (const lng of LANGUAGES) tags.push({ tagName: "link", rel: "alternate", hrefLang: lng, href: languageUrl(base, lng) });
    tags.push({ tagName: "link", rel: "alternate", hrefLang: "x-default", href: base });
  }
  if (meta.structuredData) tags.push({ "script:ld+json": meta.structuredData });
  return tags;
}

interface RootMetaData {
  siteUrl: string;
  language: string;
  meta?: PageMeta;
}

/**
 * Every route's `meta` export: reads `meta` from its own loader data, falling back to the root's.
 * `export const meta = routeMeta;`
 */
export function routeMeta({ data, matches, error }: MetaArgs): MetaDescriptor[] {
  const root = matches.find((m) => m.id === "root")?.data as RootMetaData | undefined;
  const own = (data as { meta?: PageMeta } | undefined)?.meta;
  const meta = own ?? root?.meta;
  if (!root || !meta) return [{ title: SITE_NAME }];
  // An error page (an unknown path, a refusal) is no version of any page: a canonical or alternates
  // there would name the home page (the root's meta) as this URL's original. Kept out of indexes.
  if (error) return [{ title: `${meta.title} | ${SITE_NAME}` }, { name: "robots", content: "noindex, nofollow" }];
  return buildMeta(meta, root.siteUrl, root.language);
}
