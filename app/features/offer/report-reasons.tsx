import { Form } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { REPORT_REASONS } from "~db/report-rules";
import { SubmitButton } from "~/components/submit-button";
import { button, muted, stack } from "~/styles/ui.css";
import * as styles from "./offer.css";

/**
 * The answer forms under a draw: "it worked" is one button; each failure reason is a button of its
 * own little form (`outcome=failed` + `reason`), so every answer is one click, without JS. Posts to
 * the result page itself, which redirects back.
 */
export function ReportForms({ action, token }: { action: string; token: string }) {
  const { t } = useTranslation(["offer", "trust"]);
  const hidden = (
    <>
      <input type="hidden" name="intent" value="report" />
      <input type="hidden" name="draw" value={token} />
    </>
  );
  return (
    <div className={stack}>
      <p className={`${muted} ${styles.flush}`}>{t("trust:report.intro")}</p>
      <Form method="post" action={action} preventScrollReset>
        {hidden}
        <SubmitButton intent="report" name="outcome" value="worked" className={button.primary} data-testid="report-worked">
          {t("trust:report.worked")}
        </SubmitButton>
      </Form>
      <div role="group" aria-labelledby="report-reasons-heading" className={stack}>
        <p id="report-reasons-heading" className={styles.flush}>
          {t("offer:reasons.heading")}
        </p>
        <div className={styles.reasons}>
          {REPORT_REASONS.map((reason) => (
            <Form key={reason} method="post" action={action} preventScrollReset>
              {hidden}
              <input type="hidden" name="outcome" value="failed" />
              <SubmitButton
                intent="report"
                name="reason"
                value={reason}
                className={button.secondary}
                data-testid={`report-reason-${reason}`}
              >
                {t(`offer:reasons.button.${reason}`)}
              </SubmitButton>
            </Form>
          ))}
        </div>
        <p className={styles.hint}>{t("offer:reasons.hintNote")}</p>
      </div>
    </div>
  );
}
