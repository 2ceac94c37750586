import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { getSuggestion, listAdminSuggestions, rejectSuggestion } from "~db/repositories/admin-catalog.server";
import { safeHref } from "~db/platform-links";
import * as admin from "~/features/admin/admin.css";
import { errorsOf, FormAlert, RowButton } from "~/features/admin/catalog/components";
import { ConfirmDialog } from "~/features/admin/confirm-dialog";
import { readAdminForm, rowError, rowIdOf } from "~/features/admin/catalog/forms.server";
import type { RowActionData } from "~/features/admin/catalog/types";
import { getT } from "~/i18n/i18next.server";
import { alert, badge, button, buttonSmall, muted, row, stack, visuallyHidden } from "~/styles/ui.css";
import { requireAdmin } from "~/utils/auth.server";
import { formatDate } from "~/utils/dates";
import { routeMeta } from "~/utils/meta";
import { useHydrated } from "~/utils/use-hydrated";
import { redirectWithToast } from "~/utils/toast.server";
import { loadOrFail } from "~/utils/failures.server";

export const handle = { i18n: ["admin", "admin-catalog"] };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const [t, suggestions] = await Promise.all([
    getT(request, "admin-catalog"),
    loadOrFail(request, "errors.load.generic", () => listAdminSuggestions()),
  ]);
  const askedReject = Number(new URL(request.url).searchParams.get("reject"));
  const confirming = suggestions.find((s) => s.id === askedReject && s.status === "pending") ?? null;
  return {
    suggestions: suggestions.map((s) => ({ ...s, website_url: safeHref(s.website_url) })),
    confirming: confirming ? { id: confirming.id, name: confirming.name } : null,
    meta: { title: t("suggestions.title"), description: t("suggestions.title"), path: "/admin/suggestions", noindex: true },
  };
}

export const meta = routeMeta;

export async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  const { form } = await readAdminForm(request);
  const intent = String(form.get("intent") ?? "");
  const id = rowIdOf(form);
  const suggestion = id ? await getSuggestion(id) : undefined;
  switch (intent) {
    case "approve": {
      // Approval goes through the create-platform form, prefilled; it finishes the approval.
      if (!suggestion || suggestion.status !== "pending") return rowError(intent, id, "suggestions.errors.notPending", 404);
      return redirect(`/admin/platforms/new?suggestion=${suggestion.id}`, 303);
    }
    case "reject": {
      if (!suggestion || suggestion.status !== "pending") return rowError(intent, id, "suggestions.errors.reject", 404);
      // Rejection is confirmed first: without the confirmation, show the confirmation step.
      if (form.get("confirm") !== "yes") return redirect(`/admin/suggestions?reject=${suggestion.id}`, 303);
      if (!(await rejectSuggestion(suggestion.id))) return rowError(intent, id, "suggestions.errors.reject", 404);
      return redirectWithToast("/admin/suggestions", { type: "success", key: "admin-catalog:suggestions.toast.rejected" });
    }
    default:
      return rowError(intent, id, "errors.unknownIntent", 400);
  }
}

