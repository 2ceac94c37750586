import { OfferDetails } from "~/features/offer/offer-views";
import type { HintCounts } from "~/features/offer/offer-views";
import type { OfferView } from "~/features/offer/offer";
import { DrawReport, type DrawReportData } from "~/features/trust/report-views";
import { DrawResultView, type DrawResultData } from "./draw-views";

export interface DrawResultSectionProps {
  result: DrawResultData;
  report: DrawReportData;
  claim: { offer: OfferView | null; hints: HintCounts } | null;
  /** The draw page: where "draw another" leads and where the answers post. */
  pagePath: string;
  showPlatform?: boolean;
  reportError: string | null;
}

/** A draw's result: the code, then how to claim it and "did it work?". */
export function DrawResultSection({ result, report, claim, pagePath, showPlatform, reportError }: DrawResultSectionProps) {
  return (
    <DrawResultView result={result} anotherHref={pagePath} showPlatform={showPlatform} bonus={claim?.offer?.referee ?? null}>
      {claim ? (
        <OfferDetails offer={claim.offer} hints={claim.hints} testId="claim-guide" platformName={result.platformName} />
      ) : null}
      <DrawReport report={report} pagePath={pagePath} error={reportError} />
    </DrawResultView>
  );
}
