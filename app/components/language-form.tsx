import { Form, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { LANGUAGE_NAMES, SUPPORTED_LANGUAGES } from "~/i18n/config";
import * as layout from "~/styles/layout.css";

/**
 * The language menu: a native disclosure (details) holding a plain form to /preferences, one
 * submit button per language, the same with or without JS. Opening it or walking it with the
 * keyboard changes nothing; only pressing a language does (WCAG 3.2.2), so no separate "OK" button
 * is needed, and the header stays one row on a phone. With JS the choice is also mirrored to
 * localStorage.
 */
export function LanguageForm() {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const redirectTo = `${location.pathname}${stripLng(location.search)}`;
  const current = (SUPPORTED_LANGUAGES as readonly string[]).includes(i18n.language) ? i18n.language : "fr";

  return (
    // A new language renders it anew, closed (its key).
    <details className={layout.languageMenu} id="language-menu" key={i18n.language}>
      <summary
        className={layout.languageSummary}
        aria-label={t("nav.languageCurrent", { name: LANGUAGE_NAMES[current as "fr"] })}
      >
        {current.toUpperCase()}
      </summary>
      <Form
        method="post"
        action="/preferences"
        className={layout.languagePanel}
        preventScrollReset
        onSubmit={(event) => {
          const chosen = (event.nativeEvent as SubmitEvent).submitter?.getAttribute("value");
          try {
            if (chosen) localStorage.setItem("language", chosen);
          } catch {
            // storage unavailable
          }
        }}
      >
        <input type="hidden" name="intent" value="set-language" />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        {SUPPORTED_LANGUAGES.map((lng) => (
          <button
            key={lng}
            type="submit"
            name="language"
            value={lng}
            lang={lng}
            className={layout.languageOption}
            aria-current={lng === current ? "true" : undefined}
          >
            {LANGUAGE_NAMES[lng]}
          </button>
        ))}
      </Form>
    </details>
  );
}

function stripLng(search: string): string {
  const params = new URLSearchParams(search);
  params.delete("lng");
  const rest = params.toString();
  return rest ? `?${rest}` : "";
}
