import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { buttonClass, cardClass } from "~/styles/recipes";
import { bigEmoji, lead, muted, narrow, stack } from "~/styles/ui.css";

/** The not-found page (status 404): any unknown route, unknown platform, missing row. */
export function NotFound({ message }: { message?: string }) {
  const { t } = useTranslation();
  return (
    <PageCard testId="not-found">
      <p aria-hidden="true" className={bigEmoji}>
        🧭
      </p>
      <h1>{t("notFound.heading")}</h1>
      <p className={lead}>{t("notFound.title")}</p>
      <p className={muted}>{message ?? t("notFound.message")}</p>
    </PageCard>
  );
}

/** A centred card ending with the way home: the not-found and error pages. */
function PageCard({ children, ...attributes }: { children: React.ReactNode; testId?: string; role?: "alert"; status?: number }) {
  const { t } = useTranslation();
  return (
    <div className={narrow}>
      <div
        className={`${cardClass({ tone: "centered" })} ${stack}`}
        data-testid={attributes.testId}
        role={attributes.role}
        data-status={attributes.status}
        data-error-page=""
      >
        {children}
        <p>
          <Link to="/" className={buttonClass()}>
            {t("notFound.home")}
          </Link>
        </p>
      </div>
    </div>
  );
}

/**
 * The one general error boundary (every route exports it). Known statuses get a friendly page in the visitor's
 * language; anything else a generic message. Never a stack trace.
 */
export function GeneralErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();

  if (isRouteErrorResponse(error)) {
    // A loader may throw 404 with a translated message ("Plateforme introuvable").
    const message = typeof error.data === "string" && error.data ? error.data : undefined;
    if (error.status === 404) return <NotFound message={message} />;
    return (
      <ErrorCard
        title={t(`errors.status.${error.status}`, { defaultValue: t("errors.generic") })}
        message={message ?? t("errors.tryAgain")}
        status={error.status}
      />
    );
  }
  if (typeof window === "undefined" || import.meta.env.DEV) console.error(error);
  return <ErrorCard title={t("errors.generic")} message={t("errors.tryAgain")} status={500} />;
}

function ErrorCard({ title, message, status }: { title: string; message: string; status: number }) {
  return (
    <PageCard role="alert" status={status}>
      <h1>{title}</h1>
      <p className={muted}>{message}</p>
    </PageCard>
  );
}
