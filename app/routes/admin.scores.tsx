import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { deleteScore, listScoresAdmin, updateScore } from "~db/repositories/admin-site.server";
import type { GameScore } from "~db/schema";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import * as admin from "~/features/admin/admin.css";
import { ConfirmDeleteForm } from "~/features/admin/site/confirm-delete";
import { FieldError, usePendingIntent } from "~/features/admin/site/form-bits";
import { badRequest, parseRowId, rowNotFound } from "~/features/admin/site/forms.server";
import { PLAYER_NAME_MAX, scoreSchema } from "~/features/admin/site/schemas";
import * as site from "~/features/admin/site/site.css";
import { getT } from "~/i18n/i18next.server";
import { button, buttonSmall, input, muted, visuallyHidden } from "~/styles/ui.css";
import { requireAdmin } from "~/utils/auth.server";
import { formatDateTime } from "~/utils/dates";
import { routeMeta } from "~/utils/meta";
import { redirectWithToast } from "~/utils/toast.server";
import { readFormData } from "~/utils/form-data.server";
import { loadOrFail } from "~/utils/failures.server";

export const handle = { i18n: ["admin", "admin-site"] };

const PATH = "/admin/scores";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const [scores, t] = await Promise.all([
    loadOrFail(request, "errors.load.generic", () => listScoresAdmin()),
    getT(request, "admin-site"),
  ]);
  return { scores, meta: { title: t("scores.title"), description: t("scores.description"), path: PATH, noindex: true } };
}

export const meta = routeMeta;

export async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  const formData = await readFormData(request);
  const intent = formData.get("intent");
  const id = parseRowId(formData.get("id"));
  if (id === null) throw await badRequest(request);

  if (intent === "update") {
    const submission = parseWithZod(formData, { schema: scoreSchema });
    if (submission.status !== "success") return data({ formId: `score-${id}`, result: submission.reply() }, { status: 400 });
    if (!(await updateScore(id, submission.value))) throw await rowNotFound(request, "scores.notFound");
    return redirectWithToast(PATH, { type: "success", key: "admin-site:scores.updated" });
  }
  if (intent === "delete") {
    if (!(await deleteScore(id))) throw await rowNotFound(request, "scores.notFound");
    return redirectWithToast(PATH, { type: "success", key: "admin-site:scores.deleted" });
  }
  throw await badRequest(request);
}

export default function AdminScores() {
  const { scores } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("admin-site");

  return (
    <section className={site.panel} aria-labelledby="scores-heading">
      <h2 id="scores-heading" className={site.sectionHeading}>
        {t("scores.heading", { n: scores.length })}
      </h2>
      {scores.length === 0 ? (
        <p className={muted}>{t("scores.empty")}</p>
      ) : (
        <div className={admin.tableWrap}>
          <table className={admin.table} data-testid="scores-table">
            <caption className={visuallyHidden}>{t("scores.caption")}</caption>
            <thead>
              <tr>
                <th scope="col" className={admin.cell}>
                  {t("scores.columns.player")}
                </th>
                <th scope="col" className={admin.cell}>
                  {t("scores.columns.device")}
                </th>
                <th scope="col" className={admin.cell}>
                  {t("scores.columns.date")}
                </th>
                <th scope="col" className={admin.cell}>
                  {t("scores.columns.actions")}
                </th>
              </tr>
            </thead>
            <tbody>
              {scores.map((s) => (
                <ScoreRow
                  key={`${s.id}:${s.player_name}:${s.score}`}
                  score={s}
                  lastResult={
                    actionData?.formId === `score-${s.id}` ? (actionData.result as SubmissionResult<string[]>) : undefined
                  }
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function ScoreRow({ score: s, lastResult }: { score: GameScore; lastResult?: SubmissionResult<string[]> }) {
  const { t } = useTranslation("admin-site");
  const saving = usePendingIntent("update", s.id);
  const [form, fields] = useForm({
    id: `score-${s.id}`,
    lastResult,
    constraint: getZodConstraint(scoreSchema),
    defaultValue: { player_name: s.player_name, score: String(s.score) },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: scoreSchema }),
  });
  return (
    <tr data-testid="score-row" data-id={s.id}>
      <td className={admin.cell} data-label={t("scores.columns.player")}>
        <Form method="post" {...getFormProps(form)} className={admin.inlineForm}>
          <input type="hidden" name="intent" value="update" />
          <input type="hidden" name="id" value={s.id} />
          <label htmlFor={fields.player_name.id} className={visuallyHidden}>
            {t("scores.fields.playerName", { id: s.id })}
          </label>
          <input
            {...getInputProps(fields.player_name, { type: "text" })}
            maxLength={PLAYER_NAME_MAX}
            className={`${input} ${site.smallInput}`}
          />
          <label htmlFor={fields.score.id} className={visuallyHidden}>
            {t("scores.fields.score", { id: s.id })}
          </label>
          <input
            {...getInputProps(fields.score, { type: "number" })}
            inputMode="numeric"
            className={`${input} ${site.numberInput}`}
          />
          <button
            type="submit"
            className={`${button.secondary} ${buttonSmall}`}
            disabled={saving}
            aria-label={t("scores.saveLabel", { name: s.player_name })}
          >
            {saving ? t("common.pending") : t("scores.save")}
          </button>
          <FieldError id={fields.player_name.errorId} errors={fields.player_name.errors} />
          <FieldError id={fields.score.errorId} errors={fields.score.errors} />
        </Form>
      </td>
      <td className={admin.cell} data-label={t("scores.columns.device")}>
        {t(`scores.devices.${s.device_type}`)}
      </td>
      <td className={admin.cell} data-label={t("scores.columns.date")}>
        {formatDateTime(s.created_at)}
      </td>
      <td className={admin.cell} data-label={t("scores.columns.actions")}>
        <ConfirmDeleteForm
          id={s.id}
          label={t("scores.deleteLabel", { name: s.player_name })}
          question={t("scores.confirmDelete", { name: s.player_name })}
        />
      </td>
    </tr>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
