import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { getSettings, saveSetting } from "~db/repositories/settings.server";
import { SETTING_KEYS, type SettingKey } from "~db/seed-data";
import { FieldError, formIdOf, lastResultFor, type AdminFormReply } from "~/features/admin/forms";
import { rejectForm } from "~/features/admin/forms.server";
import { AI_PROVIDERS, SETTING_RULES, settingSchema } from "~/features/admin/site/schemas";
import * as site from "~/features/admin/site/site.css";
import { getT } from "~/i18n/i18next.server";
import { buttonClass } from "~/styles/recipes";
import { alert, hint, input, label, stack } from "~/styles/ui.css";
import { requireAdmin } from "~/utils/auth.server";
import { routeMeta } from "~/utils/meta";
import { badRequest } from "~/utils/responses.server";
import { parseIntent } from "~/utils/intent.server";
import { usePending } from "~/utils/use-pending";
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
  // One intent: saving one setting.
  await parseIntent(request, formData, ["save"] as const);
  if (!(SETTING_KEYS as string[]).includes(key)) throw await badRequest(request, "admin-site:settings.errors.unknownKey");
  const submission = parseWithZod(formData, { schema: settingSchema });
  if (submission.status !== "success") return rejectForm(formIdOf("save", key), submission.reply());
  await saveSetting(submission.value.key, submission.value.value);
  return redirectWithToast(PATH, { type: "success", key: "admin-site:settings.saved" });
}

export default function AdminSettings() {
  const { settings } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as AdminFormReply | undefined;
  const { t } = useTranslation("admin-site");

  return (
    <section className={site.panel} aria-labelledby="settings-heading">
      <h2 id="settings-heading" className={site.sectionHeading}>
        {t("settings.heading")}
      </h2>
      {reply ? (
        <p className={alert.error} role="alert" data-testid="settings-error">
          {t("settings.error")}
        </p>
      ) : null}
      {SETTING_KEYS.map((key) => (
        <SettingForm
          // A new stored value remounts the form, so Conform starts from it after a save with JS.
          key={`${key}:${settings[key]}`}
          settingKey={key}
          value={settings[key]}
          lastResult={lastResultFor(reply, formIdOf("save", key))}
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
  const saving = usePending({ intent: "save", id: settingKey, idField: "key" });
  const [form, fields] = useForm({
    id: formIdOf("save", settingKey),
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
      <p id={`${field.id}-hint`} className={`${hint} ${site.flush}`}>
        {t(`settings.keys.${settingKey}.hint`)}
      </p>
      <div className={`${stack} ${site.tight}`}>
        {control}
        <FieldError ns="admin-site" id={field.errorId} errors={field.errors} values={{ max: rule.max }} />
      </div>
      <div>
        <button
          type="submit"
          className={buttonClass({ size: "small" })}
          disabled={saving}
          aria-label={t("settings.saveLabel", { name: t(`settings.keys.${settingKey}.label`) })}
        >
          {saving ? t("common.pending") : t("settings.save")}
        </button>
      </div>
    </Form>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
