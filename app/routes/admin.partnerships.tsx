import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { CheckboxField, Field, SubmitButton } from "~/components/forms";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { TFunction } from "i18next";
import { safeHref } from "~db/platform-links";
import {
  createPartnership,
  deletePartnership,
  getPartnership,
  listPartnershipsAdmin,
  movePartnership,
  type PartnershipInput,
  updatePartnership,
} from "~db/repositories/partnerships.server";
import type { Partnership } from "~db/schema";
import * as admin from "~/features/admin/admin.css";
import { askToConfirm, confirmationAsked, isConfirmed } from "~/utils/confirmation.server";
import { FormAlert, formIdOf, InputField, lastResultFor, useAdminMessage, type AdminFormReply } from "~/features/admin/forms";
import { rejectForm } from "~/features/admin/forms.server";
import { RowConfirmStep, RowAction, type Confirmation } from "~/features/admin/row-action";
import { DISPLAY_MODES, partnershipSchema, type PartnershipForm } from "~/features/admin/site/schemas";
import * as site from "~/features/admin/site/site.css";
import { getT } from "~/i18n/i18next.server";
import { badgeClass, cardClass } from "~/styles/recipes";
import { input, muted, stack } from "~/styles/ui.css";
import { requireAdmin } from "~/utils/auth.server";
import { routeMeta } from "~/utils/meta";
import { badRequest, failure, notFound, keepRetryAfter } from "~/utils/responses.server";
import { parseRowId } from "~/utils/row-id";
import { assertUnreachable, parseIntent } from "~/utils/intent.server";
import { redirectWithToast } from "~/utils/toast.server";
import { readFormData } from "~/utils/form-data.server";
import { runWrite } from "~db/availability.server";
import { Pager } from "~/components/pager";
import { currentListHref, loadPage } from "~/utils/paging.server";
import { withDatabaseNet } from "~/utils/failures.server";

export const handle = { i18n: ["admin", "admin-site", "lists"] };

const PATH = "/admin/partnerships";
const NEW_FORM_ID = formIdOf("create", null);

export const loader = withDatabaseNet(async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const [{ rows: partnerships, pager }, t] = await Promise.all([
    loadPage(request, "errors.load.generic", (page) => listPartnershipsAdmin(page)),
    getT(request, "admin-site"),
  ]);
  const askedDelete = confirmationAsked(request, "delete");
  return {
    partnerships,
    pager,
    back: currentListHref(new URL(request.url)),
    confirming: askedDelete === null ? null : ((await getPartnership(askedDelete)) ?? null),
    meta: { title: t("partnerships.title"), description: t("partnerships.description"), path: PATH, noindex: true },
  };
});

export const meta = routeMeta;

const DESCRIPTION_FIELDS = [
  { name: "description", labelKey: "partnerships.fields.descriptionFr" },
  { name: "description_en", labelKey: "partnerships.fields.descriptionEn" },
  { name: "description_de", labelKey: "partnerships.fields.descriptionDe" },
  { name: "description_es", labelKey: "partnerships.fields.descriptionEs" },
] as const;

function toInput(value: PartnershipForm): PartnershipInput {
  return {
    name: value.name,
    url: value.url,
    logo_url: value.logo_url || null,
    description: value.description || null,
    description_en: value.description_en || null,
    description_de: value.description_de || null,
    description_es: value.description_es || null,
    display_mode: value.display_mode,
    is_active: value.is_active ? 1 : 0,
  };
}

export const headers = keepRetryAfter;

