import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { refusedForm } from "~/features/admin/forms.server";
import { runWrite } from "~db/availability.server";
import { formIdOf } from "~/features/admin/forms";
import { AdminTable, Cell } from "~/features/admin/admin-table";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import {
  approveDeletionRequest,
  deleteProcessedDeletionRequest,
  getDeletionRequest,
  listDeletionRequests,
  rejectDeletionRequest,
} from "~db/repositories/deletion-requests.server";
import { listPendingRemovalRequests, markRemovalRequestDone } from "~db/repositories/removal-requests.server";
import { RowGoneError } from "~db/errors.server";
import * as admin from "~/features/admin/admin.css";
import * as site from "~/features/admin/site/site.css";
import { RowConfirmStep, RowAction } from "~/features/admin/row-action";
import { askToConfirm, confirmationAsked, isConfirmed } from "~/utils/confirmation.server";
import { ListFilters, SelectFilter, TextFilter } from "~/features/admin/list-filters";
import { choiceOf, dayRangeOf } from "~/features/admin/list-filters.server";
import { Pager } from "~/components/pager";
import { currentListHref, loadPage } from "~/utils/paging.server";
import { listPlatformOptions } from "~db/repositories/platforms.server";
import { REQUEST_STATUSES } from "~db/schema";
import { getT } from "~/i18n/i18next.server";
import { badgeClass } from "~/styles/recipes";
import { muted, stack } from "~/styles/ui.css";
import { requireAdmin } from "~/utils/auth.server";
import { formatDate } from "~/utils/dates";
import { routeMeta } from "~/utils/meta";
import { badRequest, notFound, keepRetryAfter } from "~/utils/responses.server";
import { parseRowId } from "~/utils/row-id";
import { assertUnreachable, parseIntent } from "~/utils/intent.server";
import { redirectWithToast } from "~/utils/toast.server";
import { readFormData } from "~/utils/form-data.server";
import { loadOrFail, withDatabaseNet } from "~/utils/failures.server";

export const handle = { i18n: ["admin", "admin-catalog", "lists"] };

export const loader = withDatabaseNet(async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const [t, platforms, range] = await Promise.all([
    getT(request, "admin-catalog"),
    loadOrFail(request, "errors.load.platforms", () => listPlatformOptions()),
    dayRangeOf(request),
  ]);
  const platform = platforms.find((p) => p.slug === url.searchParams.get("platform")) ?? null;
  const status = choiceOf(url, "status", REQUEST_STATUSES);
  const { rows: requests, pager } = await loadPage(request, "errors.load.requests", (page) =>
    listDeletionRequests({ status, platformId: platform?.id ?? null, range }, page),
  );
  const removals = await loadOrFail(request, "errors.load.requests", () => listPendingRemovalRequests());
  const askedDelete = confirmationAsked(request, "delete");
  const asked = askedDelete === null ? null : await getDeletionRequest(askedDelete);
  const confirming = asked && asked.status !== "pending" ? asked : null;
  return {
    requests,
    removals,
    pager,
    platforms,
    statuses: REQUEST_STATUSES,
    filters: { status, platform: platform?.slug ?? null, date: range?.day ?? null },
    confirming: confirming ? { id: confirming.id, code: confirming.code } : null,
    back: currentListHref(url),
    meta: { title: t("deletions.title"), description: t("deletions.title"), path: "/admin/deletions", noindex: true },
  };
});

export const meta = routeMeta;

const PATH = "/admin/deletions";
const INTENTS = ["approve", "reject", "delete", "removal-done"] as const;

export const headers = keepRetryAfter;

export const action = withDatabaseNet(async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  const form = await readFormData(request);
  const intent = await parseIntent(request, form, INTENTS);
  const id = parseRowId(form.get("id"));
  if (id === null) throw await badRequest(request);
  const gone = () => notFound(request, `admin-catalog:deletions.errors.${intent}`);
  const back = currentListHref(new URL(request.url));
  if (intent === "delete" && !isConfirmed(form)) {
    // Only a processed request can leave the history: a pending or unknown one is not asked about.
    const asked = await getDeletionRequest(id);
    if (!asked || asked.status === "pending") throw await gone();
    return askToConfirm(back, "delete", id);
  }
  return runWrite(
    formIdOf(intent, id),
    async () => {
      switch (intent) {
        case "approve": {
          try {
            await approveDeletionRequest(id);
          } catch (error) {
            if (error instanceof RowGoneError) throw await gone();
            throw error;
          }
          return redirectWithToast(back, { type: "success", key: "admin-catalog:deletions.toast.approved" });
        }
        case "reject": {
          if (!(await rejectDeletionRequest(id))) throw await gone();
          return redirectWithToast(back, { type: "success", key: "admin-catalog:deletions.toast.rejected" });
        }
        case "delete": {
          if (!(await deleteProcessedDeletionRequest(id))) throw await gone();
          return redirectWithToast(back, { type: "success", key: "admin-catalog:deletions.toast.deleted" });
        }
        case "removal-done": {
          if (!(await markRemovalRequestDone(id))) throw await gone();
          return redirectWithToast(back, { type: "success", key: "admin-catalog:deletions.toast.removal-done" });
        }
        default:
          return assertUnreachable(intent);
      }
    },
    refusedForm(formIdOf(intent, id), `admin-catalog:deletions.errors.${intent}`, form),
  );
});

