import type { LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "react-i18next";
import * as styles from "~/features/community/community.css";
import { legalMeta } from "~/features/community/legal-page.server";
import { ServerHtml } from "~/components/server-html";
import { muted, narrow, section } from "~/styles/ui.css";
import { routeMeta } from "~/utils/meta";
import type { SitemapHandle } from "~/features/community/sitemap";
import { SiteLink } from "~/components/site-link";

export const handle = {
  i18n: ["legal"],
  sitemap: { changefreq: "yearly", priority: 0.3, lastmod: "2026-11-22" } satisfies SitemapHandle,
};

export async function loader({ request }: LoaderFunctionArgs) {
  return { meta: await legalMeta(request, "privacy") };
}

export const meta = routeMeta;

export default function Privacy() {
  const { t } = useTranslation("legal");
  return (
    // Legal text: kept as the server rendered it, never hydrated.
    <ServerHtml as="article" id="privacy" className={`${narrow} ${section} ${styles.prose}`}>
      <h1>{t("privacy.heading")}</h1>
      <p>{t("privacy.intro")}</p>
      <h2>{t("privacy.stored.title")}</h2>
      <ul>
        {(["codes", "answers", "ownerLink", "suggestions", "deletions", "scores", "logs"] as const).map((key) => (
          <li key={key}>{t(`privacy.stored.${key}`)}</li>
        ))}
      </ul>
      <h2>{t("privacy.cookies.title")}</h2>
      <ul>
        {(["clientId", "preferences", "consent", "ownerLink", "toast"] as const).map((key) => (
          <li key={key}>{t(`privacy.cookies.${key}`)}</li>
        ))}
      </ul>
      <p>{t("privacy.cookies.thirdParty")}</p>
      <h2>{t("privacy.retention.title")}</h2>
      <p>{t("privacy.retention.text")}</p>
      <h2>{t("privacy.rights.title")}</h2>
      <p>{t("privacy.rights.text")}</p>
      <p>
        <SiteLink to="/submit">{t("privacy.rights.link")}</SiteLink>
      </p>
      <p className={muted}>{t("updated")}</p>
    </ServerHtml>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
