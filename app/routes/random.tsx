import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { loadDrawResult } from "~/features/codes/draw-result.server";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { cachedRead } from "~db/read-cache.server";
import { countAllAvailableCodes } from "~db/repositories/code-counts.server";
import { DrawReadyForm } from "~/features/codes/draw-ready-form";
import { DrawResultSection } from "~/features/codes/draw-result-section";
import { drawCookieHeaders, drawForPage, drawRefusal } from "~/features/codes/draw-action.server";
import { answerDraw, DRAW_PAGE_INTENTS } from "~/features/trust/report-action.server";
import { drawProofStep } from "~/features/trust/draw-proof.server";
import { DrawProofStep } from "~/features/trust/draw-proof-step";
import { parseIntent } from "~/utils/intent.server";
import { ReportError } from "~/features/trust/report-error";
import { getLanguage, getT } from "~/i18n/i18next.server";
import { flush, gradientHero, leadIn, narrow, stack } from "~/styles/ui.css";
import { routeMeta } from "~/utils/meta";
import { addressKeyOf } from "~/utils/client-address.server";
import { keepRetryAfter } from "~/utils/responses.server";
import { readFormData } from "~/utils/form-data.server";
import type { SitemapHandle } from "~/features/community/sitemap";
import { withDatabaseNet } from "~/utils/failures.server";

export const handle = {
  i18n: ["platform", "trust", "offer"],
  sitemap: { changefreq: "daily", priority: 0.7, lastmod: "content" } satisfies SitemapHandle,
};

export const loader = withDatabaseNet(async function loader({ request }: LoaderFunctionArgs) {
  const t = await getT(request, "platform");
  const token = new URL(request.url).searchParams.get("draw");
  if (token !== null) {
    return {
      ...(await loadDrawResult(token, t("errors.resultNotFound"), await getLanguage(request))),
      meta: { title: t("meta.randomResultTitle"), description: t("meta.randomDescription"), path: "/random", noindex: true },
    };
  }
  return {
    available: await cachedRead("random:available", "activity", () => countAllAvailableCodes()),
    report: null,
    claim: null,
    result: null,
    meta: { title: t("meta.randomTitle"), description: t("meta.randomDescription"), path: "/random" },
  };
});

export const meta = routeMeta;
// A 503 thrown by the action (the database refused the draw) keeps its Retry-After.
export const headers = keepRetryAfter;

/** Draws across every active platform; only a POST spends a serve (as on a platform's page). */
export const action = withDatabaseNet(async function action({ request, context }: ActionFunctionArgs) {
  const form = await readFormData(request);
  // An answer about a draw of any platform: the draw token names its log row.
  const intent = await parseIntent(request, form, DRAW_PAGE_INTENTS, "platform:errors.badIntent");
  if (intent === "report") return answerDraw(request, context, form, { platformId: null, pagePath: "/random" });
  // Past the soft bound, a draw counts only with a browser's proof (decision 350).
  const proofStep = await drawProofStep(request, context, form);
  if (proofStep) return proofStep;
  const location = await drawForPage(null, addressKeyOf(context), context).catch(async (error: unknown) => {
    throw await drawRefusal(request, error);
  });
  if (!location) return data({ noCode: true }, { status: 200 });
  return redirect(location, { status: 303, headers: await drawCookieHeaders(request, context, location) });
});

export default function RandomDrawPage() {
  const { available, result, report, claim } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const reportError = actionData && "report" in actionData ? actionData.report.error : null;
  const { t } = useTranslation("platform");
  return (
    <div className={`${narrow} ${stack}`}>
      <section className={gradientHero} aria-labelledby="random-heading">
        <h1 id="random-heading" className={flush}>
          {t("draw.randomHeading")}
        </h1>
        <p className={leadIn}>{t("draw.randomIntro")}</p>
      </section>
      {result && report ? (
        <DrawResultSection
          result={result}
          report={report}
          claim={claim}
          pagePath="/random"
          showPlatform
          reportError={reportError}
        />
      ) : (
        <>
          {reportError ? <ReportError error={reportError} /> : null}
          {actionData && "drawProof" in actionData ? (
            <DrawProofStep view={actionData.drawProof} action="/random" />
          ) : (
            <DrawReadyForm
              action="/random"
              available={available}
              noCodeMessage={available === 0 || (actionData && "noCode" in actionData) ? t("draw.noCodeAny") : null}
              shareHref="/submit"
            />
          )}
        </>
      )}
      <p>
        <Link to="/">{t("draw.backHome")}</Link>
      </p>
    </div>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-pages";
