import type { LoaderFunctionArgs } from "@remix-run/node";
import { data, Form, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { AuditReport, CheckResult, CheckStatus, Message } from "~/features/sitemap-audit/checks";
import * as styles from "~/features/sitemap-audit/audit.css";
import { outcomeStatus, readAuditQuery, runAuditRequest } from "~/features/sitemap-audit/request.server";
import { breadcrumbLd } from "~/features/community/structured-data";
import { getLanguage, getT } from "~/i18n/i18next.server";
import { CheckboxField, Field } from "~/components/forms";
import { SubmitButton } from "~/components/submit-button";
import { card, input, muted, narrow, section, stack } from "~/styles/ui.css";
import { getEnv } from "~/utils/env.server";
import { routeMeta } from "~/utils/meta";
import { usePending } from "~/utils/use-pending";
import { tooManyRequests } from "~/utils/rate-limit.server";
import type { SitemapHandle } from "~/features/community/sitemap";
import { withDatabaseNet } from "~/utils/failures.server";

export const handle = {
  i18n: ["audit"],
  sitemap: { changefreq: "monthly", priority: 0.4, lastmod: "2026-11-23" } satisfies SitemapHandle,
};

export const loader = withDatabaseNet(async function loader({ request, context }: LoaderFunctionArgs) {
  const siteUrl = getEnv().SITE_URL;
  const query = readAuditQuery(request);
  const [t, outcome] = await Promise.all([getT(request, "audit"), runAuditRequest(request, context, query)]);
  if (outcome.kind === "limited") throw await tooManyRequests(request, outcome.retryAfterSeconds);
  const defaultUrl = `${siteUrl}/sitemap.xml`;
  return data(
    {
      query: { url: query.url || defaultUrl, www: query.www },
      outcome,
      meta: {
        title: t("meta.title"),
        description: t("meta.description"),
        path: "/sitemap-audit",
        // A report is one visitor's answer; only the empty form is worth indexing.
        noindex: !!query.url,
        structuredData: breadcrumbLd(
          { siteUrl, language: await getLanguage(request), homeName: t("page.breadcrumbHome") },
          {
            name: t("meta.title"),
            path: "/sitemap-audit",
          },
        ),
      },
    },
    {
      status: outcomeStatus(outcome),
      headers: { "Cache-Control": "private, no-store", ...(outcome.kind === "busy" ? { "Retry-After": "10" } : {}) },
    },
  );
});

export const meta = routeMeta;

export default function SitemapAudit() {
  const { query, outcome } = useLoaderData<typeof loader>();
  const { t } = useTranslation("audit");
  const pending = usePending({ formAction: "/sitemap-audit" });
  const jsonExample = `/sitemap-audit.json?url=${encodeURIComponent(query.url)}${query.www ? "&www=on" : ""}`;

  return (
    <div className={narrow}>
      <section className={section} aria-labelledby="audit-heading">
        <div className={stack}>
          <h1 id="audit-heading">{t("page.heading")}</h1>
          <p className={muted}>{t("page.intro")}</p>
          {/* Keyed by the query, so the fields show what was audited after each navigation. */}
          <Form method="get" action="/sitemap-audit" className={`${card} ${stack}`} key={`${query.url}|${query.www}`}>
            <Field id="audit-url" label={t("form.url")} description={t("form.urlHint")}>
              {(control) => (
                <input
                  {...control}
                  name="url"
                  type="url"
                  inputMode="url"
                  required
                  maxLength={2048}
                  defaultValue={query.url}
                  className={input}
                />
              )}
            </Field>
            <CheckboxField id="audit-www" label={t("form.www")}>
              {(control) => <input {...control} name="www" defaultChecked={query.www} />}
            </CheckboxField>
            <SubmitButton formAction="/sitemap-audit" pendingLabel={t("form.pending")} data-testid="audit-submit">
              {t("form.submit")}
            </SubmitButton>
            {pending ? (
              <p role="status" className={`${muted} ${styles.flush}`} data-testid="audit-pending">
                {t("form.pending")}
              </p>
            ) : null}
          </Form>
        </div>
      </section>

      <div aria-busy={pending} className={pending ? styles.stale : undefined}>
        {outcome.kind === "refused" ? (
          <div className={styles.problem} role="alert" data-testid="audit-refused">
            <h2>{t("refusal.heading")}</h2>
            <p>{t(`refusal.${outcome.reason}` as never)}</p>
          </div>
        ) : null}
        {outcome.kind === "failed" ? (
          <div className={styles.problem} role="alert" data-testid="audit-failed">
            <h2>{t("failure.heading")}</h2>
            <p>{t(`failure.${outcome.reason}` as never)}</p>
          </div>
        ) : null}
        {outcome.kind === "busy" ? (
          <div className={styles.problem} role="alert" data-testid="audit-busy">
            <p>{t("busy")}</p>
          </div>
        ) : null}
        {outcome.kind === "report" ? <Report report={outcome.report} /> : null}
      </div>

      <p className={`${muted} ${styles.jsonHint}`}>{t("page.json", { example: jsonExample })}</p>
    </div>
  );
}

function statusText(t: (key: string) => string, status: CheckStatus) {
  return t(`report.status.${status}`);
}

function Report({ report }: { report: AuditReport }) {
  const { t } = useTranslation("audit");
  const tt = t as unknown as (key: string, values?: Message["values"]) => string;
  return (
    <section className={section} aria-labelledby="report-heading" data-testid="audit-report">
      <h2 id="report-heading">{t("report.heading")}</h2>
      <div className={`${styles.overall} ${styles.tone[report.status]}`} data-testid="audit-overall" data-status={report.status}>
        <strong>{tt(`report.overall.${report.status}`)}</strong>
        <span className={styles.url}>{t("report.audited", { url: report.url })}</span>
        {report.finalUrl !== report.url ? (
          <span className={styles.url}>{t("report.finalUrl", { url: report.finalUrl })}</span>
        ) : null}
      </div>
      <ul className={styles.checkList}>
        {report.checks.map((check) => (
          <CheckItem key={check.id} check={check} />
        ))}
      </ul>
      {report.children.length > 0 ? (
        <>
          <h3>{t("report.children")}</h3>
          <ul className={styles.checkList} data-testid="audit-children">
            {report.children.map((child, index) => (
              <li
                key={`${index}-${child.url}`}
                className={`${styles.check} ${styles.tone[child.status]}`}
                data-testid="audit-child"
                data-status={child.status}
              >
                <span className={styles.checkHead}>
                  <span className={`${styles.badge} ${styles.tone[child.status]}`}>{statusText(tt, child.status)}</span>
                  <span className={styles.url}>{child.url}</span>
                </span>
                <span>
                  {child.failure
                    ? tt(child.failure.key, child.failure.values)
                    : [
                        t("report.childUrls", { count: child.urls }),
                        child.failing.length
                          ? t("report.childFailing", { checks: child.failing.map((id) => tt(`names.${id}`)).join(", ") })
                          : "",
                      ]
                        .filter(Boolean)
                        .join(" · ")}
                </span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

function CheckItem({ check }: { check: CheckResult }) {
  const { t } = useTranslation("audit");
  const tt = t as unknown as (key: string, values?: Message["values"]) => string;
  return (
    <li
      className={`${styles.check} ${styles.tone[check.status]}`}
      data-testid="audit-check"
      data-check={check.id}
      data-status={check.status}
    >
      <span className={styles.checkHead}>
        <span className={`${styles.badge} ${styles.tone[check.status]}`}>{statusText(tt, check.status)}</span>
        <strong>{tt(`names.${check.id}`)}</strong>
      </span>
      <span>{tt(`checks.${check.message.key}`, check.message.values)}</span>
      {check.examples?.length ? (
        <details>
          <summary>{t("report.examples")}</summary>
          <ul className={styles.examples}>
            {check.examples.map((example, i) => (
              <li key={i} className={styles.url}>
                {example}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </li>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-pages";
