import type { SubmissionResult } from "@conform-to/react";
import { useEffect, useRef } from "react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import {
  listPublicSuggestions,
  listVotedSuggestionIds,
  getSuggestion,
  createSuggestion,
} from "~db/repositories/suggestions.server";
import { SimilarNames } from "~/features/community/similar-names";
import { SuggestionList } from "~/features/community/suggestion-list";
import { useSimilarNames } from "~/features/community/use-similar-names";
import { getClientIdentity } from "~/features/community/client-identity.server";
import { nameLengths, normalizeName, type SimilarName } from "~/features/community/similarity";
import { checkStoredSimilarNames } from "~/features/community/similar-names.server";
import { Pager } from "~/components/pager";
import { ErrorList, Field } from "~/components/forms";
import { SubmitButton } from "~/components/submit-button";
import { loadPage, listHref } from "~/utils/paging.server";
import { breadcrumbLd } from "~/features/community/structured-data";
import { MAX_VOTES_PER_ADDRESS, NEW_FOR_MS, POPULAR_ABOVE_VOTES, suggestSchema } from "~/features/community/suggest-schema";
import * as styles from "~/features/community/suggestions.css";
import { getLanguage, getT } from "~/i18n/i18next.server";
import { useArrivalFocus } from "~/utils/arrival-focus";
import { serverForm } from "~/utils/server-form";
import { alert, card, flush, input, leadIn, muted, narrow, row, section, semibold, stack } from "~/styles/ui.css";
import { getEnv } from "~/utils/env.server";
import { HoneypotField, isHoneypotFilled } from "~/utils/honeypot";
import { routeMeta } from "~/utils/meta";
import { addressKeyOf } from "~/utils/client-address.server";
import { hitRateLimit, tooManyRequests } from "~/utils/rate-limit.server";
import { assertUnreachable, parseIntent } from "~/utils/intent.server";
import { answerVote } from "~/features/community/vote-action.server";
import { parseRowId } from "~/utils/row-id";
import { buttonClass } from "~/styles/recipes";
import { runWrite } from "~db/availability.server";
import { loadOrFail, withDatabaseNet } from "~/utils/failures.server";
import { messageWithValues, parseMessage, translateMessage } from "~/utils/messages";
import { redirectWithToast } from "~/utils/toast.server";
import { readFormData } from "~/utils/form-data.server";
import type { SitemapHandle } from "~/features/community/sitemap";
import { keepRetryAfter } from "~/utils/responses.server";

export const handle = {
  i18n: ["suggest", "lists"],
  sitemap: { changefreq: "daily", priority: 0.6, lastmod: "suggestions" } satisfies SitemapHandle,
};

const SUGGEST_LIMIT = { name: "suggest", max: 10, windowMs: 10 * 60_000 };

export const loader = withDatabaseNet(async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const identity = getClientIdentity(request);
  const sort = url.searchParams.get("sort") === "new" ? "new" : "top";
  const [t, { rows: suggestions, pager }] = await Promise.all([
    getT(request, "suggest"),
    loadPage(request, "errors.load.generic", (page) => listPublicSuggestions(sort, page)),
  ]);
  // Only this page's suggestions: which of them this visitor voted for.
  const voted = await loadOrFail(request, "errors.load.generic", () =>
    listVotedSuggestionIds(
      identity.fingerprint,
      suggestions.map((s) => s.id),
    ),
  );

  // `?created=`: names close to the one just added, shown with the thank-you note.
  let created: { id: number; name: string; similar: SimilarName[] } | null = null;
  const createdId = parseRowId(url.searchParams.get("created"));
  if (createdId !== null) {
    const row = await getSuggestion(createdId);
    if (row && row.status !== "rejected") {
      created = { id: row.id, name: row.name, similar: (await checkStoredSimilarNames(row.name, row.id)).similar };
    }
  }
  const sortHref = (value: "top" | "new") => {
    const base = new URL(url);
    base.searchParams.delete("created");
    base.searchParams.set("sort", value);
    return listHref(base);
  };

  const now = Date.now();
  const siteUrl = getEnv().SITE_URL;
  // No cookie on a visit (privacy: set only when needed): the first vote sets it.
  return data({
    suggestions: suggestions.map((s) => ({
      id: s.id,
      name: s.name,
      description: s.description,
      websiteUrl: s.website_url,
      approved: s.status === "approved",
      votes: s.votes_count,
      voted: voted.has(s.id),
      popular: s.votes_count > POPULAR_ABOVE_VOTES,
      isNew: now - Date.parse(s.created_at) < NEW_FOR_MS,
    })),
    created,
    pager,
    sort,
    sortLinks: { top: sortHref("top"), new: sortHref("new") },
    maxVotesPerAddress: MAX_VOTES_PER_ADDRESS,
    meta: {
      title: t("meta.title"),
      description: t("meta.description"),
      path: "/suggest-platform",
      structuredData: breadcrumbLd(
        { siteUrl, language: await getLanguage(request), homeName: t("breadcrumbHome") },
        { name: t("meta.title"), path: "/suggest-platform" },
      ),
    },
  });
});

