import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { AdminTable, Cell } from "~/features/admin/admin-table";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { deleteScore, getScore, listScoresAdmin, updateScore } from "~db/repositories/game.server";
import { DEVICE_TYPES, type GameScore } from "~db/schema";
import * as admin from "~/features/admin/admin.css";
import { askToConfirm, confirmationAsked, isConfirmed } from "~/utils/confirmation.server";
import { Field, SubmitButton } from "~/components/forms";
import { FormAlert, formIdOf, lastResultFor, useAdminMessage, type AdminFormReply } from "~/features/admin/forms";
import { rejectForm, refusedForm } from "~/features/admin/forms.server";
import { runWrite } from "~db/availability.server";
import { RowConfirmStep, RowAction } from "~/features/admin/row-action";
import { PLAYER_NAME_MAX, scoreSchema } from "~/features/admin/site/schemas";
import * as site from "~/features/admin/site/site.css";
import { getT } from "~/i18n/i18next.server";
import { input, muted, visuallyHidden } from "~/styles/ui.css";
import { requireAdmin } from "~/utils/auth.server";
import { formatDateTime } from "~/utils/dates";
import { routeMeta } from "~/utils/meta";
import { badRequest, notFound, keepRetryAfter } from "~/utils/responses.server";
import { parseRowId } from "~/utils/row-id";
import { assertUnreachable, parseIntent } from "~/utils/intent.server";
import { redirectWithToast } from "~/utils/toast.server";
import { readFormData } from "~/utils/form-data.server";
import { ListFilters, SelectFilter, TextFilter } from "~/features/admin/list-filters";
import { choiceOf, dayRangeOf } from "~/features/admin/list-filters.server";
import { Pager } from "~/components/pager";
import { currentListHref, loadPage } from "~/utils/paging.server";
import { withDatabaseNet } from "~/utils/failures.server";

export const handle = { i18n: ["admin", "admin-site", "lists"] };

const PATH = "/admin/scores";

export const loader = withDatabaseNet(async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const device = choiceOf(url, "device", DEVICE_TYPES);
  const range = await dayRangeOf(request);
  const [{ rows: scores, pager }, t] = await Promise.all([
    loadPage(request, "errors.load.generic", (page) => listScoresAdmin({ device, range }, page)),
    getT(request, "admin-site"),
  ]);
  const askedDelete = confirmationAsked(request, "delete");
  return {
    scores,
    pager,
    filters: { device, date: range?.day ?? null },
    devices: DEVICE_TYPES,
    back: currentListHref(url),
    confirming: askedDelete === null ? null : ((await getScore(askedDelete)) ?? null),
    meta: { title: t("scores.title"), description: t("scores.description"), path: PATH, noindex: true },
  };
});

export const meta = routeMeta;

export const headers = keepRetryAfter;

export const action = withDatabaseNet(async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  const formData = await readFormData(request);
  const intent = await parseIntent(request, formData, ["update", "delete"] as const);
  const id = parseRowId(formData.get("id"));
  if (id === null) throw await badRequest(request);
  const back = currentListHref(new URL(request.url));

  switch (intent) {
    case "update": {
      const submission = parseWithZod(formData, { schema: scoreSchema });
      if (submission.status !== "success") return rejectForm(formIdOf(intent, id), submission.reply());
      return runWrite(
        formIdOf(intent, id),
        async () => {
          if (!(await updateScore(id, submission.value))) throw await notFound(request, "admin-site:scores.notFound");
          return redirectWithToast(back, { type: "success", key: "admin-site:scores.updated" });
        },
        refusedForm(formIdOf(intent, id), "admin-site:scores.errors.saveFailed", formData),
      );
    }
    case "delete": {
      if (!isConfirmed(formData)) return askToConfirm(back, "delete", id);
      return runWrite(
        formIdOf(intent, id),
        async () => {
          if (!(await deleteScore(id))) throw await notFound(request, "admin-site:scores.notFound");
          return redirectWithToast(back, { type: "success", key: "admin-site:scores.deleted" });
        },
        refusedForm(formIdOf(intent, id), "admin-site:scores.errors.deleteFailed", formData),
      );
    }
    default:
      return assertUnreachable(intent);
  }
});

