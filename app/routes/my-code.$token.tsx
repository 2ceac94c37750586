import { assertUnreachable, parseIntent } from "~/utils/intent.server";
import { runWrite } from "~db/availability.server";
import { data, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, type MetaFunction, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { CONFIRM_FIELD, ConfirmDialog, ConfirmStep } from "~/components/confirm";
import { HiddenFields, IntentButton, SubmitButton } from "~/components/submit-button";
import { askToConfirm, confirmationAsked, isConfirmed } from "~/utils/confirmation.server";
import { useHydrated } from "remix-utils/use-hydrated";
import { useTranslation } from "react-i18next";
import { failureReasonsOf } from "~db/repositories/answer-freshness.server";
import { ANSWER_STATS, codeAnswerSummary, PAUSE_RULE, pauseEvidence } from "~db/repositories/code-reports.server";
import { ReasonTally } from "~/features/offer/reason-tally";
import { ownerEstimate } from "~/features/offer/rotation-estimate.server";
import { deleteOwnCode, pauseOwnCode, restoreOwnReportedCode, resumeOwnCode } from "~db/repositories/code-owners.server";
import * as codes from "~/features/codes/codes.css";
import { addressKeyOf } from "~/utils/client-address.server";
import { OWNER_WRITE_RATE_LIMIT } from "~/features/trust/limits";
import { ownedCodeStatus, requireOwnedCode } from "~/features/trust/owner-page.server";
import { ownerPath } from "~/features/trust/owner-token.server";
import { getT } from "~/i18n/i18next.server";
import { alert, badge, button, card, muted, narrow, row, stack } from "~/styles/ui.css";
import { formatDate, formatDateTime } from "~/utils/dates";
import { routeMeta } from "~/utils/meta";
import { hitRateLimit, tooManyRequests } from "~/utils/rate-limit.server";
import { redirectWithToast } from "~/utils/toast.server";
import * as trust from "~/features/trust/trust.css";
import { readFormData } from "~/utils/form-data.server";
import { retryAfterOf } from "~/utils/responses.server";
import { daysServed, ledgerHandle } from "~db/repositories/ledger.server";
import { getEnv } from "~/utils/env.server";
import { withDatabaseNet } from "~/utils/failures.server";

export const handle = { i18n: ["trust", "offer"] };

/** The latest days the owner's page links to in the public ledger. */
const LEDGER_DAYS_SHOWN = 30;

export const loader = withDatabaseNet(async function loader({ request, params, context }: LoaderFunctionArgs) {
  const code = await requireOwnedCode(request, context, params.token);
  const now = new Date();
  const since = new Date(now.getTime() - ANSWER_STATS.days * 24 * 60 * 60 * 1000).toISOString();
  const [t, estimate, answers, reasons, servedDays] = await Promise.all([
    getT(request, "trust"),
    ownerEstimate(code.id, now),
    codeAnswerSummary(code.id),
    failureReasonsOf([code.id], since),
    daysServed(code.id, LEDGER_DAYS_SHOWN),
  ]);
  const status = ownedCodeStatus(code, now);
  // Paused after failing answers: what the rule read, shown to its owner (decision 315).
  const evidence = status === "pausedByReports" ? await pauseEvidence(code.id) : null;
  return {
    code: {
      code: code.code,
      platformName: code.platform_name,
      platformSlug: code.platform_slug,
      timesServed: code.times_served,
      lastServedAt: code.last_served_at,
      expiresAt: code.is_permanent === 1 ? null : code.expires_at,
      createdAt: code.created_at,
      pausedAt: code.paused_at,
      status,
      evidence,
      // The owner may bring back a code paused after failing answers once; then only the admin.
      mayRestore: status === "pausedByReports" && code.owner_restores < 1,
      estimate,
      cappedUntil: code.capped_until,
      reasons: reasons.get(code.id) ?? {},
      worked: answers.worked,
      failed: answers.failed,
    },
    // Its name in the public ledger, and the days it was served there (issue 61): the owner finds
    // their own serves in the public record.
    ledger: { handle: ledgerHandle(getEnv().SESSION_SECRET, code.id), days: servedDays },
    rule: PAUSE_RULE,
    // Without JS, the delete button's first post comes back here to ask (`?delete=<id>`).
    askDelete: confirmationAsked(request, "delete") === code.id,
    // The private address is the page: never indexed, never canonical.
    meta: { title: t("owner.title"), description: t("owner.description"), noindex: true },
  };
});

/** The address holds the secret: no Referer to other sites (same-origin still sends Origin, which form posts need), no caching. */
export const headers: HeadersFunction = (args) => {
  const headers = new Headers({ "Referrer-Policy": "same-origin", "Cache-Control": "private, no-store" });
  const retryAfter = retryAfterOf(args);
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
};

export const meta: MetaFunction<typeof loader> = (args) => [...routeMeta(args), { name: "referrer", content: "same-origin" }];

/** What the owner can do with their code: the one list this action reads its intent against. */
const OWNER_INTENTS = ["pause", "resume", "delete"] as const;

export const action = withDatabaseNet(async function action({ request, params, context }: ActionFunctionArgs) {
  const code = await requireOwnedCode(request, context, params.token);
  const limit = await hitRateLimit(OWNER_WRITE_RATE_LIMIT, addressKeyOf(context));
  if (!limit.ok) throw await tooManyRequests(request, limit.retryAfterSeconds);
  const form = await readFormData(request);
  const intent = await parseIntent(request, form, OWNER_INTENTS, "trust:owner.errors.invalid");
  const here = ownerPath(params.token!);
  switch (intent) {
    case "pause":
      if (!(await runWrite("owner pause", () => pauseOwnCode(code.id))))
        return data({ error: "owner.errors.notActive" }, { status: 409 });
      return redirectWithToast(here, { type: "success", key: "trust:owner.toast.paused" });
    case "resume":
      // A code paused after failing answers: its owner may bring it back once, then only the admin.
      if (code.paused_reason === "reports") {
        if (code.owner_restores >= 1) return data({ error: "owner.errors.reportsPause" }, { status: 403 });
        if (!(await runWrite("owner restore", () => restoreOwnReportedCode(code.id))))
          return data({ error: "owner.errors.reportsPause" }, { status: 403 });
        return redirectWithToast(here, { type: "success", key: "trust:owner.toast.resumed" });
      }
      if (!(await runWrite("owner resume", () => resumeOwnCode(code.id))))
        return data({ error: "owner.errors.notPausedByOwner" }, { status: 409 });
      return redirectWithToast(here, { type: "success", key: "trust:owner.toast.resumed" });
    case "delete":
      if (!isConfirmed(form)) return askToConfirm(here, "delete", code.id);
      await runWrite("owner delete", () => deleteOwnCode(code.id));
      return redirectWithToast("/", { type: "success", key: "trust:owner.toast.deleted" });
    default:
      return assertUnreachable(intent);
  }
});

export default function OwnerPage() {
  const { code, rule, askDelete, ledger } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t, i18n } = useTranslation("trust");
  const { t: to } = useTranslation("offer");
  const error = actionData && "error" in actionData ? actionData.error : null;
  const here = useLocation().pathname;
  return (
    <div className={`${narrow} ${stack}`}>
      <h1>{t("owner.heading")}</h1>
      <p className={muted}>{t("owner.intro")}</p>
      <section className={`${card} ${stack}`} aria-labelledby="owned-code-heading">
        <h2 id="owned-code-heading" className={trust.flush}>
          {code.platformName}
        </h2>
        <p className={codes.codeBox} data-testid="owned-code">
          {code.code}
        </p>
        <p className={trust.flush}>
          <span className={badge} data-testid="owned-status" data-status={code.status}>
            {code.status === "capped" ? to("owner.statusCapped") : t(`owner.status.${code.status}`)}
          </span>
        </p>
        {code.status === "pausedByReports" ? (
          <p className={`${alert.warning} ${trust.flush}`} data-testid="reports-pause-why">
            {t("owner.reportsWhy", {
              addresses: rule.minFailedAddresses,
              percent: rule.minFailedPercent,
              window: rule.window,
            })}
          </p>
        ) : null}
        {code.evidence ? (
          <div className={`${stack} ${trust.tight}`} data-testid="reports-pause-evidence">
            <p className={trust.flush}>
              {t("owner.reportsEvidence", {
                count: code.evidence.failed,
                answers: code.evidence.answers,
                networks: code.evidence.networks,
              })}
            </p>
            <ReasonTally tally={code.evidence.reasons} testId="reports-pause-reasons" />
          </div>
        ) : null}
        {code.status === "capped" && code.cappedUntil ? (
          <p className={`${alert.warning} ${trust.flush}`} data-testid="capped-why">
            {to("owner.cappedWhy", { date: formatDate(code.cappedUntil, i18n.language) })}
          </p>
        ) : null}
        <dl className={`${stack} ${trust.facts}`}>
          <Fact term={t("owner.facts.platform")}>
            <Link to={`/${code.platformSlug}`}>{code.platformName}</Link>
          </Fact>
          <Fact term={t("owner.facts.served")} testId="owned-served">
            {t("owner.facts.servedValue", { count: code.timesServed })}
          </Fact>
          <Fact term={t("owner.facts.lastServed")} testId="owned-last-served">
            {code.lastServedAt ? formatDateTime(code.lastServedAt, i18n.language) : t("owner.facts.never")}
          </Fact>
          <Fact term={t("owner.facts.place")} testId="owned-place">
            {code.estimate === null
              ? t("owner.facts.notInRotation")
              : code.estimate.around
                ? to("owner.estimate", {
                    min: code.estimate.min,
                    count: code.estimate.draws,
                    from: formatDate(code.estimate.from ?? code.estimate.around, i18n.language),
                    date: formatDate(code.estimate.around, i18n.language),
                  })
                : to("owner.estimateNoPace", { min: code.estimate.min, count: code.estimate.draws })}
          </Fact>
          <Fact term={t("owner.facts.answers")} testId="owned-answers">
            {t("owner.facts.answersValue", { worked: code.worked, failed: code.failed })}
          </Fact>
          <Fact term={to("owner.reasons")} testId="owned-reasons">
            <ReasonTally tally={code.reasons} />
          </Fact>
          <Fact term={t("owner.facts.expires")}>
            {code.expiresAt ? formatDate(code.expiresAt, i18n.language) : t("owner.facts.noExpiry")}
          </Fact>
        </dl>
      </section>
      <section className={`${card} ${stack}`} aria-labelledby="owned-ledger-heading" data-testid="owned-ledger">
        <h2 id="owned-ledger-heading" className={trust.flush}>
          {t("ledger.ownerHeading")}
        </h2>
        <p className={trust.flush}>
          {t("ledger.ownerHandle")}{" "}
          <code className={trust.hash} data-testid="owned-handle">
            {ledger.handle}
          </code>
        </p>
        <p className={trust.flush}>{t("ledger.ownerDays")}</p>
        {ledger.days.length === 0 ? (
          <p className={`${muted} ${trust.flush}`}>{t("ledger.ownerNone")}</p>
        ) : (
          <ul className={`${trust.plainList} ${row}`} data-testid="owned-ledger-days">
            {ledger.days.map((day) => (
              <li key={day}>
                <a href={`/fairness/ledger/${encodeURIComponent(code.platformSlug)}/${day}.jsonl`}>{day}</a>
              </li>
            ))}
          </ul>
        )}
        <p className={`${muted} ${trust.flush}`}>
          {t("ledger.ownerHint")} <Link to="/fairness/ledger">{t("ledger.title")}</Link>
        </p>
      </section>

      {error ? (
        <p className={alert.error} role="alert" data-testid="owner-error">
          {t(error)}
        </p>
      ) : null}

      <section className={`${card} ${stack}`} aria-labelledby="manage-heading">
        <h2 id="manage-heading" className={trust.flush}>
          {t("owner.manage")}
        </h2>
        <div className={row}>
          {code.status === "pausedByOwner" || ["active", "capped", "expired", "platformInactive"].includes(code.status) ? (
            // Paused by its owner: resume; in (or due back in) the rotation: pause.
            <OwnerToggle intent={code.status === "pausedByOwner" ? "resume" : "pause"} />
          ) : code.mayRestore ? (
            // Paused after failing answers, never brought back by its owner: once, with the hint.
            <>
              <OwnerToggle intent="resume" />
              <p className={`${muted} ${trust.flush}`} data-testid="owner-restore-once">
                {t("owner.restoreOnce")}
              </p>
            </>
          ) : (
            <p className={`${muted} ${trust.flush}`}>
              {code.status === "pausedByReports" ? t("owner.onlyAdmin") : t("owner.deactivatedHint")}
            </p>
          )}
        </div>
        <OwnerDelete asked={askDelete} cancelTo={here} />
      </section>
      <p className={muted}>{t("owner.keepLink")}</p>
    </div>
  );
}

