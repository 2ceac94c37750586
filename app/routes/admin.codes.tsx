import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import {
  CodeTakenError,
  deleteCode,
  getCodeWithPlatform,
  listAdminCodes,
  listPlatformOptions,
  setCodeActive,
  setCodeExpiry,
  setCodePermanent,
  updateCode,
} from "~db/repositories/admin-catalog.server";
import { listCodesPausedByReports, restoreReportedCode } from "~db/repositories/code-reports.server";
import { getSettings } from "~db/repositories/settings.server";
import { hostMatches, normalizeCodeInput, parseHosts, parseHttpUrl, safeHref } from "~db/platform-links";
import * as admin from "~/features/admin/admin.css";
import { errorsOf, FieldErrors, FormAlert, RowButton, valueOf } from "~/features/admin/catalog/components";
import { readAdminForm, rowError, rowIdOf, type RowActionData } from "~/features/admin/catalog/forms.server";
import { codeUpdateSchema, expirySchema } from "~/features/admin/catalog/schemas";
import { PausedCodes } from "~/features/trust/paused-codes";
import { getT } from "~/i18n/i18next.server";
import { badge, button, buttonSmall, field, input, label, muted, row, stack } from "~/styles/ui.css";
import { requireAdmin } from "~/utils/auth.server";
import { formatDate } from "~/utils/dates";
import { routeMeta } from "~/utils/meta";
import { redirectWithToast } from "~/utils/toast.server";

export const handle = { i18n: ["admin", "admin-catalog", "trust"] };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const [t, platforms, settings, paused] = await Promise.all([
    getT(request, "admin-catalog"),
    listPlatformOptions(),
    getSettings(),
    listCodesPausedByReports(),
  ]);
  const asked = new URL(request.url).searchParams.get("platform");
  const selected = platforms.find((p) => p.slug === asked) ?? platforms[0] ?? null;
  const codes = selected ? await listAdminCodes(selected.id) : [];
  return {
    platforms,
    selected,
    autoCleanup: settings.enable_auto_cleanup === "true",
    paused: paused.map((c) => ({
      id: c.id,
      code: c.code,
      platformName: c.platform_name,
      platformSlug: c.platform_slug,
      pausedAt: c.paused_at,
      timesServed: c.times_served,
      reports: c.reports.map((r) => ({ id: r.id, outcome: r.outcome, createdAt: r.created_at, address: r.ip_hash.slice(0, 6) })),
    })),
    codes: codes.map((c) => ({
      id: c.id,
      code: c.code,
      referralUrl: c.referral_url,
      isActive: c.is_active === 1,
      pausedReason: c.paused_reason,
      isPermanent: c.is_permanent === 1,
      expiresAt: c.expires_at,
      timesServed: c.times_served,
      createdAt: c.created_at,
    })),
    meta: { title: t("codes.title"), description: t("codes.title"), path: "/admin/codes", noindex: true },
  };
}

export const meta = routeMeta;

const back = (slug: string) => `/admin/codes?platform=${encodeURIComponent(slug)}`;

