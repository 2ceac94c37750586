import { useTranslation } from "react-i18next";
import { CopyButton } from "~/features/codes/copy-button";
import * as codes from "~/features/codes/codes.css";
import { alert, card, muted, row, stack } from "~/styles/ui.css";
import { useHydrated } from "~/utils/use-hydrated";
import * as trust from "./trust.css";

/** After a submit: the owner's private link, shown this once, with a plain warning to keep it. */
export function OwnerLink({ href }: { href: string }) {
  const { t } = useTranslation("trust");
  const hydrated = useHydrated();
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
      {hydrated ? (
        <div className={row}>
          <CopyButton value={href} label={t("ownerLink.copy")} copiedLabel={t("ownerLink.copied")} testId="copy-owner-link" />
        </div>
      ) : (
        <p className={`${muted} ${trust.flush}`}>{t("ownerLink.copyHint")}</p>
      )}
      <p className={`${alert.warning} ${trust.flush}`} role="note">
        {t("ownerLink.warning")}
      </p>
    </section>
  );
}
