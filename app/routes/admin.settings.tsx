import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { getSettings, saveSetting } from "~db/repositories/settings.server";
import { SETTING_KEYS, type SettingKey } from "~db/seed-data";
import { ErrorList, Field, HiddenFields, SubmitButton, type FieldControl } from "~/components/forms";
import { formIdOf, lastResultFor, useAdminMessage, type AdminFormReply } from "~/features/admin/forms";
import { rejectForm, refusedForm } from "~/features/admin/forms.server";
import { runWrite } from "~db/availability.server";
import { AI_PROVIDERS, SETTING_RULES, settingSchema } from "~/features/admin/site/schemas";
import { backupStatus, storageStatus, type BackupStatus, type StorageStatus } from "~/features/admin/site/backup-job.server";
import * as site from "~/features/admin/site/site.css";
import { getT } from "~/i18n/i18next.server";
import { input } from "~/styles/ui.css";
import { requireAdmin } from "~/utils/auth.server";
import { routeMeta } from "~/utils/meta";
import { badRequest, keepRetryAfter } from "~/utils/responses.server";
import { parseIntent } from "~/utils/intent.server";
import { redirectWithToast } from "~/utils/toast.server";
import { readFormData } from "~/utils/form-data.server";
import { loadOrFail, withDatabaseNet } from "~/utils/failures.server";
import { formatDateTime } from "~/utils/dates";

export const handle = { i18n: ["admin", "admin-site"] };

const PATH = "/admin/settings";

export const loader = withDatabaseNet(async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const [settings, t, storage] = await Promise.all([
    loadOrFail(request, "errors.load.generic", () => getSettings()),
    getT(request, "admin-site"),
    storageStatus(),
  ]);
  return {
    settings,
    backups: backupStatus(),
    storage,
    meta: { title: t("settings.title"), description: t("settings.description"), path: PATH, noindex: true },
  };
});

export const meta = routeMeta;

/** One key per form, saved one by one; a change of enable_theme_toggle reaches open pages live. */
export const headers = keepRetryAfter;

export const action = withDatabaseNet(async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  const formData = await readFormData(request);
  const key = String(formData.get("key") ?? "");
  // One intent: saving one setting.
  await parseIntent(request, formData, ["save"] as const);
  if (!(SETTING_KEYS as string[]).includes(key)) throw await badRequest(request, "admin-site:settings.errors.unknownKey");
  const submission = parseWithZod(formData, { schema: settingSchema });
  if (submission.status !== "success") return rejectForm(formIdOf("save", key), submission.reply());
  return runWrite(
    formIdOf("save", key),
    async () => {
      await saveSetting(submission.value.key, submission.value.value);
      // Back at the setting just saved (its form's id), not at the top of a long page.
      return redirectWithToast(`${PATH}#${formIdOf("save", key)}`, { type: "success", key: "admin-site:settings.saved" });
    },
    refusedForm(formIdOf("save", key), "admin-site:settings.error", formData),
  );
});

export default function AdminSettings() {
  const { settings, backups, storage } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as AdminFormReply | undefined;
  const { t } = useTranslation("admin-site");

  return (
    <section className={site.panel} aria-labelledby="settings-heading">
      <h2 id="settings-heading" className={site.sectionHeading}>
        {t("settings.heading")}
      </h2>
      <ErrorList tone="form" errors={reply ? [t("settings.error")] : null} testId="settings-error" />
      {SETTING_KEYS.map((key) => (
        <SettingForm
          // A new stored value remounts the form, so Conform starts from it after a save with JS.
          key={`${key}:${settings[key]}`}
          settingKey={key}
          value={settings[key]}
          lastResult={lastResultFor(reply, formIdOf("save", key))}
        />
      ))}
      <BackupPanel status={backups} />
      <StoragePanel status={storage} />
    </section>
  );
}

/** One of the tab's status panels: a heading and what it says. */
function StatusPanel({ name, testId, children }: { name: "backups" | "storage"; testId: string; children: ReactNode }) {
  const { t } = useTranslation("admin-site");
  return (
    <section className={site.panel} aria-labelledby={`${name}-heading`} data-testid={testId}>
      <h3 id={`${name}-heading`} className={site.sectionHeading}>
        {t(`${name}.heading`)}
      </h3>
      {children}
    </section>
  );
}

