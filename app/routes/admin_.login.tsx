import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { normalizeEmail } from "~db/repositories/users.server";
import { getT } from "~/i18n/i18next.server";
import { alert, button, card, field, input, label, narrow, stack } from "~/styles/ui.css";
import { authenticator, getOptionalAdmin, InvalidCredentialsError, startAdminSession } from "~/utils/auth.server";
import { clientIp, safeRedirectPath } from "~/utils/http.server";
import { routeMeta } from "~/utils/meta";
import { readFormData } from "~/utils/form-data.server";
import {
  gateLoginAttempt,
  isKnownDevice,
  knownDeviceCookie,
  recordLoginFailure,
  recordLoginSuccess,
} from "~/utils/login-throttle.server";
import { tooManyRequests } from "~/utils/rate-limit.server";
import { redirectWithToast } from "~/utils/toast.server";

export const handle = { i18n: ["admin"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const redirectTo = safeRedirectPath(new URL(request.url).searchParams.get("redirectTo"), "/admin");
  if (await getOptionalAdmin(request)) throw redirect(redirectTo, 303);
  const t = await getT(request, "admin");
  return {
    redirectTo,
    meta: { title: t("login.title"), description: t("login.description"), path: "/admin/login", noindex: true },
  };
}

export const meta = routeMeta;

type ActionData = { error: "required" | "invalid" | "forbidden"; email: string };

export async function action({ request, context }: ActionFunctionArgs) {
  // remix-auth-form reads the body again: read a copy here.
  const form = await readFormData(request.clone());
  const email = String(form.get("email") ?? "");
  const password = String(form.get("password") ?? "");
  const redirectTo = safeRedirectPath(form.get("redirectTo"), "/admin");
  if (!email.trim() || !password) return data<ActionData>({ error: "required", email }, { status: 400 });

  const address = clientIp(context);
  const account = normalizeEmail(email);
  const gate = gateLoginAttempt(account, address, await isKnownDevice(request, account));
  if (!gate.ok) throw await tooManyRequests(request, gate.retryAfterSeconds);
  if (gate.delayMs) await new Promise((resolve) => setTimeout(resolve, gate.delayMs));

  let user;
  try {
    user = await authenticator.authenticate("form", request);
  } catch (error) {
    if (!(error instanceof InvalidCredentialsError)) console.error("[login]", error);
    recordLoginFailure(account, address);
    return data<ActionData>({ error: "invalid", email }, { status: 401 });
  }
  if (!user.isAdmin) {
    // Signed out at once: no session is ever created for a non-admin.
    return data<ActionData>({ error: "forbidden", email }, { status: 403 });
  }
  recordLoginSuccess(account, address);
  const headers = new Headers({ "Set-Cookie": await startAdminSession(user.id) });
  headers.append("Set-Cookie", await knownDeviceCookie(account));
  return redirectWithToast(redirectTo, { type: "success", key: "admin:login.success" }, { headers });
}

export default function AdminLogin() {
  const { redirectTo } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("admin");
  const navigation = useNavigation();
  const pending = navigation.state === "submitting";
  const error = actionData?.error;

  return (
    <div className={narrow}>
      <div className={`${card} ${stack}`}>
        <h1>{t("login.title")}</h1>
        {error ? (
          <p className={alert.error} role="alert" id="login-error">
            {t(`login.errors.${error}`)}
          </p>
        ) : null}
        <Form method="post" className={stack} aria-describedby={error ? "login-error" : undefined}>
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <div className={field}>
            <label htmlFor="email" className={label}>
              {t("login.email")}
            </label>
            <input
              id="email"
              name="email"
              type="email"
              autoComplete="username"
              required
              className={input}
              defaultValue={actionData?.email ?? ""}
            />
          </div>
          <div className={field}>
            <label htmlFor="password" className={label}>
              {t("login.password")}
            </label>
            <input id="password" name="password" type="password" autoComplete="current-password" required className={input} />
          </div>
          <button type="submit" className={button.primary} disabled={pending}>
            {pending ? t("login.pending") : t("login.submit")}
          </button>
        </Form>
      </div>
    </div>
  );
}
