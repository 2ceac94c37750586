import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { safeHref } from "~db/platform-links";
import {
  createPartnership,
  deletePartnership,
  listPartnershipsAdmin,
  movePartnership,
  updatePartnership,
  type PartnershipInput,
} from "~db/repositories/admin-site.server";
import type { Partnership } from "~db/schema";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import * as admin from "~/features/admin/admin.css";
import { ConfirmDeleteForm } from "~/features/admin/site/confirm-delete";
import { FieldError, usePendingIntent } from "~/features/admin/site/form-bits";
import { badRequest, parseRowId, rowNotFound } from "~/features/admin/site/forms.server";
import { DISPLAY_MODES, partnershipSchema, type PartnershipForm } from "~/features/admin/site/schemas";
import * as site from "~/features/admin/site/site.css";
import { getT } from "~/i18n/i18next.server";
import { alert, badge, button, buttonSmall, card, field, input, label, muted, stack } from "~/styles/ui.css";
import { requireAdmin } from "~/utils/auth.server";
import { routeMeta } from "~/utils/meta";
import { redirectWithToast } from "~/utils/toast.server";
import { readFormData } from "~/utils/form-data.server";
import { attemptWrite, loadOrFail } from "~/utils/failures.server";

export const handle = { i18n: ["admin", "admin-site"] };

const PATH = "/admin/partnerships";
const NEW_FORM_ID = "partnership-new";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const [partnerships, t] = await Promise.all([
    loadOrFail(request, "errors.load.generic", () => listPartnershipsAdmin()),
    getT(request, "admin-site"),
  ]);
  return {
    partnerships,
    meta: { title: t("partnerships.title"), description: t("partnerships.description"), path: PATH, noindex: true },
  };
}

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

export async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  const formData = await readFormData(request);
  const intent = formData.get("intent");

  if (intent === "create" || intent === "update") {
    const id = intent === "update" ? parseRowId(formData.get("id")) : null;
    if (intent === "update" && id === null) throw await badRequest(request);
    const submission = parseWithZod(formData, { schema: partnershipSchema });
    if (submission.status !== "success") {
      return data({ formId: id === null ? NEW_FORM_ID : `partnership-${id}`, result: submission.reply() }, { status: 400 });
    }
    const formId = id === null ? NEW_FORM_ID : `partnership-${id}`;
    // A failing save: the spec's message next to the form, the input kept.
    const failed = (key: string) => data({ formId, result: submission.reply({ formErrors: [key] }) }, { status: 503 });
    if (id === null) {
      const created = await attemptWrite("partnership create", () => createPartnership(toInput(submission.value)));
      if (!created.ok) return failed("partnerships.errors.createFailed");
      return redirectWithToast(PATH, { type: "success", key: "admin-site:partnerships.created" });
    }
    const updated = await attemptWrite("partnership update", () => updatePartnership(id, toInput(submission.value)));
    if (!updated.ok) return failed("partnerships.errors.updateFailed");
    if (!updated.value) throw await rowNotFound(request, "partnerships.notFound");
    return redirectWithToast(PATH, { type: "success", key: "admin-site:partnerships.updated" });
  }

  const id = parseRowId(formData.get("id"));
  if (id === null) throw await badRequest(request);
  if (intent === "delete") {
    const deleted = await attemptWrite("partnership delete", () => deletePartnership(id));
    if (!deleted.ok) {
      const t = await getT(request, "admin-site");
      throw new Response(t("partnerships.errors.deleteFailed"), { status: 503 });
    }
    if (!deleted.value) throw await rowNotFound(request, "partnerships.notFound");
    return redirectWithToast(PATH, { type: "success", key: "admin-site:partnerships.deleted" });
  }
  if (intent === "move-up" || intent === "move-down") {
    const moved = await movePartnership(id, intent === "move-up" ? "up" : "down");
    if (moved === "missing") throw await rowNotFound(request, "partnerships.notFound");
    if (moved === "edge") return redirectWithToast(PATH, { type: "info", key: "admin-site:partnerships.atEdge" });
    return redirectWithToast(PATH, { type: "success", key: "admin-site:partnerships.moved" });
  }
  throw await badRequest(request);
}

