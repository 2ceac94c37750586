import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import {
  approveDeletionRequest,
  deleteProcessedDeletionRequest,
  listDeletionRequests,
  rejectDeletionRequest,
  RowGoneError,
} from "~db/repositories/admin-catalog.server";
import * as admin from "~/features/admin/admin.css";
import { errorsOf, FormAlert, RowButton } from "~/features/admin/catalog/components";
import { readAdminForm, rowError, rowIdOf } from "~/features/admin/catalog/forms.server";
import type { RowActionData } from "~/features/admin/catalog/types";
import { getT } from "~/i18n/i18next.server";
import { badge, muted, stack } from "~/styles/ui.css";
import { requireAdmin } from "~/utils/auth.server";
import { formatDate } from "~/utils/dates";
import { routeMeta } from "~/utils/meta";
import { redirectWithToast } from "~/utils/toast.server";
import { loadOrFail } from "~/utils/failures.server";

export const handle = { i18n: ["admin", "admin-catalog"] };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const [t, requests] = await Promise.all([
    getT(request, "admin-catalog"),
    loadOrFail(request, "errors.load.requests", () => listDeletionRequests()),
  ]);
  return {
    requests,
    meta: { title: t("deletions.title"), description: t("deletions.title"), path: "/admin/deletions", noindex: true },
  };
}

export const meta = routeMeta;

const BACK = "/admin/deletions";

export async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  const { form } = await readAdminForm(request);
  const intent = String(form.get("intent") ?? "");
  const id = rowIdOf(form);
  switch (intent) {
    case "approve": {
      if (!id) return rowError(intent, id, "deletions.errors.approve", 404);
      try {
        await approveDeletionRequest(id);
      } catch (error) {
        if (error instanceof RowGoneError) return rowError(intent, id, "deletions.errors.approve", 404);
        throw error;
      }
      return redirectWithToast(BACK, { type: "success", key: "admin-catalog:deletions.toast.approved" });
    }
    case "reject": {
      if (!id || !(await rejectDeletionRequest(id))) return rowError(intent, id, "deletions.errors.reject", 404);
      return redirectWithToast(BACK, { type: "success", key: "admin-catalog:deletions.toast.rejected" });
    }
    case "delete": {
      if (!id || !(await deleteProcessedDeletionRequest(id))) return rowError(intent, id, "deletions.errors.delete", 404);
      return redirectWithToast(BACK, { type: "success", key: "admin-catalog:deletions.toast.deleted" });
    }
    default:
      return rowError(intent, id, "errors.unknownIntent", 400);
  }
}

export default function AdminDeletions() {
  const { requests } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as RowActionData | undefined;
  const { t } = useTranslation("admin-catalog");
  const orphan =
    actionData && !requests.some((r) => r.id === actionData.id)
      ? Object.values(actionData.result.error ?? {}).flatMap((e) => e ?? [])
      : [];
  return (
    <section className={stack} aria-labelledby="deletions-heading">
      <h2 id="deletions-heading">{t("deletions.title")}</h2>
      <FormAlert errors={orphan} />
      {requests.length === 0 ? (
        <p className={muted}>{t("deletions.empty")}</p>
      ) : (
        <div className={admin.tableWrap}>
          <table className={admin.table} data-testid="deletions-table">
            <thead>
              <tr>
                <th className={admin.cell} scope="col">
                  {t("deletions.columns.platform")}
                </th>
                <th className={admin.cell} scope="col">
                  {t("deletions.columns.code")}
                </th>
                <th className={admin.cell} scope="col">
                  {t("deletions.columns.reason")}
                </th>
                <th className={admin.cell} scope="col">
                  {t("deletions.columns.status")}
                </th>
                <th className={admin.cell} scope="col">
                  {t("deletions.columns.created")}
                </th>
                <th className={admin.cell} scope="col">
                  {t("deletions.columns.actions")}
                </th>
              </tr>
            </thead>
            <tbody>
              {requests.map((r) => {
                const rowErrors = ["approve", "reject", "delete"].flatMap((i) => errorsOf(actionData, i, r.id, ""));
                return (
                  <tr key={r.id} data-testid={`deletion-row-${r.code}`}>
                    <td className={admin.cell} data-label={t("deletions.columns.platform")}>
                      {r.platform_name}
                    </td>
                    <td className={admin.cell} data-label={t("deletions.columns.code")}>
                      <strong>{r.code}</strong>
                    </td>
                    <td className={admin.cell} data-label={t("deletions.columns.reason")}>
                      {r.reason || <span className={muted}>—</span>}
                    </td>
                    <td className={admin.cell} data-label={t("deletions.columns.status")}>
                      <span className={badge}>{t(`status.${r.status}`)}</span>
                      {r.resolved_at ? <div className={muted}>{formatDate(r.resolved_at)}</div> : null}
                    </td>
                    <td className={admin.cell} data-label={t("deletions.columns.created")}>
                      {formatDate(r.created_at)}
                    </td>
                    <td className={admin.cell} data-label={t("deletions.columns.actions")}>
                      <div className={admin.actions}>
                        {r.status === "pending" ? (
                          <>
                            <RowButton
                              intent="approve"
                              id={r.id}
                              tone="primary"
                              label={t("deletions.approve")}
                              accessibleName={`${t("deletions.approve")} ${r.code}`}
                            />
                            <RowButton
                              intent="reject"
                              id={r.id}
                              label={t("deletions.reject")}
                              accessibleName={`${t("deletions.reject")} ${r.code}`}
                            />
                          </>
                        ) : (
                          <RowButton
                            intent="delete"
                            id={r.id}
                            tone="danger"
                            label={t("deletions.remove")}
                            accessibleName={`${t("deletions.remove")} ${r.code}`}
                          />
                        )}
                      </div>
                      <FormAlert errors={rowErrors} />
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