export const action = withDatabaseNet(async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  const formData = await readFormData(request);
  const intent = await parseIntent(request, formData, ["create", "update", "delete", "move-up", "move-down"] as const);
  // Every intent but "create" names its row.
  const id = intent === "create" ? null : parseRowId(formData.get("id"));
  if (intent !== "create" && id === null) throw await badRequest(request);

  switch (intent) {
    case "create":
    case "update": {
      const submission = parseWithZod(formData, { schema: partnershipSchema });
      if (submission.status !== "success") {
        return rejectForm(formIdOf(intent, id), submission.reply());
      }
      // A failing save: the tab's message next to the form, the input kept.
      const failed = (key: string, headers: Record<string, string>) =>
        rejectForm(formIdOf(intent, id), submission.reply({ formErrors: [key] }), 503, headers);
      if (id === null) {
        const created = await runWrite("partnership create", () => createPartnership(toInput(submission.value)), "result");
        if (!created.ok) return failed("partnerships.errors.createFailed", created.headers);
        return redirectWithToast(PATH, { type: "success", key: "admin-site:partnerships.created" });
      }
      const updated = await runWrite("partnership update", () => updatePartnership(id, toInput(submission.value)), "result");
      if (!updated.ok) return failed("partnerships.errors.updateFailed", updated.headers);
      if (!updated.value) throw await notFound(request, "admin-site:partnerships.notFound");
      return redirectWithToast(PATH, { type: "success", key: "admin-site:partnerships.updated" });
    }
    case "delete": {
      if (!isConfirmed(formData)) return askToConfirm(currentListHref(new URL(request.url)), "delete", id!);
      const deleted = await runWrite("partnership delete", () => deletePartnership(id!), "result");
      if (!deleted.ok) {
        const t = await getT(request, "admin-site");
        throw failure(503, t("partnerships.errors.deleteFailed"), { headers: deleted.headers });
      }
      if (!deleted.value) throw await notFound(request, "admin-site:partnerships.notFound");
      return redirectWithToast(PATH, { type: "success", key: "admin-site:partnerships.deleted" });
    }
    case "move-up":
    case "move-down": {
      const move = await runWrite("partnership move", () => movePartnership(id!, intent === "move-up" ? "up" : "down"), "result");
      if (!move.ok) {
        const t = await getT(request, "admin-site");
        throw failure(503, t("partnerships.errors.moveFailed"), { headers: move.headers });
      }
      const moved = move.value;
      if (moved === "missing") throw await notFound(request, "admin-site:partnerships.notFound");
      if (moved === "edge") return redirectWithToast(PATH, { type: "info", key: "admin-site:partnerships.atEdge" });
      return redirectWithToast(PATH, { type: "success", key: "admin-site:partnerships.moved" });
    }
    default:
      return assertUnreachable(intent);
  }
});

export default function AdminPartnerships() {
  const { partnerships, confirming, pager, back } = useLoaderData<typeof loader>();
  const { t: tl } = useTranslation("lists");
  const reply = useActionData<typeof action>() as AdminFormReply | undefined;
  const { t } = useTranslation("admin-site");
  const resultFor = (formId: string) => lastResultFor(reply, formId);

  return (
    <div className={site.panel}>
      {confirming ? (
        <RowConfirmStep intent="delete" id={confirming.id} confirm={deleteQuestion(t, confirming.name)} cancelTo={back} />
      ) : null}
      <section className={`${cardClass()} ${stack}`} aria-labelledby="partnership-new-heading">
        <h2 id="partnership-new-heading" className={site.sectionHeading}>
          {t("partnerships.createHeading")}
        </h2>
        <PartnershipEditor formId={NEW_FORM_ID} lastResult={resultFor(NEW_FORM_ID)} />
      </section>

      <section className={stack} aria-labelledby="partnership-list-heading">
        <h2 id="partnership-list-heading" className={site.sectionHeading}>
          {t("partnerships.listHeading", { n: pager.total.count })}
        </h2>
        {partnerships.length === 0 ? (
          <p className={muted}>{t("partnerships.empty")}</p>
        ) : (
          <ol className={site.list} data-testid="partnership-list">
            {partnerships.map((p, index) => (
              <PartnershipItem
                // Saved changes remount the row, so its edit form starts from the stored values.
                key={`${p.id}:${p.name}:${p.url}:${p.logo_url}:${p.description}:${p.description_en}:${p.description_de}:${p.description_es}:${p.display_mode}:${p.is_active}`}
                partnership={p}
                isFirst={index === 0 && !pager.prev}
                isLast={index === partnerships.length - 1 && !pager.next}
                lastResult={resultFor(formIdOf("update", p.id))}
              />
            ))}
          </ol>
        )}
        <Pager {...pager} label={tl("pager.label")} />
      </section>
    </div>
  );
}

