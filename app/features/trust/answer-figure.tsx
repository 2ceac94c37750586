import { useTranslation } from "react-i18next";
import type { Ago } from "~/features/offer/offer";
import * as offer from "~/features/offer/offer.css";
import * as trust from "./trust.css";

/**
 * The platform page's figures from visitors' answers (also under every draw result, in DrawReport):
 * a module of its own, so the platform page loads none of the answer forms (decision 263).
 */
export interface AnswerFigureData {
  answers: number;
  percentWorked: number;
  lastWorked: Ago | null;
}

/** "92 % of 140 answers worked": nothing under the minimum number of answers (the loader gives null). */
export function AnswerFigure({ figure }: { figure: AnswerFigureData | null }) {
  const { t } = useTranslation("trust");
  if (!figure) return null;
  return (
    <>
      <p data-testid="answer-figure" className={trust.flush}>
        {t("figure.text", { count: figure.answers, percent: figure.percentWorked })}
      </p>
      <LastWorked ago={figure.lastWorked} />
    </>
  );
}

/** "Last worked 3 h ago" (computed on the server, so hydration renders the same text). */
function LastWorked({ ago }: { ago: Ago | null }) {
  const { t } = useTranslation("offer");
  if (!ago) return null;
  return (
    <p className={offer.flush} data-testid="platform-last-worked">
      {t(`freshness.${ago.unit}`, { count: ago.count })}
    </p>
  );
}