export default function AdminSuggestions() {
  const { suggestions, confirming } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as RowActionData | undefined;
  const { t } = useTranslation("admin-catalog");
  const hydrated = useHydrated();
  const orphan =
    actionData && !suggestions.some((s) => s.id === actionData.id)
      ? Object.values(actionData.result.error ?? {}).flatMap((e) => e ?? [])
      : [];
  return (
    <section className={stack} aria-labelledby="suggestions-heading">
      <h2 id="suggestions-heading">{t("suggestions.title")}</h2>
      <FormAlert errors={orphan} />
      {confirming ? (
        <div
          className={`${alert.warning} ${stack}`}
          role="alertdialog"
          aria-labelledby="reject-confirm-title"
          data-testid="reject-confirm"
        >
          <p id="reject-confirm-title" style={{ margin: 0, fontWeight: 700 }}>
            {t("suggestions.confirmReject", { name: confirming.name })}
          </p>
          <div className={row}>
            <Form method="post" className={admin.inlineForm}>
              <input type="hidden" name="intent" value="reject" />
              <input type="hidden" name="id" value={confirming.id} />
              <input type="hidden" name="confirm" value="yes" />
              <button type="submit" className={`${button.danger} ${buttonSmall}`}>
                {t("suggestions.confirmRejectYes")}
              </button>
            </Form>
            <Link to="/admin/suggestions" className={`${button.secondary} ${buttonSmall}`}>
              {t("common.cancel")}
            </Link>
          </div>
        </div>
      ) : null}
      {suggestions.length === 0 ? (
        <p className={muted}>{t("suggestions.empty")}</p>
      ) : (
        <div className={admin.tableWrap}>
          <table className={admin.table} data-testid="suggestions-table">
            <thead>
              <tr>
                <th className={admin.cell} scope="col">
                  {t("suggestions.columns.name")}
                </th>
                <th className={admin.cell} scope="col">
                  {t("suggestions.columns.website")}
                </th>
                <th className={admin.cell} scope="col">
                  {t("suggestions.columns.votes")}
                </th>
                <th className={admin.cell} scope="col">
                  {t("suggestions.columns.status")}
                </th>
                <th className={admin.cell} scope="col">
                  {t("suggestions.columns.created")}
                </th>
                <th className={admin.cell} scope="col">
                  {t("suggestions.columns.actions")}
                </th>
              </tr>
            </thead>
            <tbody>
              {suggestions.map((s) => (
                <tr key={s.id} data-testid={`suggestion-row-${s.id}`}>
                  <td className={admin.cell} data-label={t("suggestions.columns.name")}>
                    <strong>{s.name}</strong>
                    {s.description ? <div className={muted}>{s.description}</div> : null}
                  </td>
                  <td className={admin.cell} data-label={t("suggestions.columns.website")}>
                    {s.website_url ? (
                      <a href={s.website_url} rel="noopener noreferrer nofollow" target="_blank">
                        {s.website_url}
                      </a>
                    ) : (
                      <span className={muted}>—</span>
                    )}
                  </td>
                  <td className={admin.cell} data-label={t("suggestions.columns.votes")}>
                    {s.votes_count}
                  </td>
                  <td className={admin.cell} data-label={t("suggestions.columns.status")}>
                    <span className={badge}>{t(`status.${s.status}`)}</span>
                  </td>
                  <td className={admin.cell} data-label={t("suggestions.columns.created")}>
                    {formatDate(s.created_at)}
                  </td>
                  <td className={admin.cell} data-label={t("suggestions.columns.actions")}>
                    {s.status === "pending" ? (
                      <div className={admin.actions}>
                        <RowButton
                          intent="approve"
                          id={s.id}
                          tone="primary"
                          label={t("suggestions.approve")}
                          accessibleName={`${t("suggestions.approve")} ${s.name}`}
                        />
                        {hydrated ? (
                          <ConfirmDialog
                            trigger={t("suggestions.reject")}
                            triggerLabel={`${t("suggestions.reject")} ${s.name}`}
                            title={t("suggestions.confirmReject", { name: s.name })}
                            cancelLabel={t("common.cancel")}
                            testId="reject-confirm"
                            confirm={(close) => (
                              <Form method="post" onSubmit={() => close()}>
                                <input type="hidden" name="intent" value="reject" />
                                <input type="hidden" name="id" value={s.id} />
                                <input type="hidden" name="confirm" value="yes" />
                                <button type="submit" className={`${button.danger} ${buttonSmall}`}>
                                  {t("suggestions.confirmRejectYes")}
                                </button>
                              </Form>
                            )}
                          />
                        ) : (
                          <Link
                            to={`/admin/suggestions?reject=${s.id}`}
                            className={`${button.secondary} ${buttonSmall}`}
                            preventScrollReset
                          >
                            {t("suggestions.reject")}
                            <span className={visuallyHidden}> {s.name}</span>
                          </Link>
                        )}
                      </div>
                    ) : null}
                    <FormAlert errors={["approve", "reject"].flatMap((i) => errorsOf(actionData, i, s.id, ""))} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
