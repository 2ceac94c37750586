import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ErrorList, Field } from "~/components/forms";
import { SubmitButton } from "~/components/submit-button";
import { SiteLink } from "~/components/site-link";
import { createRemovalRequest } from "~db/repositories/removal-requests.server";
import { REMOVAL_DETAILS_MAX, REMOVAL_DETAILS_MIN, REMOVAL_RATE_LIMIT, removalSchema } from "~/features/community/removal-schema";
import { getT } from "~/i18n/i18next.server";
import { card, input, muted, narrow, row, stack } from "~/styles/ui.css";
import { addressKeyOf } from "~/utils/client-address.server";
import { writeOrFail } from "~/utils/failures.server";
import { readFormData } from "~/utils/form-data.server";
import { HoneypotField, isHoneypotFilled } from "~/utils/honeypot";
import { routeMeta } from "~/utils/meta";
import { hitRateLimit, tooManyRequests } from "~/utils/rate-limit.server";
import { keepRetryAfter } from "~/utils/responses.server";
import { serverForm } from "~/utils/server-form";
import { redirectWithToast } from "~/utils/toast.server";
import { useArrivalFocus } from "~/utils/arrival-focus";

export const handle = { i18n: ["legal"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const t = await getT(request, "legal");
  return {
    meta: {
      title: t("privacy.removal.meta.title"),
      description: t("privacy.removal.meta.description"),
      path: "/privacy/removal",
    },
  };
}

export const meta = routeMeta;

export const headers = keepRetryAfter;

/**
 * A request to remove anything about the visitor, no code needed (decision 324): what they
 * describe goes to the admin's queue (the deletion requests tab). Validated on the server only.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const form = await readFormData(request);
  const submission = parseWithZod(form, { schema: removalSchema });
  if (isHoneypotFilled(form)) {
    return data({ result: submission.reply({ formErrors: ["privacy.removal.errors.spam"] }) }, { status: 400 });
  }
  const limit = await hitRateLimit(REMOVAL_RATE_LIMIT, addressKeyOf(context));
  if (!limit.ok) throw await tooManyRequests(request, limit.retryAfterSeconds);
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  await writeOrFail(request, "removal request", () => createRemovalRequest(submission.value.details));
  return redirectWithToast("/privacy/removal", { type: "success", key: "legal:privacy.removal.sent" });
}

export default function RemovalRequestPage() {
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("legal");
  const form = serverForm("removal", actionData?.result);
  const details = form.field(
    "details",
    { required: true, minLength: REMOVAL_DETAILS_MIN, maxLength: REMOVAL_DETAILS_MAX },
    "removal-details-hint",
  );
  const formRef = useArrivalFocus<HTMLFormElement>(actionData?.result.error ? actionData.result : null);
  return (
    <div className={`${narrow} ${stack}`}>
      <h1>{t("privacy.removal.heading")}</h1>
      <p className={muted}>{t("privacy.removal.intro")}</p>
      <Form method="post" className={`${card} ${stack}`} {...form.props} ref={formRef} data-testid="removal-form">
        <HoneypotField />
        <ErrorList tone="form" id={form.errorId} errors={form.errors} translate={t} testId="removal-error" />
        <Field
          id={details.id}
          label={t("privacy.removal.detailsLabel")}
          description={t("privacy.removal.detailsHint")}
          errors={details.errors}
          translate={t}
        >
          {(control) => <textarea className={input} rows={6} {...details.props} {...control} />}
        </Field>
        <div className={row}>
          <SubmitButton pendingLabel={t("privacy.removal.sending")}>{t("privacy.removal.submit")}</SubmitButton>
          <SiteLink to="/privacy">{t("privacy.removal.back")}</SiteLink>
        </div>
      </Form>
    </div>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
