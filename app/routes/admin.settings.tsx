import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { getSettings, saveSetting } from "~db/repositories/settings.server";
import { SETTING_KEYS, type SettingKey } from "~db/seed-data";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { FieldError, usePendingIntent } from "~/features/admin/site/form-bits";
import { AI_PROVIDERS, SETTING_RULES, settingSchema } from "~/features/admin/site/schemas";
import * as site from "~/features/admin/site/site.css";
import { getT } from "~/i18n/i18next.server";
import { alert, button, buttonSmall, hint, input, label, stack } from "~/styles/ui.css";
import { requireAdmin } from "~/utils/auth.server";
import { routeMeta } from "~/utils/meta";
import { redirectWithToast } from "~/utils/toast.server";
import { readFormData } from "~/utils/form-data.server";
import { loadOrFail } from "~/utils/failures.server";

export const handle = { i18n: ["admin", "admin-site"] };

const PATH = "/admin/settings";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const [settings, t] = await Promise.all([
    loadOrFail(request, "errors.load.generic", () => getSettings()),
    getT(request, "admin-site"),
  ]);
  return { settings, meta: { title: t("settings.title"), description: t("settings.description"), path: PATH, noindex: true } };
}

export const meta = routeMeta;

/** One key per form, saved one by one; a change of enable_theme_toggle reaches open pages live. */
export async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  const formData = await readFormData(request);
  const key = String(formData.get("key") ?? "");
  if (formData.get("intent") !== "save") {
    return data({ formId: null, result: null, error: "settings.errors.unknownIntent" }, { status: 400 });
  }
  const submission = parseWithZod(formData, { schema: settingSchema });
  if (submission.status !== "success") {
    const known = (SETTING_KEYS as string[]).includes(key);
    return data(
      { formId: known ? `setting-${key}` : null, result: submission.reply(), error: known ? null : "settings.errors.unknownKey" },
      { status: 400 },
    );
  }
  await saveSetting(submission.value.key, submission.value.value);
  return redirectWithToast(PATH, { type: "success", key: "admin-site:settings.saved" });
}

export default function AdminSettings() {
  const { settings } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("admin-site");

  return (
    <section className={site.panel} aria-labelledby="settings-heading">
      <h2 id="settings-heading" className={site.sectionHeading}>
        {t("settings.heading")}
      </h2>
      {actionData ? (
        <div className={alert.error} role="alert" data-testid="settings-error">
          <p style={{ margin: 0 }}>{t("settings.error")}</p>
          {actionData.error ? <p style={{ margin: 0 }}>{t(actionData.error)}</p> : null}
        </div>
      ) : null}
      {SETTING_KEYS.map((key) => (
        <SettingForm
          // A new stored value remounts the form, so Conform starts from it after a save with JS.
          key={`${key}:${settings[key]}`}
          settingKey={key}
          value={settings[key]}
          lastResult={actionData?.formId === `setting-${key}` ? (actionData.result as SubmissionResult<string[]>) : undefined}
        />
      ))}
    </section>
  );
}

function SettingForm({
  settingKey,
  value,
  lastResult,
}: {
  settingKey: SettingKey;
  value: string;
  lastResult?: SubmissionResult<string[]>;
}) {
  const { t } = useTranslation("admin-site");
  const rule = SETTING_RULES[settingKey];
  const saving = usePendingIntent("save", settingKey, "key");
  const [form, fields] = useForm({
    id: `setting-${settingKey}`,
    lastResult,
    defaultValue: { key: settingKey, value },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: settingSchema }),
  });
  const field = fields.value;
  const current = typeof field.initialValue === "string" ? field.initialValue : value;
  const describedBy = [`${field.id}-hint`, field.errors?.length ? field.errorId : null].filter(Boolean).join(" ");
  const common = {
    id: field.id,
    name: field.name,
    "aria-describedby": describedBy,
    "aria-invalid": field.errors?.length ? true : undefined,
    className: input,
  } as const;

  let control: React.ReactNode;
  if (rule.kind === "boolean") {
    control = (
      <select {...common} defaultValue={current} key={current}>
        <option value="true">{t("settings.enabled")}</option>
        <option value="false">{t("settings.disabled")}</option>
      </select>
    );
  } else if (rule.kind === "provider") {
    control = (
      <select {...common} defaultValue={current} key={current}>
        {AI_PROVIDERS.map((p) => (
          <option key={p} value={p}>
            {t(`settings.providers.${p}`)}
          </option>
        ))}
      </select>
    );
  } else if (rule.kind === "textarea") {
    control = <textarea {...common} defaultValue={current} maxLength={rule.max} rows={4} spellCheck={false} />;
  } else {
    control = (
      <input
        {...common}
        type={rule.kind === "url" ? "url" : "text"}
        defaultValue={current}
        maxLength={rule.max}
        required={rule.required}
        spellCheck={false}
        autoComplete="off"
      />
    );
  }

  return (
    <Form method="post" {...getFormProps(form)} className={site.settingForm} data-testid={`setting-${settingKey}`}>
      <input type="hidden" name="intent" value="save" />
      <input type="hidden" name="key" value={settingKey} />
      <label htmlFor={field.id} className={label}>
        {t(`settings.keys.${settingKey}.label`)} <code>{settingKey}</code>
      </label>
      <p id={`${field.id}-hint`} className={hint} style={{ margin: 0 }}>
        {t(`settings.keys.${settingKey}.hint`)}
      </p>
      <div className={stack} style={{ gap: "0.5rem" }}>
        {control}
        <FieldError id={field.errorId} errors={field.errors} values={{ max: rule.max }} />
      </div>
      <div>
        <button
          type="submit"
          className={`${button.primary} ${buttonSmall}`}
          disabled={saving}
          aria-label={t("settings.saveLabel", { name: t(`settings.keys.${settingKey}.label`) })}
        >
          {saving ? t("common.pending") : t("settings.save")}
        </button>
      </div>
    </Form>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