function PartnershipItem({
  partnership: p,
  isFirst,
  isLast,
  lastResult,
}: {
  partnership: Partnership;
  isFirst: boolean;
  isLast: boolean;
  lastResult?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation("admin-site");
  const href = safeHref(p.url);
  return (
    <li className={site.item} data-testid="partnership-item" data-id={p.id}>
      <div className={site.itemHead}>
        <h3 className={site.itemTitle}>{p.name}</h3>
        <span className={badgeClass()}>{p.is_active ? t("partnerships.active") : t("partnerships.inactive")}</span>
      </div>
      <p className={`${muted} ${site.wrapText} ${site.flush}`}>
        {href ? (
          <a href={href} rel="noopener noreferrer nofollow" target="_blank">
            {href}
          </a>
        ) : null}{" "}
        · {t(`partnerships.displayModes.${p.display_mode}`)}
      </p>
      <div className={admin.actions}>
        <RowAction
          intent="move-up"
          id={p.id}
          disabled={isFirst}
          accessibleName={t("partnerships.moveUpLabel", { name: p.name })}
          label={t("partnerships.moveUp")}
        />
        <RowAction
          intent="move-down"
          id={p.id}
          disabled={isLast}
          accessibleName={t("partnerships.moveDownLabel", { name: p.name })}
          label={t("partnerships.moveDown")}
        />
        <RowAction
          intent="delete"
          id={p.id}
          tone="danger"
          label={t("confirm.delete")}
          accessibleName={t("partnerships.deleteLabel", { name: p.name })}
          confirm={deleteQuestion(t, p.name)}
        />
      </div>
      {/* Open after a rejected edit, so the message and the kept input are in view without JS. */}
      <details open={lastResult ? true : undefined}>
        <summary className={site.summary}>{t("partnerships.editLabel", { name: p.name })}</summary>
        <PartnershipEditor formId={formIdOf("update", p.id)} partnership={p} lastResult={lastResult} />
      </details>
    </li>
  );
}

/** The question a partnership's deletion asks first. */
function deleteQuestion(t: TFunction, name: string): Confirmation {
  return { question: t("partnerships.confirmDelete", { name }), yes: t("confirm.confirmDelete") };
}

function PartnershipEditor({
  formId,
  partnership,
  lastResult,
}: {
  formId: string;
  partnership?: Partnership;
  lastResult?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation("admin-site");
  const message = useAdminMessage("admin-site");
  const intent = partnership ? "update" : "create";
  const [form, fields] = useForm({
    id: formId,
    lastResult,
    constraint: getZodConstraint(partnershipSchema),
    defaultValue: partnership
      ? {
          name: partnership.name,
          url: partnership.url,
          logo_url: partnership.logo_url ?? "",
          description: partnership.description ?? "",
          description_en: partnership.description_en ?? "",
          description_de: partnership.description_de ?? "",
          description_es: partnership.description_es ?? "",
          display_mode: partnership.display_mode,
          is_active: partnership.is_active ? "on" : undefined,
        }
      : { display_mode: "both", is_active: "on" },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: partnershipSchema }),
  });

  return (
    <Form method="post" {...getFormProps(form)} className={stack}>
      <input type="hidden" name="intent" value={intent} />
      {partnership ? <input type="hidden" name="id" value={partnership.id} /> : null}
      <FormAlert errors={form.errors} ns="admin-site" />
      <div className={admin.formGrid}>
        <InputField meta={fields.name} type="text" label={t("partnerships.fields.name")} ns="admin-site" />
        <InputField meta={fields.url} type="url" label={t("partnerships.fields.url")} ns="admin-site" placeholder="https://" />
        <InputField
          meta={fields.logo_url}
          type="url"
          label={t("partnerships.fields.logoUrl")}
          ns="admin-site"
          placeholder="https://"
        />
        <Field
          id={fields.display_mode.id}
          label={t("partnerships.fields.displayMode")}
          errors={fields.display_mode.errors}
          translate={message}
        >
          {(control) => (
            <select {...getSelectProps(fields.display_mode)} {...control} className={input}>
              {DISPLAY_MODES.map((mode) => (
                <option key={mode} value={mode}>
                  {t(`partnerships.displayModes.${mode}`)}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <fieldset className={`${admin.formGrid} ${site.fieldset}`}>
        <legend>{t("partnerships.fields.descriptions")}</legend>
        {DESCRIPTION_FIELDS.map(({ name, labelKey }) => (
          <Field key={name} id={fields[name].id} label={t(labelKey)} errors={fields[name].errors} translate={message}>
            {(control) => <textarea {...getTextareaProps(fields[name])} {...control} className={input} rows={2} />}
          </Field>
        ))}
      </fieldset>
      <CheckboxField id={fields.is_active.id} label={t("partnerships.fields.isActive")}>
        {(control) => <input {...getInputProps(fields.is_active, { type: "checkbox" })} {...control} />}
      </CheckboxField>
      <div>
        <SubmitButton intent={intent} id={partnership?.id ?? null} pendingLabel={t("common.pending")}>
          {partnership ? t("partnerships.save") : t("partnerships.create")}
        </SubmitButton>
      </div>
    </Form>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-pages";
