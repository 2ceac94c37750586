import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type HeadersFunction, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { ErrorList, Field } from "~/components/forms";
import { IntentButton, SubmitButton } from "~/components/submit-button";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { MAX_INPUT_LENGTH, normalizeCodeInput } from "~db/platform-links";
import { findCode, submitReferralCode } from "~db/repositories/codes.server";
import { codeKey } from "~db/repositories/rotation.server";
import { networkHash } from "~/features/trust/address.server";
import { createDeletionRequest } from "~db/repositories/deletion-requests.server";
import { getActivePlatformBySlug, listPlatformOptions } from "~db/repositories/platforms.server";
import { CAPTCHA_FIELD, captchaFor, verifyCaptcha } from "~/features/codes/captcha.server";
import * as styles from "~/features/codes/codes.css";
import { MAX_DELETION_REASON_LENGTH, SUBMIT_RATE_LIMIT } from "~/features/codes/limits";
import { Recaptcha } from "~/features/codes/recaptcha";
import { deletionReasonSchema, deletionRequestSchema, submitSchema } from "~/features/codes/submit-schema";
import { forgetOwnerLink, newOwnerToken, ownerLinkCookie, ownerPath, readOwnerLink } from "~/features/trust/owner-token.server";
import { ThankYou } from "~/features/codes/thank-you";
import { getT } from "~/i18n/i18next.server";
import { card, hint, input, muted, narrow, row, stack } from "~/styles/ui.css";
import { getEnv } from "~/utils/env.server";
import { HoneypotField, isHoneypotFilled } from "~/utils/honeypot";
import { addressKeyOf, rawClientAddress } from "~/utils/client-address.server";
import { routeMeta } from "~/utils/meta";
import { hitRateLimit, tooManyRequests } from "~/utils/rate-limit.server";
import { redirectWithToast } from "~/utils/toast.server";
import { parseIntent } from "~/utils/intent.server";
import { readFormData } from "~/utils/form-data.server";
import { useArrivalFocus } from "~/utils/arrival-focus";
import { serverForm } from "~/utils/server-form";
import { runWrite } from "~db/availability.server";
import { loadOrFail, withDatabaseNet } from "~/utils/failures.server";
import type { SitemapHandle } from "~/features/community/sitemap";
import { keepRetryAfter } from "~/utils/responses.server";

export const handle = {
  i18n: ["submit", "trust", "platform"],
  sitemap: { changefreq: "weekly", priority: 0.8, lastmod: "content" } satisfies SitemapHandle,
};

export const loader = withDatabaseNet(async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const [t, platforms, captcha] = await Promise.all([
    getT(request, "submit"),
    loadOrFail(request, "errors.load.platforms", () => listPlatformOptions({ activeOnly: true })),
    captchaFor(request),
  ]);
  const asked = url.searchParams.get("platform");
  // After a submit (post, redirect, get), the thank-you step: it names the code and keeps the
  // owner's private link, on every visit, until the sharer says they saved it ("saved" below).
  const owner = await readOwnerLink(request);
  return data(
    {
      platforms: platforms.map((p) => ({ slug: p.slug, name: p.name })),
      preselected: platforms.some((p) => p.slug === asked) ? asked : null,
      siteKey: captcha.siteKey,
      captchaOff: captcha.off,
      thanks: owner
        ? { code: owner.code, platform: owner.platform, ownerLink: `${getEnv().SITE_URL}${ownerPath(owner.token)}` }
        : null,
      siteUrl: getEnv().SITE_URL,
      meta: { title: t("meta.title"), description: t("meta.description"), path: "/submit" },
    },
    // A page with someone's private link is theirs alone: never kept by the page cache.
    owner ? { headers: { "Cache-Control": "no-store" } } : undefined,
  );
});

export const meta = routeMeta;

