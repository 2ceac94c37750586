import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { refusedForm } from "~/features/admin/forms.server";
import { runWrite } from "~db/availability.server";
import { formIdOf } from "~/features/admin/forms";
import { AdminTable, Cell } from "~/features/admin/admin-table";
import { redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { getSuggestion, listAdminSuggestions, rejectSuggestion } from "~db/repositories/suggestions.server";
import { safeHref } from "~db/platform-links";
import * as admin from "~/features/admin/admin.css";
import { askToConfirm, confirmationAsked, isConfirmed } from "~/utils/confirmation.server";
import { RowConfirmStep, RowAction } from "~/features/admin/row-action";
import { ListFilters, SelectFilter } from "~/features/admin/list-filters";
import { choiceOf } from "~/features/admin/list-filters.server";
import { Pager } from "~/components/pager";
import { currentListHref, loadPage } from "~/utils/paging.server";
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
import { withDatabaseNet } from "~/utils/failures.server";

const PATH = "/admin/suggestions";

export const handle = { i18n: ["admin", "admin-catalog", "lists"] };

export const loader = withDatabaseNet(async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const status = choiceOf(url, "status", REQUEST_STATUSES);
  const [t, { rows: suggestions, pager }] = await Promise.all([
    getT(request, "admin-catalog"),
    loadPage(request, "errors.load.generic", (page) => listAdminSuggestions(status, page)),
  ]);
  const askedReject = confirmationAsked(request, "reject");
  const asked = askedReject === null ? null : await getSuggestion(askedReject);
  const confirming = asked?.status === "pending" ? asked : null;
  return {
    suggestions: suggestions.map((s) => ({
      id: s.id,
      name: s.name,
      description: s.description,
      status: s.status,
      votes_count: s.votes_count,
      created_at: s.created_at,
      website_url: safeHref(s.website_url),
    })),
    pager,
    status,
    statuses: REQUEST_STATUSES,
    back: currentListHref(url),
    confirming: confirming ? { id: confirming.id, name: confirming.name } : null,
    meta: { title: t("suggestions.title"), description: t("suggestions.title"), path: PATH, noindex: true },
  };
});

export const meta = routeMeta;

export const headers = keepRetryAfter;

export const action = withDatabaseNet(async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  const form = await readFormData(request);
  const intent = await parseIntent(request, form, ["approve", "reject"] as const);
  const id = parseRowId(form.get("id"));
  if (id === null) throw await badRequest(request);
  const suggestion = await getSuggestion(id);
  switch (intent) {
    case "approve":
      // Approval goes through the create-platform form, prefilled; it finishes the approval.
      if (suggestion?.status !== "pending") throw await notFound(request, "admin-catalog:suggestions.errors.notPending");
      return redirect(`/admin/platforms/new?suggestion=${suggestion.id}`, 303);
    case "reject": {
      if (suggestion?.status !== "pending") throw await notFound(request, "admin-catalog:suggestions.errors.reject");
      const back = currentListHref(new URL(request.url));
      if (!isConfirmed(form)) return askToConfirm(back, "reject", suggestion.id);
      return runWrite(
        formIdOf("reject", suggestion.id),
        async () => {
          if (!(await rejectSuggestion(suggestion.id))) throw await notFound(request, "admin-catalog:suggestions.errors.reject");
          return redirectWithToast(back, { type: "success", key: "admin-catalog:suggestions.toast.rejected" });
        },
        refusedForm(formIdOf("reject", suggestion.id), "admin-catalog:suggestions.errors.reject", form),
      );
    }
    default:
      return assertUnreachable(intent);
  }
});

export default function AdminSuggestions() {
  const { suggestions, confirming, pager, status, statuses, back } = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("admin-catalog");
  const { t: tl } = useTranslation("lists");
  const rejectQuestion = (name: string) => ({
    question: t("suggestions.confirmReject", { name }),
    yes: t("suggestions.confirmRejectYes"),
    testId: "reject-confirm",
  });
  return (
    <section className={stack} aria-labelledby="suggestions-heading">
      <h2 id="suggestions-heading">{t("suggestions.title")}</h2>
      <ListFilters resetTo={PATH}>
        <SelectFilter
          name="status"
          label={tl("filters.status")}
          value={status}
          options={statuses.map((s) => ({ value: s, label: tl(`filters.statuses.${s}`) }))}
        />
      </ListFilters>
      {confirming ? (
        <RowConfirmStep intent="reject" id={confirming.id} confirm={rejectQuestion(confirming.name)} cancelTo={back} />
      ) : null}
      {suggestions.length === 0 ? (
        <p className={muted}>{t("suggestions.empty")}</p>
      ) : (
        <AdminTable
          columns={(["name", "website", "votes", "status", "created", "actions"] as const).map((c) =>
            t(`suggestions.columns.${c}`),
          )}
          testId="suggestions-table"
        >
          {suggestions.map((s) => (
            <tr key={s.id} data-testid={`suggestion-row-${s.id}`}>
              <Cell label={t("suggestions.columns.name")}>
                <strong>{s.name}</strong>
                {s.description ? <div className={muted}>{s.description}</div> : null}
              </Cell>
              <Cell label={t("suggestions.columns.website")}>
                {s.website_url ? (
                  <a href={s.website_url} rel="noopener noreferrer nofollow" target="_blank">
                    {s.website_url}
                  </a>
                ) : (
                  <span className={muted}>—</span>
                )}
              </Cell>
              <Cell label={t("suggestions.columns.votes")}>{s.votes_count}</Cell>
              <Cell label={t("suggestions.columns.status")}>
                <span className={badgeClass()}>{t(`status.${s.status}`)}</span>
              </Cell>
              <Cell label={t("suggestions.columns.created")}>{formatDate(s.created_at, i18n.language)}</Cell>
              <Cell label={t("suggestions.columns.actions")}>
                {s.status === "pending" ? (
                  <div className={admin.actions}>
                    <RowAction intent="approve" id={s.id} tone="primary" label={t("suggestions.approve")} subject={s.name} />
                    <RowAction
                      intent="reject"
                      id={s.id}
                      label={t("suggestions.reject")}
                      subject={s.name}
                      confirm={rejectQuestion(s.name)}
                    />
                  </div>
                ) : null}
              </Cell>
            </tr>
          ))}
        </AdminTable>
      )}
      <Pager {...pager} label={tl("pager.label")} />
    </section>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-pages";