export default function AdminPartnerships() {
  const { partnerships } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("admin-site");
  const resultFor = (formId: string) =>
    actionData?.formId === formId ? (actionData.result as SubmissionResult<string[]>) : undefined;

  return (
    <div className={site.panel}>
      <section className={`${card} ${stack}`} aria-labelledby="partnership-new-heading">
        <h2 id="partnership-new-heading" className={site.sectionHeading}>
          {t("partnerships.createHeading")}
        </h2>
        <PartnershipEditor formId={NEW_FORM_ID} lastResult={resultFor(NEW_FORM_ID)} />
      </section>

      <section className={stack} aria-labelledby="partnership-list-heading">
        <h2 id="partnership-list-heading" className={site.sectionHeading}>
          {t("partnerships.listHeading", { n: partnerships.length })}
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
                isFirst={index === 0}
                isLast={index === partnerships.length - 1}
                lastResult={resultFor(`partnership-${p.id}`)}
              />
            ))}
          </ol>
        )}
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
        <span className={badge}>{p.is_active ? t("partnerships.active") : t("partnerships.inactive")}</span>
      </div>
      <p className={`${muted} ${site.wrapText}`} style={{ margin: 0 }}>
        {href ? (
          <a href={href} rel="noopener noreferrer nofollow" target="_blank">
            {href}
          </a>
        ) : null}{" "}
        · {t(`partnerships.displayModes.${p.display_mode}`)}
      </p>
      <div className={admin.actions}>
        <RowButton
          intent="move-up"
          id={p.id}
          disabled={isFirst}
          label={t("partnerships.moveUpLabel", { name: p.name })}
          text={t("partnerships.moveUp")}
        />
        <RowButton
          intent="move-down"
          id={p.id}
          disabled={isLast}
          label={t("partnerships.moveDownLabel", { name: p.name })}
          text={t("partnerships.moveDown")}
        />
        <ConfirmDeleteForm
          id={p.id}
          label={t("partnerships.deleteLabel", { name: p.name })}
          question={t("partnerships.confirmDelete", { name: p.name })}
        />
      </div>
      {/* Open after a rejected edit, so the message and the kept input are in view without JS. */}
      <details open={lastResult ? true : undefined}>
        <summary className={site.summary}>{t("partnerships.editLabel", { name: p.name })}</summary>
        <PartnershipEditor formId={`partnership-${p.id}`} partnership={p} lastResult={lastResult} />
      </details>
    </li>
  );
}

function RowButton({
  intent,
  id,
  disabled,
  label: aria,
  text,
}: {
  intent: string;
  id: number;
  disabled: boolean;
  label: string;
  text: string;
}) {
  return (
    <Form method="post" className={admin.inlineForm}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      <button type="submit" className={`${button.secondary} ${buttonSmall}`} aria-label={aria} disabled={disabled}>
        {text}
      </button>
    </Form>
  );
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
  const intent = partnership ? "update" : "create";
  const pending = usePendingIntent(intent, partnership?.id);
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
      {form.errors?.length ? (
        <p className={alert.error} role="alert" data-testid="form-error">
          {form.errors.map((e) => t(e)).join(" ")}
        </p>
      ) : null}
      <div className={admin.formGrid}>
        <div className={field}>
          <label htmlFor={fields.name.id} className={label}>
            {t("partnerships.fields.name")}
          </label>
          <input {...getInputProps(fields.name, { type: "text" })} className={input} />
          <FieldError id={fields.name.errorId} errors={fields.name.errors} />
        </div>
        <div className={field}>
          <label htmlFor={fields.url.id} className={label}>
            {t("partnerships.fields.url")}
          </label>
          <input {...getInputProps(fields.url, { type: "url" })} className={input} placeholder="https://" />
          <FieldError id={fields.url.errorId} errors={fields.url.errors} />
        </div>
        <div className={field}>
          <label htmlFor={fields.logo_url.id} className={label}>
            {t("partnerships.fields.logoUrl")}
          </label>
          <input {...getInputProps(fields.logo_url, { type: "url" })} className={input} placeholder="https://" />
          <FieldError id={fields.logo_url.errorId} errors={fields.logo_url.errors} />
        </div>
        <div className={field}>
          <label htmlFor={fields.display_mode.id} className={label}>
            {t("partnerships.fields.displayMode")}
          </label>
          <select {...getSelectProps(fields.display_mode)} className={input}>
            {DISPLAY_MODES.map((mode) => (
              <option key={mode} value={mode}>
                {t(`partnerships.displayModes.${mode}`)}
              </option>
            ))}
          </select>
          <FieldError id={fields.display_mode.errorId} errors={fields.display_mode.errors} />
        </div>
      </div>
      <fieldset className={`${admin.formGrid} ${site.fieldset}`}>
        <legend>{t("partnerships.fields.descriptions")}</legend>
        {DESCRIPTION_FIELDS.map(({ name, labelKey }) => (
          <div className={field} key={name}>
            <label htmlFor={fields[name].id} className={label}>
              {t(labelKey)}
            </label>
            <textarea {...getTextareaProps(fields[name])} className={input} rows={2} />
            <FieldError id={fields[name].errorId} errors={fields[name].errors} />
          </div>
        ))}
      </fieldset>
      <div className={site.checkboxRow}>
        <input {...getInputProps(fields.is_active, { type: "checkbox" })} className={site.checkbox} />
        <label htmlFor={fields.is_active.id}>{t("partnerships.fields.isActive")}</label>
      </div>
      <div>
        <button type="submit" className={button.primary} disabled={pending}>
          {pending ? t("common.pending") : partnership ? t("partnerships.save") : t("partnerships.create")}
        </button>
      </div>
    </Form>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
