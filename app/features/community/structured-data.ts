import { languageUrl, SITE_NAME } from "~/utils/meta";

/** JSON-LD for the public pages (schema.org). */
export function organizationLd(siteUrl: string, description: string) {
  return {
    "@context": "https://schema.org",
    "@type": "Organization",
    name: SITE_NAME,
    url: siteUrl,
    logo: `${siteUrl}/icon-512.png`,
    description,
  };
}

/**
 * Home, then each page in order (a platform, then its draw page), each on the page's language's URL
 * (the canonical of that crumb); the home page is always `SITE_URL/`.
 */
export function breadcrumbLd(
  { siteUrl, language, homeName }: { siteUrl: string; language: string; homeName: string },
  ...pages: Array<{ name: string; path: string }>
) {
  const crumbs = [{ name: homeName, path: "/" }, ...pages];
  return {
    "@context": "https://schema.org",
    "@type": "BreadcrumbList",
    itemListElement: crumbs.map((page, i) => ({
      "@type": "ListItem",
      position: i + 1,
      name: page.name,
      item: languageUrl(`${siteUrl}${page.path}`, language),
    })),
  };
}