export async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  const { form } = await readAdminForm(request);
  const intent = String(form.get("intent") ?? "");
  const id = rowIdOf(form);
  const code = id ? await getCodeWithPlatform(id) : undefined;

  switch (intent) {
    case "restore": {
      // A code paused after failing answers, back into the rotation once checked.
      if (!code || !(await restoreReportedCode(code.id))) return rowError(intent, id, "codes.errors.update", 404);
      return redirectWithToast(back(code.slug), { type: "success", key: "trust:admin.toast.restored" });
    }
    case "toggle-active": {
      if (!code || !(await setCodeActive(code.id, code.is_active !== 1))) return rowError(intent, id, "codes.errors.update", 404);
      return redirectWithToast(back(code.slug), {
        type: "success",
        key: code.is_active === 1 ? "admin-catalog:codes.toast.deactivated" : "admin-catalog:codes.toast.activated",
      });
    }
    case "toggle-permanent": {
      if (!code || !(await setCodePermanent(code.id, code.is_permanent !== 1)))
        return rowError(intent, id, "codes.errors.update", 404);
      return redirectWithToast(back(code.slug), {
        type: "success",
        key: code.is_permanent === 1 ? "admin-catalog:codes.toast.temporary" : "admin-catalog:codes.toast.permanent",
      });
    }
    case "set-expiry": {
      const submission = parseWithZod(form, { schema: expirySchema });
      if (!code) return rowError(intent, id, "codes.errors.update", 404);
      if (submission.status !== "success")
        return data<RowActionData>({ intent, id, result: submission.reply() }, { status: 400 });
      const settings = await getSettings();
      // Only a temporary code with an expiry can move, and only while auto-cleanup would remove it.
      if (code.is_permanent === 1 || !code.expires_at || settings.enable_auto_cleanup !== "true") {
        return data<RowActionData>(
          { intent, id, result: submission.reply({ formErrors: ["codes.errors.expiryNotEditable"] }) },
          { status: 400 },
        );
      }
      const expiresAt = await setCodeExpiry(code.id, submission.value.days);
      if (!expiresAt) return rowError(intent, id, "codes.errors.update", 404);
      return redirectWithToast(back(code.slug), {
        type: "success",
        key: "admin-catalog:codes.toast.expiry",
        values: { date: formatDate(expiresAt) },
      });
    }
    case "update": {
      const submission = parseWithZod(form, { schema: codeUpdateSchema });
      if (!code) return rowError(intent, id, "codes.errors.modify", 404);
      if (submission.status !== "success")
        return data<RowActionData>({ intent, id, result: submission.reply() }, { status: 400 });
      const config = {
        slug: code.slug,
        hosts: code.hosts,
        url_rules: code.url_rules,
        referral_url_template: code.referral_url_template,
        code_pattern: code.code_pattern,
      };
      const normalized = normalizeCodeInput(submission.value.code, config);
      if (!normalized.ok) {
        return data<RowActionData>(
          { intent, id, result: submission.reply({ fieldErrors: { code: [`link.${normalized.error}`] } }) },
          { status: 400 },
        );
      }
      let referralUrl = normalized.referralUrl;
      if (submission.value.referral_url) {
        // A pasted link must be http(s) and live on one of the platform's hosts, like a submission's.
        const url = parseHttpUrl(submission.value.referral_url);
        if (!url || !hostMatches(url.hostname, parseHosts(code.hosts))) {
          return data<RowActionData>(
            { intent, id, result: submission.reply({ fieldErrors: { referral_url: ["codes.errors.referralUrl"] } }) },
            { status: 400 },
          );
        }
        referralUrl = url.href;
      }
      try {
        if (!(await updateCode(code.id, normalized.code, referralUrl))) return rowError(intent, id, "codes.errors.modify", 404);
      } catch (error) {
        if (error instanceof CodeTakenError) {
          return data<RowActionData>(
            { intent, id, result: submission.reply({ fieldErrors: { code: ["codes.errors.codeTaken"] } }) },
            { status: 400 },
          );
        }
        throw error;
      }
      return redirectWithToast(back(code.slug), { type: "success", key: "admin-catalog:codes.toast.updated" });
    }
    case "delete": {
      if (!code || !(await deleteCode(code.id))) return rowError(intent, id, "codes.errors.delete", 404);
      return redirectWithToast(back(code.slug), { type: "success", key: "admin-catalog:codes.toast.deleted" });
    }
    default:
      return rowError(intent, id, "errors.unknownIntent", 400);
  }
}

