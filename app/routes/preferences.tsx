import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { LANGUAGE_COOKIE } from "~/i18n/i18next.server";
import { isLanguage } from "~/i18n/config";
import { preferenceCookie } from "~/utils/cookies.server";
import { getEnv } from "~/utils/env.server";
import { safeRedirectPath } from "~/utils/http.server";
import { THEME_COOKIE, isTheme } from "~/utils/theme";
import { readFormData } from "~/utils/form-data.server";

/** Language and theme choices as plain forms (contract: /preferences). */
export async function action({ request }: ActionFunctionArgs) {
  const form = await readFormData(request);
  const intent = form.get("intent");
  const redirectTo = safeRedirectPath(form.get("redirectTo"));
  const secure = getEnv().NODE_ENV === "production";

  if (intent === "set-language") {
    const language = form.get("language");
    if (!isLanguage(language)) return new Response("Unsupported language", { status: 400 });
    return redirect(withoutLng(redirectTo), {
      status: 303,
      headers: { "Set-Cookie": preferenceCookie(LANGUAGE_COOKIE, language, secure) },
    });
  }
  if (intent === "set-theme") {
    const theme = form.get("theme");
    if (!isTheme(theme)) return new Response("Unsupported theme", { status: 400 });
    return redirect(redirectTo, { status: 303, headers: { "Set-Cookie": preferenceCookie(THEME_COOKIE, theme, secure) } });
  }
  return new Response("Unknown intent", { status: 400 });
}

/** A leftover `?lng=` would override the new cookie on the next page. */
function withoutLng(path: string): string {
  const url = new URL(path, "http://x");
  url.searchParams.delete("lng");
  return `${url.pathname}${url.search}${url.hash}`;
}

export function loader() {
  return redirect("/", 303);
}