export const meta = routeMeta;

export const headers = keepRetryAfter;

export const action = withDatabaseNet(async function action({ request, context }: ActionFunctionArgs) {
  const form = await readFormData(request);
  const identity = getClientIdentity(request);
  const headers = new Headers();
  const intent = await parseIntent(request, form, ["vote", "suggest"] as const);
  // The vote's own cookie, set with the first vote only (a suggestion needs none).
  if (intent === "vote" && identity.setCookie) headers.append("Set-Cookie", identity.setCookie);

  switch (intent) {
    case "vote":
      return answerVote(request, context, form, identity, headers);
    case "suggest":
      return answerSuggestion(request, context, form, headers);
    default:
      return assertUnreachable(intent);
  }
});

/** A new suggestion: checked against stored names, then written (or refused next to its field). */
async function answerSuggestion(request: Request, context: AppLoadContext, form: FormData, headers: Headers) {
  const submission = parseWithZod(form, { schema: suggestSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply(), similar: [] as SimilarName[] }, { status: 400, headers });
  }
  if (isHoneypotFilled(form)) {
    return data(
      { result: submission.reply({ formErrors: ["errors.spam"] }), similar: [] as SimilarName[] },
      { status: 400, headers },
    );
  }
  const { name, description, website_url } = submission.value;
  const checked = await runWrite("suggestion check", () => checkStoredSimilarNames(name), "result");
  if (!checked.ok) {
    for (const [name, value] of Object.entries(checked.headers)) headers.set(name, value);
    return data(
      { result: submission.reply({ formErrors: ["errors.saveFailed"] }), similar: [] as SimilarName[] },
      { status: 503, headers },
    );
  }
  const verdict = checked.value;
  if (verdict.blocked) {
    // A platform is not to be voted for: its message says so (the similar names link to its page).
    const key =
      verdict.reason === "existingPlatform"
        ? "errors.existingPlatform"
        : verdict.match.kind === "platform"
          ? "errors.similarPlatform"
          : "errors.similarBlocked";
    // The values travel inside the message: the form keeps its errors after other actions (a vote).
    const message = messageWithValues(key, { name: verdict.match.name, percent: verdict.match.percent });
    return data(
      { result: submission.reply({ fieldErrors: { name: [message] } }), similar: verdict.similar },
      { status: 400, headers },
    );
  }
  // Counted only for submissions that would be written, so typos do not lock anyone out.
  const limit = await hitRateLimit(SUGGEST_LIMIT, addressKeyOf(context));
  if (!limit.ok) throw await tooManyRequests(request, limit.retryAfterSeconds);

  const saved = await runWrite(
    "suggestion",
    () =>
      createSuggestion({
        name,
        normalizedName: normalizeName(name),
        lengths: nameLengths(name),
        description: description || null,
        websiteUrl: website_url ? new URL(website_url).href : null,
      }),
    "result",
  );
  if (!saved.ok) {
    headers.set("Retry-After", saved.headers["Retry-After"]!);
    return data(
      { result: submission.reply({ formErrors: ["errors.saveFailed"] }), similar: [] as SimilarName[] },
      { status: 503, headers },
    );
  }
  return redirectWithToast(
    `/suggest-platform?created=${saved.value.id}`,
    { type: "success", key: "suggest:toast.created" },
    { headers },
  );
}

const BLOCKED_KEYS = new Set(["errors.existingPlatform", "errors.similarPlatform", "errors.similarBlocked"]);

type ActionData = {
  result?: SubmissionResult<string[]>;
  similar?: SimilarName[];
  vote?: { suggestionId: number | null; key: string } | null;
};

