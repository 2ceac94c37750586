import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { guardWrite } from "~/features/admin/forms.server";
import { formIdOf } from "~/features/admin/forms";
import { AdminTable, Cell } from "~/features/admin/admin-table";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import {
  approveDeletionRequest,
  deleteProcessedDeletionRequest,
  listDeletionRequests,
  rejectDeletionRequest,
  RowGoneError,
} from "~db/repositories/admin-catalog.server";
import * as admin from "~/features/admin/admin.css";
import { RowAction } from "~/features/admin/row-action";
import { getT } from "~/i18n/i18next.server";
import { badgeClass } from "~/styles/recipes";
import { muted, stack } from "~/styles/ui.css";
import { requireAdmin } from "~/utils/auth.server";
import { formatDate } from "~/utils/dates";
import { routeMeta } from "~/utils/meta";
import { badRequest, notFound } from "~/utils/responses.server";
import { intentOf, parseRowId } from "~/utils/row-id";
import { redirectWithToast } from "~/utils/toast.server";
import { readFormData } from "~/utils/form-data.server";
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
  const form = await readFormData(request);
  const intent = intentOf(form);
  const id = parseRowId(form.get("id"));
  if (id === null || !["approve", "reject", "delete"].includes(intent)) throw await badRequest(request);
  const gone = () => notFound(request, `admin-catalog:deletions.errors.${intent}`);
  return guardWrite(formIdOf(intent, id), `admin-catalog:deletions.errors.${intent}`, async () => {
    switch (intent) {
      case "approve": {
        try {
          await approveDeletionRequest(id);
        } catch (error) {
          if (error instanceof RowGoneError) throw await gone();
          throw error;
        }
        return redirectWithToast(BACK, { type: "success", key: "admin-catalog:deletions.toast.approved" });
      }
      case "reject": {
        if (!(await rejectDeletionRequest(id))) throw await gone();
        return redirectWithToast(BACK, { type: "success", key: "admin-catalog:deletions.toast.rejected" });
      }
      default: {
        if (!(await deleteProcessedDeletionRequest(id))) throw await gone();
        return redirectWithToast(BACK, { type: "success", key: "admin-catalog:deletions.toast.deleted" });
      }
    }
  });
}

export default function AdminDeletions() {
  const { requests } = useLoaderData<typeof loader>();
  const { t } = useTranslation("admin-catalog");
  return (
    <section className={stack} aria-labelledby="deletions-heading">
      <h2 id="deletions-heading">{t("deletions.title")}</h2>
      {requests.length === 0 ? (
        <p className={muted}>{t("deletions.empty")}</p>
      ) : (
        <AdminTable
          columns={(["platform", "code", "reason", "status", "created", "actions"] as const).map((c) =>
            t(`deletions.columns.${c}`),
          )}
          testId="deletions-table"
        >
          {requests.map((r) => {
            return (
              <tr key={r.id} data-testid={`deletion-row-${r.code}`}>
                <Cell label={t("deletions.columns.platform")}>{r.platform_name}</Cell>
                <Cell label={t("deletions.columns.code")}>
                  <strong>{r.code}</strong>
                </Cell>
                <Cell label={t("deletions.columns.reason")}>{r.reason || <span className={muted}>—</span>}</Cell>
                <Cell label={t("deletions.columns.status")}>
                  <span className={badgeClass()}>{t(`status.${r.status}`)}</span>
                  {r.resolved_at ? <div className={muted}>{formatDate(r.resolved_at)}</div> : null}
                </Cell>
                <Cell label={t("deletions.columns.created")}>{formatDate(r.created_at)}</Cell>
                <Cell label={t("deletions.columns.actions")}>
                  <div className={admin.actions}>
                    {r.status === "pending" ? (
                      <>
                        <RowAction intent="approve" id={r.id} tone="primary" label={t("deletions.approve")} subject={r.code} />
                        <RowAction intent="reject" id={r.id} label={t("deletions.reject")} subject={r.code} />
                      </>
                    ) : (
                      <RowAction intent="delete" id={r.id} tone="danger" label={t("deletions.remove")} subject={r.code} />
                    )}
                  </div>
                </Cell>
              </tr>
            );
          })}
        </AdminTable>
      )}
    </section>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-boundary";
