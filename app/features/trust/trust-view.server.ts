import { ANSWER_STATS, codeAnswerSummary, getDrawAnswer, platformAnswerStats } from "~db/repositories/code-reports.server";
import { platformLastWorkedAt } from "~db/repositories/answer-freshness.server";
import type { ReportOutcome } from "~db/schema";
import { agoFrom, type Ago } from "~/features/offer/offer";
import { formatDate } from "~/utils/dates";

/** The public figure, or null under ANSWER_STATS.minAnswers answers (too few to mean anything). */
export interface AnswerFigure {
  answers: number;
  percentWorked: number;
  /** How long since an answer last said a code of this platform worked. */
  lastWorked: Ago | null;
}

export async function platformAnswerFigure(platformId: number, now = new Date()): Promise<AnswerFigure | null> {
  const stats = await platformAnswerStats(platformId, now);
  if (stats.answers < ANSWER_STATS.minAnswers) return null;
  return {
    answers: stats.answers,
    percentWorked: Math.round((stats.worked * 100) / stats.answers),
    lastWorked: agoFrom(await platformLastWorkedAt(platformId), now),
  };
}

export interface DrawTrustView {
  /** The signed token the report form sends back. */
  token: string;
  /** The answer already given for this draw (the form is then replaced by a thank-you). */
  answer: ReportOutcome | null;
  /** False once the code was deleted: nothing to answer about. */
  answerable: boolean;
  figure: AnswerFigure | null;
  /** The day an answer last said this code worked, as the site writes dates (formatted here: the page loads no date code). */
  lastWorkedOn: string | null;
}

/** What a result page shows about trust: the question (or the answer given), the figure, the last success. */
export async function drawTrustView(
  result: { requestId: number; codeId: number | null; platformId: number },
  token: string,
  language: string,
): Promise<DrawTrustView> {
  const [answer, figure, summary] = await Promise.all([
    getDrawAnswer(result.requestId),
    platformAnswerFigure(result.platformId),
    result.codeId === null ? null : codeAnswerSummary(result.codeId),
  ]);
  return {
    token,
    answer,
    answerable: result.codeId !== null,
    figure,
    lastWorkedOn: summary?.lastWorkedAt ? formatDate(summary.lastWorkedAt, language) : null,
  };
}
