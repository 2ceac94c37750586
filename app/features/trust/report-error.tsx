import { useTranslation } from "react-i18next";
import { alert } from "~/styles/ui.css";

/** A refused answer on a page that no longer shows its draw (e.g. a forged token): the message alone. */
export function ReportError({ error }: { error: string }) {
  const { t } = useTranslation("trust");
  return (
    <p className={alert.error} role="alert" data-testid="report-error">
      {t(error)}
    </p>
  );
}
