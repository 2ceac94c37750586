import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import type { PageCacheHandle } from "~/utils/page-cache.server";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { normalizeEmail } from "~db/repositories/users.server";
import { loginSchema } from "~/features/admin/login-schema";
import { getT } from "~/i18n/i18next.server";
import { cardClass } from "~/styles/recipes";
import { input, narrow, stack } from "~/styles/ui.css";
import { authenticator, getOptionalAdmin, InvalidCredentialsError, startAdminSession } from "~/utils/auth.server";
import { addressKeyOf } from "~/utils/client-address.server";
import { safeRedirectPath } from "~/utils/http.server";
import { routeMeta } from "~/utils/meta";
import { readFormData } from "~/utils/form-data.server";
import { claimLoginAttempt, isKnownDevice, knownDeviceCookie, settleLoginAttempt } from "~/utils/login-throttle.server";
import { tooManyRequests } from "~/utils/rate-limit.server";
import { keepRetryAfter } from "~/utils/responses.server";
import { redirectWithToast } from "~/utils/toast.server";
import { ErrorList, Field, SubmitButton } from "~/components/forms";
import { unavailableKindOf } from "~db/availability.server";
import { withDatabaseNet } from "~/utils/failures.server";

export const handle = { i18n: ["admin"], pageCache: false } satisfies PageCacheHandle & { i18n: string[] };

export const loader = withDatabaseNet(async function loader({ request }: LoaderFunctionArgs) {
  const redirectTo = safeRedirectPath(new URL(request.url).searchParams.get("redirectTo"), "/admin");
  if (await getOptionalAdmin(request)) throw redirect(redirectTo, 303);
  const t = await getT(request, "admin");
  return {
    redirectTo,
    meta: { title: t("login.title"), description: t("login.description"), path: "/admin/login", noindex: true },
  };
});

export const meta = routeMeta;
export const headers = keepRetryAfter;

export const action = withDatabaseNet(async function action({ request, context }: ActionFunctionArgs) {
  // remix-auth-form reads the body again: read a copy here.
  const form = await readFormData(request.clone());
  const submission = parseWithZod(form, { schema: loginSchema });
  // The password never goes back to the page.
  const reply = (formErrors?: string[]) => submission.reply({ formErrors, hideFields: ["password"] });
  if (submission.status !== "success") return data({ result: reply() }, { status: 400 });
  const { email } = submission.value;
  const redirectTo = safeRedirectPath(submission.value.redirectTo, "/admin");

  const address = addressKeyOf(context);
  const account = normalizeEmail(email);
  const gate = await claimLoginAttempt(account, address, await isKnownDevice(request, account));
  if (!gate.ok) throw await tooManyRequests(request, gate.retryAfterSeconds);
  if (gate.delayMs) await new Promise((resolve) => setTimeout(resolve, gate.delayMs));

  let user;
  try {
    user = await authenticator.authenticate("form", request);
  } catch (error) {
    // A database that cannot answer is not a wrong password: the route's net answers 503 (decision 304).
    if (unavailableKindOf(error) !== null) throw error;
    if (!(error instanceof InvalidCredentialsError)) console.error("[login]", error);
    return data({ result: reply(["login.errors.invalid"]) }, { status: 401 });
  }
  // The right password: the attempt claimed above was no failure.
  await settleLoginAttempt(account, address);
  if (!user.isAdmin) {
    // Signed out at once: no session is ever created for a non-admin.
    return data({ result: reply(["login.errors.forbidden"]) }, { status: 403 });
  }
  const headers = new Headers({ "Set-Cookie": await startAdminSession(request, user.id) });
  headers.append("Set-Cookie", await knownDeviceCookie(account));
  return redirectWithToast(redirectTo, { type: "success", key: "admin:login.success" }, { headers });
});

export default function AdminLogin() {
  const { redirectTo } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("admin");
  const [form, fields] = useForm({
    id: "login",
    lastResult: actionData?.result,
    constraint: getZodConstraint(loginSchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: loginSchema }),
  });
  // One message for the whole form, as a sign-in page should not say which field was wrong.
  const error = form.errors?.[0] ?? fields.email.errors?.[0] ?? fields.password.errors?.[0];

  return (
    <div className={narrow}>
      <div className={`${cardClass()} ${stack}`}>
        <h1>{t("login.title")}</h1>
        <ErrorList tone="form" id="login-error" errors={[error]} translate={t} />
        <Form method="post" {...getFormProps(form)} className={stack} aria-describedby={error ? "login-error" : undefined}>
          <input type="hidden" name="redirectTo" value={redirectTo} />
          {/* The one message stands above the form: no field says which one was wrong. */}
          <Field id={fields.email.id} label={t("login.email")}>
            {() => <input {...getInputProps(fields.email, { type: "email" })} autoComplete="username" className={input} />}
          </Field>
          <Field id={fields.password.id} label={t("login.password")}>
            {() => (
              <input
                {...getInputProps(fields.password, { type: "password" })}
                autoComplete="current-password"
                className={input}
              />
            )}
          </Field>
          <SubmitButton formAction="/admin/login" pendingLabel={t("login.pending")}>
            {t("login.submit")}
          </SubmitButton>
        </Form>
      </div>
    </div>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-pages";
