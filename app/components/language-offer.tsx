import * as styles from "./language-offer.css";

/**
 * On a French page, a plain link to the same page in the visitor's browser language (decision 220):
 * the URL never changes language by itself, the visitor chooses. Written in the offered language.
 */
export function LanguageOffer({ language, label, href }: { language: string; label: string; href: string }) {
  return (
    <p className={styles.offer} data-testid="language-offer">
      <a href={href} lang={language} hrefLang={language}>
        {label}
      </a>
    </p>
  );
}
