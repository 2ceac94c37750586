import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { assignInlineVars } from "@vanilla-extract/dynamic";
import { useTranslation } from "react-i18next";
import { DrawReadyForm } from "~/features/codes/draw-ready-form";
import { DrawResultSection } from "~/features/codes/draw-result-section";
import { drawCookieHeaders, drawForPage, drawRefusal } from "~/features/codes/draw-action.server";
import { PlatformLogo } from "~/features/codes/platform-logo";
import { availableCodes, loadPlatformPage, offerSection, platformHeader } from "~/features/codes/platform-page.server";
import { loadDrawResult } from "~/features/codes/draw-result.server";
import { breadcrumbLd } from "~/features/community/structured-data";
import { answerDraw, DRAW_PAGE_INTENTS } from "~/features/trust/report-action.server";
import { drawProofStep } from "~/features/trust/draw-proof.server";
import { DrawProofStep } from "~/features/trust/draw-proof-step";
import { parseIntent } from "~/utils/intent.server";
import { ReportError } from "~/features/trust/report-error";
import { OfferDetails } from "~/features/offer/offer-views";
import { OfferLead } from "~/features/offer/offer-lead";
import { getLanguage, getT } from "~/i18n/i18next.server";
import { gradientFrom, gradientTo } from "~/styles/theme.css";
import { flush, gradientHero, leadIn, narrow, stack } from "~/styles/ui.css";
import { getEnv } from "~/utils/env.server";
import { routeMeta } from "~/utils/meta";
import * as styles from "~/features/codes/codes.css";
import { addressKeyOf } from "~/utils/client-address.server";
import { keepRetryAfter } from "~/utils/responses.server";
import { readFormData } from "~/utils/form-data.server";
import type { SitemapHandle } from "~/features/community/sitemap";
import { withDatabaseNet } from "~/utils/failures.server";

export const handle = {
  i18n: ["platform", "trust", "offer"],
  sitemap: { changefreq: "daily", priority: 0.8, lastmod: "content" } satisfies SitemapHandle,
};

export const loader = withDatabaseNet(async function loader({ request, params }: LoaderFunctionArgs) {
  const { platform } = await loadPlatformPage(request, params.slug);
  const t = await getT(request, "platform");
  const token = new URL(request.url).searchParams.get("draw");
  const path = `/${platform.slug}/get-code`;
  const view = { platform: platformHeader(platform) };
  if (token !== null) {
    return {
      ...view,
      ...(await loadDrawResult(token, t("errors.resultNotFound"), await getLanguage(request), platform.id)),
      // A result is one visitor's: never indexed.
      meta: {
        title: t("meta.resultTitle", { name: platform.name }),
        description: t("meta.drawDescription", { name: platform.name }),
        path,
        noindex: true,
      },
    };
  }
  return {
    ...view,
    available: await availableCodes(platform.id),
    report: null,
    // Before the draw too: what the referral gives and how to claim it.
    claim: await offerSection(platform.id, await getLanguage(request)),
    result: null,
    meta: {
      title: t("meta.drawTitle", { name: platform.name }),
      description: t("meta.drawDescription", { name: platform.name }),
      path,
      structuredData: breadcrumbLd(
        { siteUrl: getEnv().SITE_URL, language: await getLanguage(request), homeName: t("breadcrumb.home") },
        { name: platform.name, path: `/${platform.slug}` },
        { name: t("meta.drawTitle", { name: platform.name }), path },
      ),
    },
  };
});

export const meta = routeMeta;
// A 503 thrown by the action (the database refused the draw) keeps its Retry-After.
export const headers = keepRetryAfter;

/**
 * The draw (`intent=draw`; the draw form posts here, with or without JavaScript) or a visitor's
 * answer about a draw (`intent=report`). Only a POST spends a serve: crawlers and link previews
 * (GET) never draw. Drawn: 303 to the signed result page, with the cookie that lets this browser
 * answer (decision 315).
 */
export const action = withDatabaseNet(async function action({ request, params, context }: ActionFunctionArgs) {
  const form = await readFormData(request);
  const intent = await parseIntent(request, form, DRAW_PAGE_INTENTS, "platform:errors.badIntent");
  if (intent === "report") {
    const { platform } = await loadPlatformPage(request, params.slug);
    return answerDraw(request, context, form, { platformId: platform.id, pagePath: `/${platform.slug}/get-code` });
  }
  // Past the soft bound, a draw counts only with a browser's proof (decision 350).
  const proofStep = await drawProofStep(request, context, form);
  if (proofStep) return proofStep;
  // Hot path: the platform lookup is part of the draw's pick. Only a miss needs to know why.
  const location = params.slug
    ? await drawForPage(params.slug, addressKeyOf(context), context).catch(async (error: unknown) => {
        throw await drawRefusal(request, error);
      })
    : null;
  if (location) return redirect(location, { status: 303, headers: await drawCookieHeaders(request, context, location) });
  // Unknown or inactive platform: the same answers as the page itself; else no eligible code.
  await loadPlatformPage(request, params.slug);
  return data({ noCode: true }, { status: 200 });
});

export default function DrawPage() {
  const { platform, available, result, report, claim } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("platform");
  const drawPath = `/${platform.slug}/get-code`;
  const reportError = actionData && "report" in actionData ? actionData.report.error : null;
  return (
    <div className={`${narrow} ${stack}`} style={assignInlineVars({ [gradientFrom]: platform.from, [gradientTo]: platform.to })}>
      <section className={gradientHero} aria-labelledby="draw-heading">
        <div className={styles.heroInner}>
          <PlatformLogo
            name={platform.name}
            emoji={platform.emoji}
            light={platform.logoLight}
            dark={platform.logoDark}
            mark={platform.mark}
          />
          <div>
            <h1 id="draw-heading" className={flush}>
              {t("draw.heading", { name: platform.name })}
            </h1>
            {result ? null : <OfferLead text={claim?.offer?.referee ?? null} onGradient />}
            <p className={leadIn}>{t("draw.intro")}</p>
          </div>
        </div>
      </section>
      {result && report ? (
        <DrawResultSection result={result} report={report} claim={claim} pagePath={drawPath} reportError={reportError} />
      ) : (
        <>
          {reportError ? <ReportError error={reportError} /> : null}
          {actionData && "drawProof" in actionData ? (
            <DrawProofStep view={actionData.drawProof} action={drawPath} />
          ) : (
            <DrawReadyForm
              action={drawPath}
              available={available}
              noCodeMessage={available === 0 || (actionData && "noCode" in actionData) ? t("draw.noCode") : null}
              shareHref={`/submit?platform=${encodeURIComponent(platform.slug)}`}
            />
          )}
          {claim ? (
            <OfferDetails offer={claim.offer} hints={claim.hints} testId="platform-offer" platformName={platform.name} />
          ) : null}
        </>
      )}
      <p>
        <Link to={`/${platform.slug}`}>{t("draw.back", { name: platform.name })}</Link>
      </p>
    </div>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-pages";