/** The layout's headers and a 503's Retry-After (keepRetryAfter), and the thank-you step's no-store. */
export const headers: HeadersFunction = (args) => {
  const headers = new Headers(keepRetryAfter(args));
  const cacheControl = args.loaderHeaders.get("Cache-Control");
  if (cacheControl) headers.set("Cache-Control", cacheControl);
  return headers;
};

export const action = withDatabaseNet(async function action({ request, context }: ActionFunctionArgs) {
  const form = await readFormData(request);
  const intent = await parseIntent(
    request,
    form,
    ["submit", "deletion-reason", "request-deletion", "cancel", "saved"] as const,
    "submit:errors.badIntent",
  );
  if (intent === "cancel") return redirectWithToast("/submit", { type: "info", key: "submit:toast.notAdded" });
  // The sharer saved their private link: forget it, and show the (empty) form again.
  if (intent === "saved") {
    return redirectWithToast(
      "/submit",
      { type: "info", key: "submit:toast.linkSaved" },
      { headers: { "Set-Cookie": await forgetOwnerLink(request) } },
    );
  }

  const schema = intent === "submit" ? submitSchema : intent === "deletion-reason" ? deletionReasonSchema : deletionRequestSchema;
  const submission = parseWithZod(form, { schema });
  if (isHoneypotFilled(form)) {
    return data({ result: submission.reply({ formErrors: ["errors.spam"] }), duplicate: null, stage: null }, { status: 400 });
  }
  const limit = await hitRateLimit(SUBMIT_RATE_LIMIT, addressKeyOf(context));
  if (!limit.ok) throw await tooManyRequests(request, limit.retryAfterSeconds);
  if (submission.status !== "success") {
    return data({ result: submission.reply(), duplicate: null, stage: null }, { status: 400 });
  }
  const value = submission.value;
  let duplicateStep: { platform: string; platformName: string; code: string } | null = null;
  let stage: DuplicateStage | null = null;
  // A refused deletion request shows its step again, with the message.
  const reject = (
    errors: { formErrors?: string[]; fieldErrors?: Record<string, string[]> },
    status = 400,
    headers?: Record<string, string>,
  ) => data({ result: submission.reply(errors), duplicate: duplicateStep, stage }, { status, headers });

  if (value.intent === "submit") {
    const { siteKey } = await captchaFor(request);
    if (siteKey) {
      const token = form.get(CAPTCHA_FIELD);
      if (typeof token !== "string" || !token) return reject({ formErrors: ["errors.captchaRequired"] });
      if (!(await verifyCaptcha(token, rawClientAddress(context)))) return reject({ formErrors: ["errors.captchaFailed"] });
    }
  }

  const platform = await getActivePlatformBySlug(value.platform);
  if (!platform) return reject({ fieldErrors: { platform: ["errors.platformNotFound"] } });
  const normalized = normalizeCodeInput(value.code, platform);
  if (!normalized.ok) return reject({ fieldErrors: { code: [`errors.code.${normalized.error}`] } });

  if (value.intent === "deletion-reason") {
    // The specification's order: the question, yes or no, and the optional reason only after yes.
    if (!(await findCode(platform.id, normalized.code))) return reject({ formErrors: ["errors.deletionFailed"] });
    return data({
      result: submission.reply(),
      duplicate: { platform: platform.slug, platformName: platform.name, code: normalized.code },
      stage: "reason" as DuplicateStage,
    });
  }

  if (value.intent === "request-deletion") {
    duplicateStep = { platform: platform.slug, platformName: platform.name, code: normalized.code };
    stage = "reason";
    // Only for a code that really is in the database (the duplicate step's question).
    const stored = await findCode(platform.id, normalized.code);
    if (!stored) return reject({ formErrors: ["errors.deletionFailed"] });
    // The stored spelling: a punctuation variant names the same code (decision 317).
    const sent = await runWrite(
      "deletion request",
      () => createDeletionRequest({ platformId: platform.id, code: stored.code, reason: value.reason || null }),
      "result",
    );
    if (!sent.ok) return reject({ formErrors: ["errors.deletionFailed"] }, 503, sent.headers);
    return redirectWithToast("/submit", { type: "success", key: "submit:toast.deletionSent" });
  }

  const owner = newOwnerToken();
  const ownerNetworkHash = await networkHash(context);
  const submitted = await runWrite(
    "submit",
    () =>
      submitReferralCode({
        platformId: platform.id,
        code: normalized.code,
        referralUrl: normalized.referralUrl,
        ownerTokenHash: owner.hash,
        // The same code deleted before takes back its history (rotation.server.ts, rule 5).
        codeKey: codeKey(getEnv().SESSION_SECRET, platform.id, normalized.code),
        ownerNetworkHash,
      }),
    "result",
  );
  if (!submitted.ok) return reject({ formErrors: ["errors.addFailed"] }, 503, submitted.headers);
  const outcome = submitted.value;
  if (!outcome.ok) {
    // Nothing written: the page asks whether to send a deletion request instead.
    return data(
      {
        result: submission.reply(),
        duplicate: { platform: platform.slug, platformName: platform.name, code: normalized.code },
        stage: "question" as DuplicateStage,
      },
      { status: 409 },
    );
  }
  return redirectWithToast(
    "/submit?thanks=1",
    { type: "success", key: "submit:toast.added" },
    { headers: { "Set-Cookie": await ownerLinkCookie({ token: owner.token, code: normalized.code, platform: platform.name }) } },
  );
});

