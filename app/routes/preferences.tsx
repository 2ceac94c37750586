import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { DEFAULT_LANGUAGE, isLanguage } from "~/i18n/config";
import { consentCookie, isConsentAnswer, LANGUAGE_COOKIE, preferenceCookie, THEME_COOKIE } from "~/utils/cookies.server";
import { safeRedirectPath } from "~/utils/http.server";
import { readFormData } from "~/utils/form-data.server";
import { badRequest } from "~/utils/responses.server";
import { assertUnreachable, parseIntent } from "~/utils/intent.server";
import { isTheme } from "~/utils/theme";
import { withDatabaseNet } from "~/utils/failures.server";

/** Language, theme and analytics-consent choices as plain forms: each sets its cookie and redirects back (303). */
export const action = withDatabaseNet(async function action({ request }: ActionFunctionArgs) {
  const form = await readFormData(request);
  const intent = await parseIntent(request, form, ["set-language", "set-theme", "set-consent"] as const);
  const redirectTo = safeRedirectPath(form.get("redirectTo"));

  switch (intent) {
    case "set-language": {
      const language = form.get("language");
      if (!isLanguage(language)) throw await badRequest(request);
      return redirect(inLanguage(redirectTo, language), {
        status: 303,
        headers: { "Set-Cookie": preferenceCookie(LANGUAGE_COOKIE, language) },
      });
    }
    case "set-theme": {
      const theme = form.get("theme");
      if (!isTheme(theme)) throw await badRequest(request);
      return redirect(redirectTo, { status: 303, headers: { "Set-Cookie": preferenceCookie(THEME_COOKIE, theme) } });
    }
    case "set-consent": {
      const consent = form.get("consent");
      if (!isConsentAnswer(consent)) throw await badRequest(request);
      return redirect(redirectTo, { status: 303, headers: { "Set-Cookie": consentCookie(consent) } });
    }
    default:
      return assertUnreachable(intent);
  }
});

/** The same page on the chosen language's own URL (decision 220): French bare, the others `?lng=`. */
function inLanguage(path: string, language: string): string {
  const url = new URL(path, "http://x");
  if (language === DEFAULT_LANGUAGE) url.searchParams.delete("lng");
  else url.searchParams.set("lng", language);
  return `${url.pathname}${url.search}${url.hash}`;
}

export const loader = withDatabaseNet(function loader() {
  return redirect("/", 303);
});
