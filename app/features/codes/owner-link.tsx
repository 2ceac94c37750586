import { useTranslation } from "react-i18next";
import { CopyButton } from "./copy-button";
import * as codes from "./codes.css";
import { alert, card, muted, noScriptOnly, row, scriptOnly, stack } from "~/styles/ui.css";
import * as trust from "~/features/trust/trust.css";

/** After a submit: the owner's private link, shown this once, with a plain warning to keep it. */
export function OwnerLink({ href }: { href: string }) {
  const { t } = useTranslation("trust");
  return (
    <section className={`${card} ${stack}`} aria-labelledby="owner-link-heading" data-testid="owner-link-card">
      <h3 id="owner-link-heading" className={trust.flush}>
        {t("ownerLink.heading")}
      </h3>
      <p className={trust.flush}>{t("ownerLink.text")}</p>
      <p className={codes.linkText}>
        <a href={href} data-testid="owner-link" rel="nofollow">
          {href}
        </a>
      </p>
      {/* The copy button is in the server's HTML too (hidden without scripts), so hydration moves nothing. */}
      <div className={`${row} ${scriptOnly}`}>
        <CopyButton value={href} label={t("ownerLink.copy")} copiedLabel={t("ownerLink.copied")} testId="copy-owner-link" />
      </div>
      {/* Hidden where scripts run by a media query, not removed after hydration: no second render (decision 275). */}
      <p className={`${muted} ${trust.flush} ${noScriptOnly}`}>{t("ownerLink.copyHint")}</p>
      <p className={`${alert.warning} ${trust.flush}`} role="note">
        {t("ownerLink.warning")}
      </p>
    </section>
  );
}
