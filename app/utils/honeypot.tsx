import { useTranslation } from "react-i18next";
import { offscreen } from "~/styles/ui.css";

/**
 * A field people never see nor fill; bots that fill every input give themselves away.
 * Off-screen (not display:none, which some bots skip), out of the tab order, hidden from assistive tech.
 */
const HONEYPOT_FIELD = "website_confirm";

export function HoneypotField() {
  const { t } = useTranslation();
  return (
    <div aria-hidden="true" className={offscreen}>
      <label>
        {t("honeypot.label")}
        <input type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
      </label>
    </div>
  );
}

/** True when the hidden field was filled: treat the submission as spam (answer 400, write nothing). */
export function isHoneypotFilled(form: FormData): boolean {
  const value = form.get(HONEYPOT_FIELD);
  return typeof value === "string" && value.length > 0;
}
