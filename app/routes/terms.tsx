import { Link } from "@remix-run/react";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "react-i18next";
import * as styles from "~/features/community/community.css";
import { legalMeta } from "~/features/community/legal-page.server";
import { muted, narrow, section } from "~/styles/ui.css";
import { routeMeta } from "~/utils/meta";
import type { SitemapHandle } from "~/features/community/sitemap";
import { withDatabaseNet } from "~/utils/failures.server";

export const handle = {
  i18n: ["legal"],
  sitemap: { changefreq: "yearly", priority: 0.3, lastmod: "2026-11-22" } satisfies SitemapHandle,
};

export const loader = withDatabaseNet(async function loader({ request }: LoaderFunctionArgs) {
  return { meta: await legalMeta(request, "terms") };
});

export const meta = routeMeta;

const SECTIONS = ["service", "use", "codes", "affiliate", "liability", "changes"] as const;

export default function Terms() {
  const { t } = useTranslation("legal");
  return (
    <article className={`${narrow} ${section} ${styles.prose}`}>
      <h1>{t("terms.heading")}</h1>
      <p>{t("terms.intro")}</p>
      {SECTIONS.map((key) => (
        <section key={key} id={key === "affiliate" ? "affiliate-links" : undefined} aria-labelledby={`terms-${key}`}>
          <h2 id={`terms-${key}`}>{t(`terms.${key}.title`)}</h2>
          <p>{t(`terms.${key}.text`)}</p>
        </section>
      ))}
      <p>
        <Link to="/privacy">{t("terms.privacyLink")}</Link>
      </p>
      <p className={muted}>{t("updated")}</p>
    </article>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-pages";
