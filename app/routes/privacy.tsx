import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { ErrorList, Field } from "~/components/forms";
import { SubmitButton } from "~/components/submit-button";
import { createRemovalRequest } from "~db/repositories/removal-requests.server";
import { REMOVAL_DETAILS_MAX, REMOVAL_DETAILS_MIN, REMOVAL_RATE_LIMIT } from "~/features/community/removal-limits";
import { removalSchema } from "~/features/community/removal-schema";
import { card, input, stack } from "~/styles/ui.css";
import { addressKeyOf } from "~/utils/client-address.server";
import { runWrite } from "~db/availability.server";
import { readFormData } from "~/utils/form-data.server";
import { HoneypotField, isHoneypotFilled } from "~/utils/honeypot";
import { hitRateLimit, tooManyRequests } from "~/utils/rate-limit.server";
import { keepRetryAfter } from "~/utils/responses.server";
import { serverForm } from "~/utils/server-form";
import { redirectWithToast } from "~/utils/toast.server";
import { useArrivalFocus } from "~/utils/arrival-focus";
import { useTranslation } from "react-i18next";
import * as styles from "~/features/community/community.css";
import { legalMeta } from "~/features/community/legal-page.server";
import { privacyFacts } from "~/features/community/privacy-page.server";
import { muted, narrow, section } from "~/styles/ui.css";
import { routeMeta } from "~/utils/meta";
import type { SitemapHandle } from "~/features/community/sitemap";
import { withDatabaseNet } from "~/utils/failures.server";

export const handle = {
  i18n: ["legal"],
  sitemap: { changefreq: "yearly", priority: 0.3, lastmod: "2026-12-05" } satisfies SitemapHandle,
};

export const loader = withDatabaseNet(async function loader({ request }: LoaderFunctionArgs) {
  const [meta, facts] = await Promise.all([legalMeta(request, "privacy"), privacyFacts()]);
  return { meta, facts };
});

export const meta = routeMeta;

export const headers = keepRetryAfter;

/**
 * A request to remove anything about the visitor, no code needed (decision 324): what they
 * describe goes to the admin's queue (the deletion requests tab). Validated on the server only.
 */
export const action = withDatabaseNet(async function action({ request, context }: ActionFunctionArgs) {
  const form = await readFormData(request);
  const submission = parseWithZod(form, { schema: removalSchema });
  if (isHoneypotFilled(form)) {
    return data({ result: submission.reply({ formErrors: ["privacy.removal.errors.spam"] }) }, { status: 400 });
  }
  const limit = await hitRateLimit(REMOVAL_RATE_LIMIT, addressKeyOf(context));
  if (!limit.ok) throw await tooManyRequests(request, limit.retryAfterSeconds);
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  await runWrite("removal request", () => createRemovalRequest(submission.value.details));
  return redirectWithToast("/privacy", { type: "success", key: "legal:privacy.removal.sent" });
});

/** Each processing and its legal basis (GDPR art. 6). */
const PROCESSING = [
  ["codes", "contract"],
  ["ownerLink", "contract"],
  ["draws", "legitimate"],
  ["answers", "legitimate"],
  ["suggestions", "legitimate"],
  ["deletions", "legitimate"],
  ["removals", "legal"],
  ["scores", "consent"],
  ["limits", "legitimate"],
  ["logs", "legitimate"],
  ["assistant", "legitimate"],
  ["google", "consent"],
] as const;

const RIGHTS = ["access", "rectification", "erasure", "objection", "restriction", "portability", "withdraw"] as const;

/**
 * The privacy policy (GDPR art. 13) and the legal notice, from the publisher's settings and the
 * retention list the jobs keep (decision 320).
 */