export default function AdminScores() {
  const { scores, confirming, pager, filters, devices, back } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as AdminFormReply | undefined;
  const { t } = useTranslation("admin-site");
  const { t: tl } = useTranslation("lists");

  return (
    <section className={site.panel} aria-labelledby="scores-heading">
      <h2 id="scores-heading" className={site.sectionHeading}>
        {t("scores.heading", { n: pager.total.count })}
      </h2>
      <ListFilters resetTo={PATH}>
        <SelectFilter
          name="device"
          label={tl("filters.device")}
          value={filters.device}
          options={devices.map((d) => ({ value: d, label: tl(`filters.devices.${d}`) }))}
        />
        <TextFilter name="date" type="date" label={tl("filters.date")} value={filters.date} />
      </ListFilters>
      {confirming ? (
        <RowConfirmStep
          intent="delete"
          id={confirming.id}
          confirm={{
            question: t("scores.confirmDelete", { name: confirming.player_name }),
            yes: t("confirm.confirmDelete"),
          }}
          cancelTo={back}
        />
      ) : null}
      {scores.length === 0 ? (
        <p className={muted}>{t("scores.empty")}</p>
      ) : (
        <AdminTable
          columns={(["player", "device", "date", "actions"] as const).map((c) => t(`scores.columns.${c}`))}
          testId="scores-table"
          caption={{ text: t("scores.caption"), className: visuallyHidden }}
        >
          {scores.map((s) => (
            <ScoreRow
              key={`${s.id}:${s.player_name}:${s.score}`}
              score={s}
              lastResult={lastResultFor(reply, formIdOf("update", s.id))}
            />
          ))}
        </AdminTable>
      )}
      <Pager {...pager} label={tl("pager.label")} />
    </section>
  );
}

function ScoreRow({ score: s, lastResult }: { score: GameScore; lastResult?: SubmissionResult<string[]> }) {
  const { t, i18n } = useTranslation("admin-site");
  const message = useAdminMessage("admin-site");
  const [form, fields] = useForm({
    id: formIdOf("update", s.id),
    lastResult,
    constraint: getZodConstraint(scoreSchema),
    defaultValue: { player_name: s.player_name, score: String(s.score) },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: scoreSchema }),
  });
  return (
    <tr data-testid="score-row" data-id={s.id}>
      <Cell label={t("scores.columns.player")}>
        <Form method="post" {...getFormProps(form)} className={admin.inlineForm}>
          <input type="hidden" name="intent" value="update" />
          <input type="hidden" name="id" value={s.id} />
          <Field
            id={fields.player_name.id}
            label={t("scores.fields.playerName", { id: s.id })}
            hideLabel
            errors={fields.player_name.errors?.slice(0, 1)}
            translate={message}
          >
            {(control) => (
              <input
                {...getInputProps(fields.player_name, { type: "text" })}
                {...control}
                maxLength={PLAYER_NAME_MAX}
                className={`${input} ${site.smallInput}`}
              />
            )}
          </Field>
          <Field
            id={fields.score.id}
            label={t("scores.fields.score", { id: s.id })}
            hideLabel
            errors={fields.score.errors?.slice(0, 1)}
            translate={message}
          >
            {(control) => (
              <input
                {...getInputProps(fields.score, { type: "number" })}
                {...control}
                inputMode="numeric"
                className={`${input} ${site.numberInput}`}
              />
            )}
          </Field>
          <SubmitButton
            intent="update"
            id={s.id}
            tone="secondary"
            size="small"
            pendingLabel={t("common.pending")}
            aria-label={t("scores.saveLabel", { name: s.player_name })}
          >
            {t("scores.save")}
          </SubmitButton>
          <FormAlert errors={form.errors} ns="admin-site" />
        </Form>
      </Cell>
      <Cell label={t("scores.columns.device")}>{t(`scores.devices.${s.device_type}`)}</Cell>
      <Cell label={t("scores.columns.date")}>{formatDateTime(s.created_at, i18n.language)}</Cell>
      <Cell label={t("scores.columns.actions")}>
        <RowAction
          intent="delete"
          id={s.id}
          tone="danger"
          label={t("confirm.delete")}
          accessibleName={t("scores.deleteLabel", { name: s.player_name })}
          confirm={{ question: t("scores.confirmDelete", { name: s.player_name }), yes: t("confirm.confirmDelete") }}
        />
      </Cell>
    </tr>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-pages";
