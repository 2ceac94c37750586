import { Form, useLocation, useSubmit } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { LANGUAGE_NAMES, SUPPORTED_LANGUAGES } from "~/i18n/config";
import * as layout from "~/styles/layout.css";
import { noScriptOnly, visuallyHidden } from "~/styles/ui.css";
import { useHydrated } from "~/utils/use-hydrated";

/** A plain form to /preferences; with JS it submits on change and mirrors to localStorage. */
export function LanguageForm() {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const submit = useSubmit();
  const hydrated = useHydrated();
  const redirectTo = `${location.pathname}${stripLng(location.search)}`;
  const select = useRef<HTMLSelectElement>(null);

  const apply = (element: HTMLSelectElement) => {
    try {
      localStorage.setItem("language", element.value);
    } catch {
      // storage unavailable
    }
    submit(element.form, { preventScrollReset: true });
  };

  // A language picked before the page's script ran (a slow phone) had no handler, and the OK button
  // goes away on hydration: apply that choice now instead of leaving it shown but unsaved.
  useEffect(() => {
    if (select.current && select.current.value !== i18n.language) apply(select.current);
    // Once, on hydration.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <Form method="post" action="/preferences" className={layout.inlineForm} preventScrollReset>
      <input type="hidden" name="intent" value="set-language" />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <label htmlFor="language-select" className={visuallyHidden}>
        {t("nav.language")}
      </label>
      <select
        id="language-select"
        name="language"
        className={layout.select}
        defaultValue={i18n.language}
        key={i18n.language}
        ref={select}
        onChange={(event) => apply(event.currentTarget)}
      >
        {SUPPORTED_LANGUAGES.map((lng) => (
          <option key={lng} value={lng} lang={lng}>
            {LANGUAGE_NAMES[lng]}
          </option>
        ))}
      </select>
      {/* Without JS the choice needs a button; where scripts run it never shows, so hydration moves nothing. */}
      {hydrated ? null : (
        <button type="submit" className={`${layout.iconButton} ${noScriptOnly}`}>
          {t("nav.apply")}
        </button>
      )}
    </Form>
  );
}

function stripLng(search: string): string {
  const params = new URLSearchParams(search);
  params.delete("lng");
  const rest = params.toString();
  return rest ? `?${rest}` : "";
}