export default function AdminDeletions() {
  const { requests, removals, pager, platforms, statuses, filters, confirming, back } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("admin-catalog");
  const { t: tl } = useTranslation("lists");
  const removeQuestion = (code: string) => ({
    question: tl("confirm.deleteRequest", { code }),
    yes: tl("confirm.yesDelete"),
    testId: "delete-request-confirm",
  });
  return (
    <section className={stack} aria-labelledby="deletions-heading">
      <h2 id="deletions-heading">{t("deletions.title")}</h2>
      <ListFilters resetTo={PATH}>
        <SelectFilter
          name="status"
          label={tl("filters.status")}
          value={filters.status}
          options={statuses.map((s) => ({ value: s, label: tl(`filters.statuses.${s}`) }))}
        />
        <SelectFilter
          name="platform"
          label={tl("filters.platform")}
          value={filters.platform}
          options={platforms.map((p) => ({ value: p.slug, label: p.name }))}
        />
        <TextFilter name="date" type="date" label={tl("filters.date")} value={filters.date} />
      </ListFilters>
      {confirming ? (
        <RowConfirmStep intent="delete" id={confirming.id} confirm={removeQuestion(confirming.code)} cancelTo={back} />
      ) : null}
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
                  {r.resolved_at ? <div className={muted}>{formatDate(r.resolved_at, i18n.language)}</div> : null}
                </Cell>
                <Cell label={t("deletions.columns.created")}>{formatDate(r.created_at, i18n.language)}</Cell>
                <Cell label={t("deletions.columns.actions")}>
                  <div className={admin.actions}>
                    {r.status === "pending" ? (
                      <>
                        <RowAction intent="approve" id={r.id} tone="primary" label={t("deletions.approve")} subject={r.code} />
                        <RowAction intent="reject" id={r.id} label={t("deletions.reject")} subject={r.code} />
                      </>
                    ) : (
                      <RowAction
                        intent="delete"
                        id={r.id}
                        tone="danger"
                        label={t("deletions.remove")}
                        subject={r.code}
                        confirm={removeQuestion(r.code)}
                      />
                    )}
                  </div>
                </Cell>
              </tr>
            );
          })}
        </AdminTable>
      )}
      <Pager {...pager} label={tl("pager.label")} />
      <RemovalRequests removals={removals} />
    </section>
  );
}

/**
 * Visitors' requests to remove anything about them, no code needed (decision 324): the oldest
 * pending ones first, at most REMOVAL_LIST_CAP; each is marked done once acted on.
 */
function RemovalRequests({
  removals,
}: {
  removals: { rows: Array<{ id: number; details: string; created_at: string }>; pending: number };
}) {
  const { t, i18n } = useTranslation("admin-catalog");
  return (
    <section className={stack} aria-labelledby="removals-heading" data-testid="removal-requests">
      <h2 id="removals-heading">{t("deletions.removals.heading", { count: removals.pending })}</h2>
      <p className={muted}>{t("deletions.removals.intro")}</p>
      {removals.rows.length === 0 ? (
        <p className={muted}>{t("deletions.removals.empty")}</p>
      ) : (
        <AdminTable
          columns={(["details", "created", "actions"] as const).map((c) => t(`deletions.removals.columns.${c}`))}
          testId="removals-table"
        >
          {removals.rows.map((r) => (
            <tr key={r.id} data-testid="removal-row">
              <Cell label={t("deletions.removals.columns.details")} className={site.wrapText}>
                {r.details}
              </Cell>
              <Cell label={t("deletions.removals.columns.created")}>{formatDate(r.created_at, i18n.language)}</Cell>
              <Cell label={t("deletions.removals.columns.actions")}>
                <RowAction
                  intent="removal-done"
                  id={r.id}
                  label={t("deletions.removals.done")}
                  subject={formatDate(r.created_at, i18n.language)}
                />
              </Cell>
            </tr>
          ))}
        </AdminTable>
      )}
    </section>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-pages";
