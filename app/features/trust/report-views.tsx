import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { buttonClass } from "~/styles/recipes";
import { alert, card, muted, stack } from "~/styles/ui.css";
import { useArrivalFocus } from "~/utils/arrival-focus";
import { AnswerFigure, type AnswerFigureData } from "./answer-figure";
import { ReportForms } from "~/features/offer/report-reasons";
import * as trust from "./trust.css";

export interface DrawReportData {
  token: string;
  answer: "worked" | "failed" | null;
  answerable: boolean;
  figure: AnswerFigureData | null;
  lastWorkedOn: string | null;
}

/**
 * "Did this code work?" under a draw's result: "worked", or one button per failure reason (each its
 * own plain form), then the answer given. Posts to the result page itself, which redirects back.
 */
export function DrawReport({ report, pagePath, error }: { report: DrawReportData; pagePath: string; error?: string | null }) {
  const { t } = useTranslation("trust");
  const action = `${pagePath}?draw=${report.token}`;
  // The answer replaces its buttons: the focus goes to the thanks (a status, so it is read), or to a refusal.
  const thanks = useArrivalFocus<HTMLParagraphElement>(report.answer);
  const refusal = useArrivalFocus<HTMLParagraphElement>(error);
  return (
    <section className={`${card} ${stack}`} aria-labelledby="report-heading" data-testid="draw-report">
      <h2 id="report-heading" className={trust.flush}>
        {t("report.heading")}
      </h2>
      {report.answer ? (
        <p role="status" data-testid="report-thanks" tabIndex={-1} ref={thanks}>
          {report.answer === "worked" ? t("report.thanksWorked") : t("report.thanksFailed")}
        </p>
      ) : report.answerable ? (
        <ReportForms action={action} token={report.token} />
      ) : (
        <p className={muted}>{t("report.errors.gone")}</p>
      )}
      {/* The code did not work: another one, right beside the answer (the draw page). */}
      {report.answer === "failed" ? (
        <p className={trust.flush}>
          <Link to={pagePath} className={buttonClass({ tone: "primary" })} data-testid="try-another">
            {t("report.tryAnother")}
          </Link>
        </p>
      ) : null}
      {error ? (
        <p className={alert.error} role="alert" data-testid="report-error" tabIndex={-1} ref={refusal}>
          {t(error)}
        </p>
      ) : null}
      <AnswerFigure figure={report.figure} />
      <p className={`${muted} ${trust.flush}`} data-testid="last-worked">
        {report.lastWorkedOn ? t("report.lastWorked", { date: report.lastWorkedOn }) : t("report.neverWorked")}
      </p>
    </section>
  );
}