export default function AdminCodes() {
  const { platforms, selected, codes, autoCleanup, paused } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as RowActionData | undefined;
  const { t } = useTranslation("admin-catalog");
  const { t: tt } = useTranslation("trust");

  return (
    <section className={stack} aria-labelledby="codes-heading">
      <h2 id="codes-heading">{t("codes.title")}</h2>
      <PausedCodes codes={paused} errors={actionData?.intent === "restore" ? actionData : undefined} />
      <Form method="get" className={row}>
        <label htmlFor="platform-select" className={label}>
          {t("codes.platform")}
        </label>
        <select id="platform-select" name="platform" defaultValue={selected?.slug} className={input} style={{ width: "auto" }}>
          {platforms.map((p) => (
            <option key={p.id} value={p.slug}>
              {p.name}
              {p.is_active ? "" : ` (${t("common.inactive")})`}
            </option>
          ))}
        </select>
        <button type="submit" className={`${button.secondary} ${buttonSmall}`}>
          {t("codes.show")}
        </button>
      </Form>
      {actionData && !codes.some((c) => c.id === actionData.id) ? (
        <FormAlert errors={Object.values(actionData.result.error ?? {}).flatMap((e) => e ?? [])} />
      ) : null}
      {!selected ? (
        <p className={muted}>{t("codes.noPlatform")}</p>
      ) : codes.length === 0 ? (
        <p className={muted} data-testid="codes-empty">
          {t("codes.empty")}
        </p>
      ) : (
        <div className={admin.tableWrap}>
          <table className={admin.table} data-testid="codes-table">
            <caption className={muted} style={{ textAlign: "left", padding: "0.5rem 1rem" }}>
              {t("codes.caption", { name: selected.name, total: codes.length })}
            </caption>
            <thead>
              <tr>
                <th className={admin.cell} scope="col">
                  {t("codes.columns.code")}
                </th>
                <th className={admin.cell} scope="col">
                  {t("codes.columns.status")}
                </th>
                <th className={admin.cell} scope="col">
                  {t("codes.columns.expires")}
                </th>
                <th className={admin.cell} scope="col">
                  {t("codes.columns.served")}
                </th>
                <th className={admin.cell} scope="col">
                  {t("codes.columns.created")}
                </th>
                <th className={admin.cell} scope="col">
                  {t("codes.columns.actions")}
                </th>
              </tr>
            </thead>
            <tbody>
              {codes.map((c) => {
                const rowErrors = ["toggle-active", "toggle-permanent", "delete"].flatMap((i) =>
                  errorsOf(actionData, i, c.id, ""),
                );
                const expiryErrors = [
                  ...errorsOf(actionData, "set-expiry", c.id, "days"),
                  ...errorsOf(actionData, "set-expiry", c.id, ""),
                ];
                const codeErrors = errorsOf(actionData, "update", c.id, "code");
                const urlErrors = errorsOf(actionData, "update", c.id, "referral_url");
                const updateFormErrors = errorsOf(actionData, "update", c.id, "");
                const editing = codeErrors.length + urlErrors.length + updateFormErrors.length > 0;
                const href = safeHref(c.referralUrl);
                const expiryEditable = autoCleanup && !c.isPermanent && Boolean(c.expiresAt);
                return (
                  <tr key={c.id} data-testid={`code-row-${c.code}`}>
                    <td className={admin.cell}>
                      <strong>{c.code}</strong>
                      {href ? (
                        <div>
                          <a href={href} rel="noopener noreferrer nofollow" target="_blank" className={muted}>
                            {c.referralUrl}
                          </a>
                        </div>
                      ) : null}
                    </td>
                    <td className={admin.cell}>
                      <span className={badge}>{c.isActive ? t("common.active") : t("common.inactive")}</span>{" "}
                      {c.pausedReason ? (
                        <>
                          <span className={badge} data-testid="paused-reason">
                            {tt(`admin.pausedBy.${c.pausedReason}`)}
                          </span>{" "}
                        </>
                      ) : null}
                      <span className={badge}>{c.isPermanent ? t("codes.permanent") : t("codes.temporary")}</span>
                    </td>
                    <td className={admin.cell}>{c.isPermanent ? "—" : formatDate(c.expiresAt) || "—"}</td>
                    <td className={admin.cell}>{c.timesServed}</td>
                    <td className={admin.cell}>{formatDate(c.createdAt)}</td>
                    <td className={admin.cell}>
                      <div className={stack} style={{ gap: "0.5rem" }}>
                        <div className={admin.actions}>
                          <RowButton
                            intent="toggle-active"
                            id={c.id}
                            label={c.isActive ? t("codes.deactivate") : t("codes.activate")}
                            accessibleName={`${c.isActive ? t("codes.deactivate") : t("codes.activate")} ${c.code}`}
                          />
                          <RowButton
                            intent="toggle-permanent"
                            id={c.id}
                            label={c.isPermanent ? t("codes.makeTemporary") : t("codes.makePermanent")}
                            accessibleName={`${c.isPermanent ? t("codes.makeTemporary") : t("codes.makePermanent")} ${c.code}`}
                          />
                          <RowButton
                            intent="delete"
                            id={c.id}
                            tone="danger"
                            label={t("common.delete")}
                            accessibleName={`${t("common.delete")} ${c.code}`}
                          />
                        </div>
                        <FormAlert errors={rowErrors} />
                        {expiryEditable ? null : <FormAlert errors={expiryErrors} />}
                        {expiryEditable ? (
                          <Form method="post" className={admin.inlineForm} preventScrollReset>
                            <input type="hidden" name="intent" value="set-expiry" />
                            <input type="hidden" name="id" value={c.id} />
                            <label htmlFor={`days-${c.id}`}>{t("codes.days")}</label>
                            <input
                              id={`days-${c.id}`}
                              name="days"
                              inputMode="numeric"
                              className={input}
                              style={{ width: "6rem" }}
                              defaultValue={valueOf(actionData, "set-expiry", c.id, "days") ?? ""}
                              aria-invalid={expiryErrors.length > 0 || undefined}
                              aria-describedby={expiryErrors.length > 0 ? `days-${c.id}-error` : undefined}
                            />
                            <button type="submit" className={`${button.secondary} ${buttonSmall}`}>
                              {t("codes.setExpiry")}
                            </button>
                            <FieldErrors id={`days-${c.id}-error`} errors={expiryErrors} />
                          </Form>
                        ) : null}
                        <details open={editing}>
                          <summary>{t("common.edit")}</summary>
                          <Form method="post" className={stack} style={{ gap: "0.5rem", marginTop: "0.5rem" }} preventScrollReset>
                            <input type="hidden" name="intent" value="update" />
                            <input type="hidden" name="id" value={c.id} />
                            <div className={field}>
                              <label htmlFor={`code-${c.id}`} className={label}>
                                {t("codes.columns.code")}
                              </label>
                              <input
                                id={`code-${c.id}`}
                                name="code"
                                className={input}
                                required
                                defaultValue={valueOf(actionData, "update", c.id, "code") ?? c.code}
                                aria-invalid={codeErrors.length > 0 || undefined}
                                aria-describedby={codeErrors.length > 0 ? `code-${c.id}-error` : undefined}
                              />
                              <FieldErrors id={`code-${c.id}-error`} errors={codeErrors} />
                            </div>
                            <div className={field}>
                              <label htmlFor={`url-${c.id}`} className={label}>
                                {t("codes.referralUrl")}
                              </label>
                              <input
                                id={`url-${c.id}`}
                                name="referral_url"
                                type="url"
                                className={input}
                                defaultValue={valueOf(actionData, "update", c.id, "referral_url") ?? c.referralUrl ?? ""}
                                aria-invalid={urlErrors.length > 0 || undefined}
                                aria-describedby={urlErrors.length > 0 ? `url-${c.id}-error` : undefined}
                              />
                              <FieldErrors id={`url-${c.id}-error`} errors={urlErrors} />
                            </div>
                            <FormAlert errors={updateFormErrors} />
                            <div>
                              <button type="submit" className={`${button.primary} ${buttonSmall}`}>
                                {t("common.save")}
                              </button>
                            </div>
                          </Form>
                        </details>
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
