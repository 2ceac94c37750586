import { Form, useLocation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { LANGUAGE_NAMES, SUPPORTED_LANGUAGES } from "~/i18n/config";
import * as layout from "~/styles/layout.css";
import { visuallyHidden } from "~/styles/ui.css";

/**
 * A plain form to /preferences: a native select and its OK button, with or without JS. Picking an
 * option changes nothing until the button (or Enter) is pressed, so the arrow keys can walk the list
 * (WCAG 3.2.2: no change of context on input). With JS the choice is also mirrored to localStorage.
 */
export function LanguageForm() {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const redirectTo = `${location.pathname}${stripLng(location.search)}`;

  return (
    <Form
      method="post"
      action="/preferences"
      className={layout.inlineForm}
      preventScrollReset
      onSubmit={(event) => {
        const chosen = new FormData(event.currentTarget).get("language");
        try {
          if (typeof chosen === "string") localStorage.setItem("language", chosen);
        } catch {
          // storage unavailable
        }
      }}
    >
      <input type="hidden" name="intent" value="set-language" />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <label htmlFor="language-select" className={visuallyHidden}>
        {t("nav.language")}
      </label>
      <select id="language-select" name="language" className={layout.select} defaultValue={i18n.language} key={i18n.language}>
        {SUPPORTED_LANGUAGES.map((lng) => (
          <option key={lng} value={lng} lang={lng}>
            {LANGUAGE_NAMES[lng]}
          </option>
        ))}
      </select>
      <button type="submit" className={layout.iconButton}>
        {t("nav.apply")}
      </button>
    </Form>
  );
}

function stripLng(search: string): string {
  const params = new URLSearchParams(search);
  params.delete("lng");
  const rest = params.toString();
  return rest ? `?${rest}` : "";
}