function Fact({ term, children, testId }: { term: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className={row}>
      <dt className={trust.term}>{term}</dt>
      <dd className={trust.flush} data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

/** Deleting asks first: with JS a dialog, without JS the step the action sends back to (`?delete=<id>`). */
function OwnerDelete({ asked, cancelTo }: { asked: boolean; cancelTo: string }) {
  const { t } = useTranslation("trust");
  const hydrated = useHydrated();
  const confirm = { question: t("owner.deleteQuestion"), yes: t("owner.deleteConfirm"), testId: "owner-delete-confirm" };
  if (asked)
    return <ConfirmStep fields={{ intent: "delete" }} confirm={confirm} cancelTo={cancelTo} cancelLabel={t("owner.cancel")} />;
  if (!hydrated)
    return (
      <IntentButton intent="delete" tone="danger" data-testid="owner-delete">
        {t("owner.delete")}
      </IntentButton>
    );
  return (
    <ConfirmDialog
      trigger={t("owner.delete")}
      triggerClassName={button.danger}
      triggerTestId="owner-delete"
      title={confirm.question}
      cancelLabel={t("owner.cancel")}
      testId={confirm.testId}
      confirm={(close) => (
        <Form method="post" onSubmit={close}>
          <HiddenFields fields={{ intent: "delete", [CONFIRM_FIELD]: "yes" }} />
          <SubmitButton tone="danger" size="small" intent="delete">
            {confirm.yes}
          </SubmitButton>
        </Form>
      )}
    />
  );
}

function OwnerToggle({ intent }: { intent: "pause" | "resume" }) {
  const { t } = useTranslation("trust");
  return (
    <IntentButton
      intent={intent}
      className={intent === "resume" ? button.primary : button.secondary}
      data-testid={`owner-${intent}`}
    >
      {t(`owner.${intent}`)}
    </IntentButton>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-pages";
