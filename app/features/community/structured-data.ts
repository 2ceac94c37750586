import { SITE_NAME } from "~/utils/meta";

/** JSON-LD for the public pages (schema.org). */
export function organizationLd(siteUrl: string, description: string) {
  return {
    "@context": "https://schema.org",
    "@type": "Organization",
    name: SITE_NAME,
    url: siteUrl,
    logo: `${siteUrl}/favicon.svg`,
    description,
  };
}

/** Home, then each page in order (a platform, then its draw page). */
export function breadcrumbLd(siteUrl: string, homeName: string, ...pages: Array<{ name: string; path: string }>) {
  return {
    "@context": "https://schema.org",
    "@type": "BreadcrumbList",
    itemListElement: [
      { "@type": "ListItem", position: 1, name: homeName, item: siteUrl },
      ...pages.map((page, i) => ({ "@type": "ListItem", position: i + 2, name: page.name, item: `${siteUrl}${page.path}` })),
    ],
  };
}