export default function SubmitPage() {
  const { platforms, preselected, siteKey, captchaOff, thanks, siteUrl } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("submit");
  const duplicate = actionData?.duplicate ?? null;
  const lastSubmitIntent = actionData?.result.initialValue?.intent;
  const duplicateIntent = lastSubmitIntent === "request-deletion" || lastSubmitIntent === "deletion-reason";

  // Validated on the server only (submitSchema in the action): no form library in the browser.
  const form = serverForm("submit-code", duplicateIntent ? undefined : actionData?.result);
  const platformField = form.field("platform", { required: true });
  const codeField = form.field("code", { required: true, minLength: 1, maxLength: MAX_INPUT_LENGTH }, "submit-code-code-hint");
  // Sent with JS and refused: the focus goes to the first field to correct (its message is read with it).
  const formRef = useArrivalFocus<HTMLFormElement>(!duplicateIntent && actionData?.result.error ? actionData.result : null);

  return (
    <div className={`${narrow} ${stack}`}>
      <h1>{t("heading")}</h1>
      <p className={muted}>{t("intro")}</p>
      {thanks ? <ThankYou siteUrl={siteUrl} {...thanks} /> : null}
      {thanks ? null : !duplicate && duplicateIntent && actionData?.result.error ? (
        <ErrorList tone="form" errors={Object.values(actionData.result.error).flat()} translate={t} />
      ) : null}
      {thanks ? null : duplicate ? (
        <DuplicateStep
          key={actionData?.stage ?? "question"}
          duplicate={duplicate}
          stage={actionData?.stage ?? "question"}
          errors={duplicateIntent ? actionData?.result.error : undefined}
        />
      ) : (
        <Form method="post" className={`${card} ${stack}`} {...form.props} ref={formRef}>
          <input type="hidden" name="intent" value="submit" />
          <HoneypotField />
          <ErrorList tone="form" id={form.errorId} errors={form.errors} translate={t} testId="form-error" />
          <Field id={platformField.id} label={t("platformLabel")} errors={platformField.errors} translate={t}>
            {(control) => (
              <select
                className={input}
                {...platformField.props}
                {...control}
                defaultValue={platformField.props.defaultValue ?? preselected ?? ""}
              >
                <option value="">{t("platformPlaceholder")}</option>
                {platforms.map((p) => (
                  <option key={p.slug} value={p.slug}>
                    {p.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field id={codeField.id} label={t("codeLabel")} description={t("codeHint")} errors={codeField.errors} translate={t}>
            {(control) => (
              <input className={input} {...codeField.props} {...control} type="text" autoComplete="off" spellCheck={false} />
            )}
          </Field>
          {siteKey ? (
            <Recaptcha
              key={actionData ? JSON.stringify(actionData.result.error ?? {}) : "first"}
              siteKey={siteKey}
              label={t("captchaLabel")}
            />
          ) : null}
          {captchaOff ? (
            <p className={hint} data-testid="captcha-off">
              {t("captchaOff")}
            </p>
          ) : null}
          <div className={row}>
            <SubmitButton intent="submit" pendingLabel={t("submitting")}>
              {t("submit")}
            </SubmitButton>
            <Link to="/">{t("back")}</Link>
          </div>
          <p className={hint}>{t("info")}</p>
        </Form>
      )}
    </div>
  );
}

/** The duplicate step's two stages: the question (yes or no), then, after yes, the optional reason. */
type DuplicateStage = "question" | "reason";

function DuplicateStep({
  duplicate,
  stage,
  errors,
}: {
  duplicate: { platform: string; platformName: string; code: string };
  stage: DuplicateStage;
  errors?: Record<string, string[] | null> | null;
}) {
  const { t } = useTranslation("submit");
  const headingRef = useRef<HTMLHeadingElement>(null);
  // With JS the step replaces the form in place: bring focus (and screen readers) to the question.
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <section className={`${card} ${stack}`} aria-labelledby="duplicate-heading" data-testid="duplicate-step" data-stage={stage}>
      <h2 id="duplicate-heading" ref={headingRef} tabIndex={-1}>
        {stage === "question" ? t("duplicate.heading") : t("duplicate.reasonHeading")}
      </h2>
      <p className={styles.linkText}>{t("duplicate.codeLine", { code: duplicate.code, platform: duplicate.platformName })}</p>
      <ErrorList tone="form" errors={Object.values(errors ?? {}).flat()} translate={t} />
      {stage === "question" ? (
        <>
          <p>{t("duplicate.question")}</p>
          <p className={hint} data-testid="duplicate-own-code">
            {t("duplicate.ownCode")}
          </p>
          <div className={row}>
            {/* Keeping things as they are is what most visitors want: the primary action, first. */}
            <IntentButton intent="cancel" tone="primary" data-testid="duplicate-keep">
              {t("duplicate.no")}
            </IntentButton>
            <IntentButton
              intent="deletion-reason"
              fields={{ platform: duplicate.platform, code: duplicate.code }}
              tone="ghost"
              data-testid="duplicate-yes"
            >
              {t("duplicate.yesAsk")}
            </IntentButton>
          </div>
        </>
      ) : (
        <DeletionForm duplicate={duplicate} />
      )}
    </section>
  );
}

function DeletionForm({ duplicate }: { duplicate: { platform: string; code: string } }) {
  const { t } = useTranslation("submit");
  // Its messages show above the step (DuplicateStep): the field only mirrors the schema's cap.
  const form = serverForm("request-deletion", undefined);
  const reason = form.field("reason", { maxLength: MAX_DELETION_REASON_LENGTH });
  return (
    <>
      <Form method="post" className={stack} {...form.props}>
        <input type="hidden" name="intent" value="request-deletion" />
        <input type="hidden" name="platform" value={duplicate.platform} />
        <input type="hidden" name="code" value={duplicate.code} />
        <HoneypotField />
        <Field id={reason.id} label={t("duplicate.reasonLabel")}>
          {(control) => <textarea className={input} rows={3} {...reason.props} {...control} />}
        </Field>
        <p>
          <SubmitButton intent="request-deletion" tone="primary" data-testid="duplicate-request-deletion">
            {t("duplicate.yes")}
          </SubmitButton>
        </p>
      </Form>
      <IntentButton intent="cancel" tone="ghost" data-testid="duplicate-keep">
        {t("duplicate.no")}
      </IntentButton>
    </>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-pages";
