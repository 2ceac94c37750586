import { useEffect, useId, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Field } from "~/components/forms";
import { IntentButton } from "~/components/submit-button";
import { OwnerLink } from "./owner-link";
import { buttonClass } from "~/styles/recipes";
import { card, hint, input, row, scriptOnly, stack, visuallyHidden } from "~/styles/ui.css";
import * as styles from "./codes.css";
import { CopyButton } from "./copy-button";
import { shareLinks } from "./share-links";

/**
 * After a submit, a step of the page (post, redirect, get), not a dialog a key could close: it names
 * the code that was added, keeps the owner's private link until the sharer says they saved it (the
 * "saved" button, which brings back an empty form), and offers to spread the word. The same with and
 * without JavaScript.
 */
export function ThankYou({
  siteUrl,
  code,
  platform,
  ownerLink,
}: {
  siteUrl: string;
  code: string;
  platform: string;
  ownerLink: string;
}) {
  const { t } = useTranslation("submit");
  const id = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  // Reached by a script (the form's post, then its redirect): the focus goes to the step's heading.
  useEffect(() => heading.current?.focus(), []);
  const text = t("thanks.shareText");
  return (
    <section className={`${card} ${stack}`} aria-labelledby="thanks-heading" data-testid="thank-you">
      <h2 id="thanks-heading" ref={heading} tabIndex={-1}>
        {t("thanks.heading")}
      </h2>
      <p data-testid="thanks-code">{t("thanks.added", { code, platform })}</p>
      <OwnerLink href={ownerLink} />
      <p className={hint}>{t("thanks.savedHint")}</p>
      <IntentButton intent="saved" tone="primary" data-testid="owner-link-saved">
        {t("thanks.saved")}
      </IntentButton>
      <p>{t("thanks.text")}</p>
      <Field id={`${id}-site-url`} label={t("thanks.siteUrlLabel")}>
        {(control) => <input {...control} className={input} readOnly value={siteUrl} />}
      </Field>
      {/* In the server's HTML too, hidden without scripts: hydration moves nothing. The share button
          opens the system's share sheet where there is one, and copies the text elsewhere. */}
      <div className={`${row} ${scriptOnly}`}>
        <CopyButton value={siteUrl} label={t("thanks.copy")} copiedLabel={t("thanks.copied")} />
        <CopyButton value={`${text} ${siteUrl}`} label={t("thanks.nativeShare")} share={{ text, url: siteUrl }} />
      </div>
      <h3>{t("thanks.shareHeading")}</h3>
      <ul className={styles.shareList}>
        {shareLinks(siteUrl, text).map((link) => (
          <li key={link.id}>
            <a
              className={buttonClass({ tone: "ghost" })}
              href={link.href}
              target="_blank"
              rel="noopener noreferrer"
              data-testid={`share-${link.id}`}
            >
              {link.label}
              <span className={visuallyHidden}>{t("thanks.newTab")}</span>
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