/** Sizes in MB with one decimal, in the admin's language. */
function useMegabytes() {
  const { i18n } = useTranslation("admin-site");
  return (mb: number) => mb.toLocaleString(i18n.language, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

/** Where the server's own backups stand (decision 281): how many, the newest, and the last attempt. */
function BackupPanel({ status }: { status: BackupStatus }) {
  const { t, i18n } = useTranslation("admin-site");
  const size = useMegabytes();
  const last = status.kind === "on" ? status.last : null;
  return (
    <StatusPanel name="backups" testId="backup-status">
      {status.kind === "off" ? (
        <p>{t(status.reason === "postgres" ? "backups.offPostgres" : "backups.offNoDir")}</p>
      ) : (
        <>
          <p>
            {status.newest
              ? t("backups.kept", {
                  count: status.kept,
                  date: formatDateTime(status.newest.at, i18n.language),
                  size: size(status.newest.sizeMb),
                })
              : t("backups.none")}
          </p>
          {last?.outcome === "skipped" ? (
            <p role="status">
              {t("backups.skipped", {
                date: formatDateTime(last.at, i18n.language),
                needed: size(last.neededMb),
                room: size(last.roomMb),
              })}
            </p>
          ) : last?.outcome === "failed" ? (
            <p role="status">{t("backups.failed", { date: formatDateTime(last.at, i18n.language) })}</p>
          ) : null}
        </>
      )}
    </StatusPanel>
  );
}

/** Where the database's space stands (decision 287): the file, the room inside it, its volume. */
function StoragePanel({ status }: { status: StorageStatus }) {
  const { t } = useTranslation("admin-site");
  const size = useMegabytes();
  return (
    <StatusPanel name="storage" testId="storage-status">
      {status.kind === "off" ? (
        <p>{t("storage.off")}</p>
      ) : (
        <>
          <p>{t("storage.database", { size: size(status.databaseMb), free: size(status.freeInsideMb) })}</p>
          {status.volume ? (
            <p>{t("storage.volume", { free: size(status.volume.freeMb), total: size(status.volume.totalMb) })}</p>
          ) : null}
          {status.volume?.low ? (
            <p role="status" data-testid="storage-low">
              {t("storage.low")}
            </p>
          ) : null}
        </>
      )}
    </StatusPanel>
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
  const message = useAdminMessage("admin-site");
  const rule = SETTING_RULES[settingKey];
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
  const name = t(`settings.keys.${settingKey}.label`);

  return (
    <Form method="post" {...getFormProps(form)} className={site.settingForm} data-testid={`setting-${settingKey}`}>
      <HiddenFields fields={{ intent: "save", key: settingKey }} />
      <Field
        id={field.id}
        label={
          <>
            {name} <code>{settingKey}</code>
          </>
        }
        description={t(`settings.keys.${settingKey}.hint`)}
        errors={field.errors?.slice(0, 1)}
        translate={(key) => message(key, { max: rule.max })}
      >
        {(control) => <SettingControl rule={rule} control={control} name={field.name} current={current} />}
      </Field>
      <div>
        <SubmitButton
          intent="save"
          id={settingKey}
          idField="key"
          size="small"
          pendingLabel={t("common.pending")}
          aria-label={t("settings.saveLabel", { name })}
        >
          {t("settings.save")}
        </SubmitButton>
      </div>
    </Form>
  );
}

/** The control a setting's rule asks for: a choice, a textarea for markup, or a one-line input. */
function SettingControl({
  rule,
  control,
  name,
  current,
}: {
  rule: (typeof SETTING_RULES)[SettingKey];
  control: FieldControl;
  name: string;
  current: string;
}) {
  const { t } = useTranslation("admin-site");
  const common = { ...control, name, className: input };
  if (rule.kind === "boolean") {
    return (
      <select {...common} defaultValue={current} key={current}>
        <option value="true">{t("settings.enabled")}</option>
        <option value="false">{t("settings.disabled")}</option>
      </select>
    );
  }
  if (rule.kind === "provider") {
    return (
      <select {...common} defaultValue={current} key={current}>
        {AI_PROVIDERS.map((p) => (
          <option key={p} value={p}>
            {t(`settings.providers.${p}`)}
          </option>
        ))}
      </select>
    );
  }
  if (rule.kind === "textarea") {
    return <textarea {...common} defaultValue={current} maxLength={rule.max} rows={4} spellCheck={false} />;
  }
  return (
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

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-pages";
