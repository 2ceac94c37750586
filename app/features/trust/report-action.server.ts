import { parseWithZod } from "@conform-to/zod";
import { data, type AppLoadContext } from "@remix-run/node";
import { recordCodeReport, type ReportRefusal } from "~db/repositories/code-reports.server";
import { ANSWER_WINDOW_MS, boundDraw, readDrawToken } from "./draw-token.server";
import { runWrite } from "~db/availability.server";
import { hitRateLimit, tooManyRequests } from "~/utils/rate-limit.server";
import { redirectWithToast } from "~/utils/toast.server";
import { addressKeyOf } from "~/utils/client-address.server";
import { addressHash, networkHash } from "./address.server";
import { REPORT_RATE_LIMIT } from "./limits";
import { reportSchema } from "./report-schema";

/** What a refused answer returns to the page: a `trust` translation key, shown by the report form. */
type ReportActionData = { report: { error: string } };

const REFUSALS: Record<ReportRefusal | "bad-token" | "invalid" | "not-yours", { status: number; key: string }> = {
  invalid: { status: 400, key: "report.errors.invalid" },
  "bad-token": { status: 400, key: "report.errors.badToken" },
  "unknown-draw": { status: 400, key: "report.errors.badToken" },
  "foreign-draw": { status: 400, key: "report.errors.foreign" },
  "already-answered": { status: 409, key: "report.errors.already" },
  "code-gone": { status: 410, key: "report.errors.gone" },
  "not-yours": { status: 403, key: "report.errors.notYours" },
  "too-old": { status: 410, key: "report.errors.tooOld" },
};

function refuse(reason: keyof typeof REFUSALS) {
  const { status, key } = REFUSALS[reason];
  return data<ReportActionData>({ report: { error: key } }, { status });
}

/** What a draw page (`/{slug}/get-code`, `/random`) is posted: a draw, or the answer about one. */
export const DRAW_PAGE_INTENTS = ["draw", "report"] as const;

/**
 * `intent=report` on a draw's result page: the visitor says whether the code worked. The draw
 * token (signed, naming the draw's log row) names the draw; only the browser that drew it (its
 * `draws` cookie, decision 315), on the page it drew on, within 24 hours, may answer; one answer per
 * draw; a per-address limit. `platformId` null: the /random page (its own draws, of any platform).
 * Success: 303 back to the result page (which then shows the answer). A refusal is a 4xx with its
 * message and writes nothing.
 */
export async function answerDraw(
  request: Request,
  context: AppLoadContext,
  form: FormData,
  scope: { platformId: number | null; pagePath: string },
) {
  const limit = await hitRateLimit(REPORT_RATE_LIMIT, addressKeyOf(context));
  if (!limit.ok) throw await tooManyRequests(request, limit.retryAfterSeconds);
  const submission = parseWithZod(form, { schema: reportSchema });
  if (submission.status !== "success") {
    // An unknown reason, or a reason on a "worked" answer: said as such (an `offer` key).
    const reasonError = submission.error?.reason?.[0];
    return reasonError ? data<ReportActionData>({ report: { error: reasonError } }, { status: 400 }) : refuse("invalid");
  }
  const token = submission.value.draw;
  const requestId = readDrawToken(token);
  if (requestId === null) return refuse("bad-token");
  const bound = boundDraw(request, requestId);
  // Another browser's draw, or one older than a day (its cookie entry is gone): nothing to answer.
  if (!bound) return refuse("not-yours");
  if (bound.onRandom !== (scope.platformId === null)) return refuse("foreign-draw");
  const result = await runWrite("draw report", async () =>
    recordCodeReport({
      requestId,
      platformId: scope.platformId,
      outcome: submission.value.outcome,
      reason: submission.value.reason ?? null,
      ipHash: await addressHash(context),
      network: bound.network,
      answerNetwork: await networkHash(context),
      answerWindowMs: ANSWER_WINDOW_MS,
    }),
  );
  if (!result.ok) return refuse(result.reason);
  return redirectWithToast(`${scope.pagePath}?draw=${token}`, { type: "success", key: "trust:report.toast.thanks" });
}
