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

export function breadcrumbLd(siteUrl: string, homeName: string, page: { name: string; path: string }) {
  return {
    "@context": "https://schema.org",
    "@type": "BreadcrumbList",
    itemListElement: [
      { "@type": "ListItem", position: 1, name: homeName, item: siteUrl },
      { "@type": "ListItem", position: 2, name: page.name, item: `${siteUrl}${page.path}` },
    ],
  };
}
