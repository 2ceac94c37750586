import { useEffect, useId, useRef, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Field } from "~/components/forms";
import { OwnerLink } from "./owner-link";
import { buttonClass } from "~/styles/recipes";
import { card, input, row, scriptOnly, stack, visuallyHidden } from "~/styles/ui.css";
import { useHydrated } from "~/utils/use-hydrated";
import * as styles from "./codes.css";
import { CopyButton } from "./copy-button";
import { shareLinks } from "./share-links";

/** With JS, the thank-you step opens as a dialog 500 ms after a successful submit. */
const THANKS_DIALOG_DELAY_MS = 500;

/**
 * Without JS the thank-you step is part of the page; with JS it opens as a modal dialog. The owner's
 * private link is inside it: a modal makes the rest of the page inert.
 */
export function ThankYou({ siteUrl, ownerLink }: { siteUrl: string; ownerLink: string | null }) {
  const { t } = useTranslation("submit");
  const hydrated = useHydrated();
  const dialogRef = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (!hydrated) return;
    const timer = setTimeout(() => {
      const dialog = dialogRef.current;
      if (dialog && !dialog.open && typeof dialog.showModal === "function") dialog.showModal();
    }, THANKS_DIALOG_DELAY_MS);
    return () => clearTimeout(timer);
  }, [hydrated]);
  const owner = ownerLink ? <OwnerLink href={ownerLink} /> : null;
  if (!hydrated) return <ThankYouContent siteUrl={siteUrl} owner={owner} />;
  return (
    <dialog ref={dialogRef} className={styles.thanksDialog} aria-labelledby="thanks-heading" data-testid="thank-you-dialog">
      <ThankYouContent
        siteUrl={siteUrl}
        owner={owner}
        close={
          <form method="dialog" className={styles.dialogClose}>
            <button type="submit" className={buttonClass({ tone: "ghost" })}>
              {t("thanks.close")}
            </button>
          </form>
        }
      />
    </dialog>
  );
}

function ThankYouContent({ siteUrl, owner, close }: { siteUrl: string; owner: ReactNode; close?: ReactNode }) {
  const { t } = useTranslation("submit");
  const hydrated = useHydrated();
  const id = useId();
  const text = t("thanks.shareText");
  const canShare = hydrated && typeof navigator !== "undefined" && typeof navigator.share === "function";
  return (
    <section className={`${card} ${stack}`} aria-labelledby="thanks-heading" data-testid="thank-you">
      {close}
      <h2 id="thanks-heading">{t("thanks.heading")}</h2>
      <p>{t("thanks.text")}</p>
      {owner}
      <Field id={`${id}-site-url`} label={t("thanks.siteUrlLabel")}>
        {(control) => <input {...control} className={input} readOnly value={siteUrl} />}
      </Field>
      <div className={row}>
        <CopyButton value={siteUrl} label={t("thanks.copy")} copiedLabel={t("thanks.copied")} className={scriptOnly} />
        {/* Only in the dialog, which is drawn after hydration: whether there is a share sheet is known by then. */}
        {canShare ? (
          <button
            type="button"
            className={buttonClass({ tone: "secondary" })}
            onClick={() => void navigator.share({ text, url: siteUrl }).catch(() => {})}
          >
            {t("thanks.nativeShare")}
          </button>
        ) : null}
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