export default function Privacy() {
  const { facts } = useLoaderData<typeof loader>();
  const { t } = useTranslation("legal");
  const missing = t("privacy.controller.missing");
  const name = facts.publisher.name ?? missing;
  const email = facts.publisher.email ?? missing;
  const address = facts.publisher.address ?? missing;
  const host = facts.host ?? missing;
  const p = facts.periods;
  const retention: Array<[string, string]> = [
    ["codes", t(facts.autoCleanup ? "privacy.retention.codesCleanup" : "privacy.retention.codesKept", { count: p.codeMonths })],
    ["draws", t("privacy.retention.draws", { count: p.drawDays })],
    ["answers", t("privacy.retention.answers", { count: p.answerDays })],
    ["answerAddresses", t("privacy.retention.answerAddresses", { count: p.answerAddressDays })],
    ["votes", t("privacy.retention.votes", { count: p.voteDays })],
    ["suggestions", t("privacy.retention.suggestions", { count: p.suggestionDays })],
    ["deletions", t("privacy.retention.deletions", { count: p.deletionRequestDays })],
    ["removals", t("privacy.retention.removals", { count: p.removalRequestDays })],
    ["scores", t("privacy.retention.scores", { count: p.scoreDays })],
    ["assistant", t("privacy.retention.assistant", { count: p.conversationDays })],
    ["limits", t("privacy.retention.limits", { count: p.rateLimitMinutes })],
    ["drawLimits", t("privacy.retention.drawLimits")],
    ["keys", t("privacy.retention.keys", { count: p.pseudonymKeyMonths })],
    ["backups", t("privacy.retention.backups", { count: p.backupHours })],
    ["cookies", t("privacy.retention.cookies")],
  ];
  return (
    <>
      <article className={`${narrow} ${section} ${styles.prose}`}>
        <h1>{t("privacy.heading")}</h1>
        <p>{t("privacy.intro")}</p>

        <h2 id="controller">{t("privacy.controller.title")}</h2>
        <p data-testid="privacy-controller">{t("privacy.controller.text", { name, address })}</p>
        <p data-testid="privacy-contact">{t("privacy.controller.contact", { email })}</p>

        <h2 id="processing">{t("privacy.processing.title")}</h2>
        <ul data-testid="privacy-processing">
          {PROCESSING.map(([key, basis]) => (
            <li key={key} data-processing={key}>
              {t(`privacy.processing.${key}`)} <em>{t(`privacy.processing.bases.${basis}`)}</em>
            </li>
          ))}
        </ul>

        <h2 id="pseudonyms">{t("privacy.pseudonyms.title")}</h2>
        <p>{t("privacy.pseudonyms.text")}</p>

        <h2 id="retention">{t("privacy.retention.title")}</h2>
        <ul data-testid="privacy-retention">
          {retention.map(([key, text]) => (
            <li key={key} data-retention={key}>
              {text}
            </li>
          ))}
        </ul>

        <h2 id="recipients">{t("privacy.recipients.title")}</h2>
        <p>{t("privacy.recipients.intro")}</p>
        <ul data-testid="privacy-recipients">
          <li>{t("privacy.recipients.host", { host })}</li>
          <li>{t("privacy.recipients.google")}</li>
          <li>{t("privacy.recipients.ai", { provider: facts.aiProvider })}</li>
        </ul>

        <h2 id="transfers">{t("privacy.transfers.title")}</h2>
        <p data-testid="privacy-transfers">{t("privacy.transfers.text")}</p>

        <h2 id="rights">{t("privacy.rights.title")}</h2>
        <p>{t("privacy.rights.intro")}</p>
        <ul data-testid="privacy-rights">
          {RIGHTS.map((right) => (
            <li key={right}>{t(`privacy.rights.${right}`)}</li>
          ))}
        </ul>
        <p>{t("privacy.rights.how", { email })}</p>
        <p>
          <Link to="#removal-request" data-testid="privacy-removal-link">
            {t("privacy.rights.link")}
          </Link>
        </p>
        <p data-testid="privacy-complaint">{t("privacy.rights.complaint")}</p>

        <h2 id="cookies">{t("privacy.cookies.title")}</h2>
        <ul>
          {(["clientId", "preferences", "consent", "ownerLink", "draws", "toast"] as const).map((key) => (
            <li key={key}>{t(`privacy.cookies.${key}`)}</li>
          ))}
        </ul>
        <p>{t("privacy.cookies.thirdParty")}</p>

        <h2 id="legal-notice">{t("privacy.legal.title")}</h2>
        <p data-testid="legal-publisher">{t("privacy.legal.publisher", { name, address, email })}</p>
        <p data-testid="legal-host">{t("privacy.legal.host", { host })}</p>
        <p className={muted}>{t("privacy.updated")}</p>
      </article>
      <RemovalForm />
    </>
  );
}

/** The removal form under the policy (no code, no account): what the visitor describes reaches the admin. */
function RemovalForm() {
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
    <section id="removal-request" aria-labelledby="removal-heading" className={`${narrow} ${stack} ${styles.prose}`}>
      <h2 id="removal-heading">{t("privacy.removal.heading")}</h2>
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
        <div>
          <SubmitButton pendingLabel={t("privacy.removal.sending")}>{t("privacy.removal.submit")}</SubmitButton>
        </div>
      </Form>
    </section>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-pages";