export default function SuggestPlatform() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as ActionData | undefined;
  const { t } = useTranslation("suggest");
  const { t: tl } = useTranslation("lists");
  const navigation = useNavigation();

  // Validated on the server only (suggestSchema in the action): no form library in the browser.
  const form = serverForm("suggest-platform", navigation.state === "idle" ? actionData?.result : undefined);
  const name = form.field("name", { required: true, minLength: 1, maxLength: 100 }, "similar-names");
  const description = form.field("description", { maxLength: 1000 });
  const website = form.field("website_url", { maxLength: 2048 }, "suggest-platform-website_url-hint");

  // Sent with JS and refused: the focus goes to the first field to correct (its message is read with it).
  const formRef = useArrivalFocus<HTMLFormElement>(
    navigation.state === "idle" && actionData?.result?.error ? actionData.result : null,
  );
  const live = useSimilarNames();
  const nameInput = useRef<HTMLInputElement>(null);
  // A name typed before the page's script ran (a slow phone) had no live check: run it once now.
  useEffect(() => {
    if (nameInput.current?.value) live.check(nameInput.current.value);
    // Once, on hydration.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  // A saved suggestion empties the form (keyed below) and its live list: nothing warns about it.
  const createdId = loaderData.created?.id;
  const { reset } = live;
  useEffect(() => {
    if (createdId !== undefined) reset();
  }, [createdId, reset]);
  const similar = live.similar ?? (navigation.state === "idle" ? actionData?.similar : undefined) ?? [];
  const errorText = (message: string) => translateMessage(t, message);
  const nameErrors = name.errors ?? [];
  const blocked = nameErrors.some((e) => BLOCKED_KEYS.has(parseMessage(e).key));

  return (
    <div className={narrow}>
      <section className={section} aria-labelledby="suggest-heading">
        <h1 id="suggest-heading">{t("heading")}</h1>
        <p className={muted}>{t("intro")}</p>

        {loaderData.created ? (
          <div className={alert.success} data-testid="suggestion-created">
            <p className={flush}>{t("created.message", { name: loaderData.created.name })}</p>
            {loaderData.created.similar.length > 0 ? (
              <>
                <p className={leadIn}>{t("created.similarNote")}</p>
                <SimilarNames items={loaderData.created.similar} />
              </>
            ) : null}
          </div>
        ) : null}

        {/* No action: it posts to this page's own URL, ?lng= included, so its answer stays in this language. */}
        <Form key={createdId ?? "new"} method="post" className={`${card} ${stack}`} {...form.props} ref={formRef}>
          <input type="hidden" name="intent" value="suggest" />
          <HoneypotField />
          <ErrorList tone="form" id={form.errorId} errors={form.errors} translate={errorText} />

          <Field
            id={name.id}
            label={t("form.name")}
            errors={blocked ? null : nameErrors}
            translate={errorText}
            after={
              <>
                {/* One message, not two: a refused name's box holds the similar names itself. */}
                {blocked ? (
                  <div className={alert.error} id={name.errorId} role="alert" data-testid="similar-blocked">
                    <strong>{t("errors.similarTitle")}</strong>
                    <p className={flush}>{nameErrors.map(errorText).join(" ")}</p>
                    {similar.length > 0 ? (
                      <div data-testid="similar-names">
                        <SimilarNames items={similar} />
                      </div>
                    ) : null}
                  </div>
                ) : null}
                <div id="similar-names" aria-live="polite">
                  {!blocked && similar.length > 0 ? (
                    <div className={styles.similarBox} data-testid="similar-names">
                      <p className={`${flush} ${semibold}`}>{t("similar.heading")}</p>
                      <SimilarNames items={similar} />
                    </div>
                  ) : null}
                </div>
              </>
            }
          >
            {(control) => (
              // The schema's props last: they name the message and the similar names, blocked or not.
              <input
                className={input}
                {...control}
                {...name.props}
                type="text"
                autoComplete="off"
                ref={nameInput}
                onInput={(event) => live.check(event.currentTarget.value)}
              />
            )}
          </Field>

          <Field id={description.id} label={t("form.description")} errors={description.errors} translate={errorText}>
            {(control) => <textarea className={input} rows={3} {...description.props} {...control} />}
          </Field>

          <Field
            id={website.id}
            label={t("form.website")}
            description={t("form.websiteHint")}
            errors={website.errors}
            translate={errorText}
          >
            {(control) => (
              <input className={input} {...website.props} {...control} type="url" inputMode="url" placeholder="https://" />
            )}
          </Field>

          <SubmitButton intent="suggest" pendingLabel={t("form.submitting")}>
            {t("form.submit")}
          </SubmitButton>
        </Form>
      </section>

      <section className={section} aria-labelledby="suggestions-heading" id="suggestions">
        <h2 id="suggestions-heading">{t("list.heading")}</h2>
        <p className={muted}>{t("vote.capNote", { max: loaderData.maxVotesPerAddress })}</p>
        <nav aria-label={tl("sort.label")} className={row} data-testid="suggestion-sort">
          {(["top", "new"] as const).map((value) => (
            <Link
              key={value}
              to={loaderData.sortLinks[value]}
              aria-current={loaderData.sort === value ? "page" : undefined}
              className={buttonClass({ tone: loaderData.sort === value ? "primary" : "secondary", size: "small" })}
            >
              {tl(`sort.${value}`)}
            </Link>
          ))}
        </nav>
        <SuggestionList suggestions={loaderData.suggestions} refusal={actionData?.vote ?? null} />
        <Pager {...loaderData.pager} label={tl("pager.label")} />
      </section>
    </div>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-pages";
