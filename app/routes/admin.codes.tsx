import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { AdminTable, Cell } from "~/features/admin/admin-table";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import type { TFunction } from "i18next";
import { CODE_STATES, getCodeWithPlatform, listAdminCodes } from "~db/repositories/codes.server";
import { listPlatformOptions } from "~db/repositories/platforms.server";
import { runWrite } from "~db/availability.server";
import { failureReasonsOf, listCappedCodes } from "~db/repositories/answer-freshness.server";
import { ANSWER_STATS, listCodesPausedByReports, listFailingNetworks, NETWORK_ALERT } from "~db/repositories/code-reports.server";
import { CappedCodes } from "~/features/admin/catalog/capped-codes";
import { getSettings } from "~db/repositories/settings.server";
import { safeHref } from "~db/platform-links";
import * as admin from "~/features/admin/admin.css";
import { CODE_FAILURE_KEYS, CODE_INTENTS, runCodeAction } from "~/features/admin/catalog/code-actions.server";
import { codeUpdateSchema, expirySchema } from "~/features/admin/catalog/schemas";
import { Field, SubmitButton } from "~/components/forms";
import { FormAlert, formIdOf, InputField, lastResultFor, useAdminMessage, type AdminFormReply } from "~/features/admin/forms";
import { readAdminForm, refusedForm } from "~/features/admin/forms.server";
import { FailingNetworks, PausedCodes } from "~/features/trust/paused-codes";
import { RowConfirmStep, RowAction } from "~/features/admin/row-action";
import { askToConfirm, confirmationAsked, isConfirmed } from "~/utils/confirmation.server";
import { ListFilters, SelectFilter, TextFilter } from "~/features/admin/list-filters";
import { choiceOf } from "~/features/admin/list-filters.server";
import { Pager } from "~/components/pager";
import { currentListHref, loadPage } from "~/utils/paging.server";
import { getLanguage, getT } from "~/i18n/i18next.server";
import { badgeClass } from "~/styles/recipes";
import { input, muted, stack } from "~/styles/ui.css";
import { requireAdmin } from "~/utils/auth.server";
import { formatDate } from "~/utils/dates";
import { routeMeta } from "~/utils/meta";
import { badRequest, notFound, keepRetryAfter } from "~/utils/responses.server";
import { parseRowId } from "~/utils/row-id";
import { parseIntent } from "~/utils/intent.server";
import { loadOrFail, withDatabaseNet } from "~/utils/failures.server";

export const handle = { i18n: ["admin", "admin-catalog", "trust", "offer", "lists"] };

export const loader = withDatabaseNet(async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const now = new Date();
  const [t, platforms, settings, paused, capped, failingNetworks] = await Promise.all([
    getT(request, "admin-catalog"),
    loadOrFail(request, "errors.load.platforms", () => listPlatformOptions()),
    getSettings(),
    listCodesPausedByReports(),
    listCappedCodes(now),
    listFailingNetworks(now),
  ]);
  const since = new Date(now.getTime() - ANSWER_STATS.days * 24 * 60 * 60 * 1000).toISOString();
  const cappedReasons = await failureReasonsOf(
    capped.map((c) => c.id),
    since,
  );
  const asked = url.searchParams.get("platform");
  const selected = platforms.find((p) => p.slug === asked) ?? platforms[0] ?? null;
  const filters = { search: url.searchParams.get("q")?.trim().slice(0, 100) || null, state: choiceOf(url, "state", CODE_STATES) };
  const { rows: codes, pager } = selected
    ? await loadPage(request, "errors.load.generic", (page) => listAdminCodes(selected.id, filters, page))
    : { rows: [], pager: null };
  const askedDelete = confirmationAsked(request, "delete");
  const confirming = askedDelete === null ? null : await getCodeWithPlatform(askedDelete);
  return {
    platforms,
    selected,
    filters,
    states: CODE_STATES,
    pager,
    resetTo: selected ? back(selected.slug) : "/admin/codes",
    confirming: confirming ? { id: confirming.id, code: confirming.code } : null,
    back: currentListHref(url),
    autoCleanup: settings.enable_auto_cleanup === "true",
    failingNetworks: { days: NETWORK_ALERT.days, list: failingNetworks.map((n) => ({ ...n, network: n.network.slice(0, 6) })) },
    paused: paused.map((c) => ({
      id: c.id,
      code: c.code,
      platformName: c.platform_name,
      platformSlug: c.platform_slug,
      pausedAt: c.paused_at,
      timesServed: c.times_served,
      reports: c.reports.map((r) => ({
        id: r.id,
        outcome: r.outcome,
        reason: r.reason,
        createdAt: r.created_at,
        address: r.ip_hash.slice(0, 6),
      })),
    })),
    capped: capped.map((c) => ({
      id: c.id,
      code: c.code,
      platformName: c.platform_name,
      platformSlug: c.platform_slug,
      cappedUntil: c.capped_until!,
      reasons: cappedReasons.get(c.id) ?? {},
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
});

export const meta = routeMeta;

const back = (slug: string) => `/admin/codes?platform=${encodeURIComponent(slug)}`;

export const headers = keepRetryAfter;

export const action = withDatabaseNet(async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  const { form } = await readAdminForm(request);
  const intent = await parseIntent(request, form, CODE_INTENTS);
  const id = parseRowId(form.get("id"));
  if (id === null) throw await badRequest(request);
  const code = await getCodeWithPlatform(id);
  if (!code) throw await notFound(request, "admin-catalog:errors.notFound");
  const formId = formIdOf(intent, id);
  const gone = async () => notFound(request, "admin-catalog:errors.notFound");
  // Back to the page the admin was on (filters and page kept), or to the code's platform.
  const url = new URL(request.url);
  const backTo = url.searchParams.get("platform") === code.slug ? currentListHref(url) : back(code.slug);
  if (intent === "delete" && !isConfirmed(form)) return askToConfirm(backTo, "delete", code.id);
  const language = await getLanguage(request);
  return runWrite(
    formId,
    () => runCodeAction(form, intent, code, formId, gone, backTo, language),
    refusedForm(formId, CODE_FAILURE_KEYS[intent], form),
  );
});

const deleteCodeQuestion = (tl: TFunction, code: string) => ({
  question: tl("confirm.deleteCode", { code }),
  yes: tl("confirm.yesDelete"),
  testId: "delete-code-confirm",
});

type CodeRowData = ReturnType<typeof useLoaderData<typeof loader>>["codes"][number];

export default function AdminCodes() {
  const {
    platforms,
    selected,
    codes,
    autoCleanup,
    paused,
    failingNetworks,
    capped,
    filters,
    states,
    pager,
    resetTo,
    confirming,
    back,
  } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as AdminFormReply | undefined;
  const { t } = useTranslation("admin-catalog");
  const { t: tl } = useTranslation("lists");

  return (
    <section className={stack} aria-labelledby="codes-heading">
      <h2 id="codes-heading">{t("codes.title")}</h2>
      <FailingNetworks networks={failingNetworks.list} days={failingNetworks.days} />
      <PausedCodes codes={paused} />
      <CappedCodes codes={capped} />
      <ListFilters resetTo={resetTo} submitLabel={t("codes.show")}>
        <SelectFilter
          name="platform"
          label={t("codes.platform")}
          value={selected?.slug ?? null}
          all={false}
          options={platforms.map((p) => ({
            value: p.slug,
            label: p.is_active ? p.name : `${p.name} (${t("common.inactive")})`,
          }))}
        />
        <TextFilter name="q" type="search" label={tl("filters.search")} value={filters.search} />
        <SelectFilter
          name="state"
          label={tl("filters.state")}
          value={filters.state}
          options={states.map((s) => ({ value: s, label: tl(`filters.states.${s}`) }))}
        />
      </ListFilters>
      {confirming ? (
        <RowConfirmStep intent="delete" id={confirming.id} confirm={deleteCodeQuestion(tl, confirming.code)} cancelTo={back} />
      ) : null}
      {!selected ? (
        <p className={muted}>{t("codes.noPlatform")}</p>
      ) : codes.length === 0 ? (
        <p className={muted} data-testid="codes-empty">
          {t("codes.empty")}
        </p>
      ) : (
        <AdminTable
          columns={(["code", "status", "expires", "served", "created", "actions"] as const).map((c) => t(`codes.columns.${c}`))}
          testId="codes-table"
          caption={{
            text: t("codes.caption", { name: selected.name, total: pager?.total.count ?? codes.length }),
            className: `${muted} ${admin.caption}`,
          }}
        >
          {codes.map((c) => (
            <CodeRow key={`${c.id}:${c.code}:${c.referralUrl}`} code={c} reply={reply} autoCleanup={autoCleanup} />
          ))}
        </AdminTable>
      )}
      {pager ? <Pager {...pager} label={tl("pager.label")} /> : null}
    </section>
  );
}

function CodeRow({ code: c, reply, autoCleanup }: { code: CodeRowData; reply?: AdminFormReply; autoCleanup: boolean }) {
  const { t, i18n } = useTranslation("admin-catalog");
  const { t: tl } = useTranslation("lists");
  const { t: tt } = useTranslation("trust");
  const expiryId = formIdOf("set-expiry", c.id);
  const updateId = formIdOf("update", c.id);
  const [expiryForm, expiryFields] = useForm({
    id: expiryId,
    lastResult: lastResultFor(reply, expiryId),
    constraint: getZodConstraint(expirySchema),
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: expirySchema }),
  });
  const [updateForm, updateFields] = useForm({
    id: updateId,
    lastResult: lastResultFor(reply, updateId),
    constraint: getZodConstraint(codeUpdateSchema),
    defaultValue: { code: c.code, referral_url: c.referralUrl ?? "" },
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: codeUpdateSchema }),
  });
  const message = useAdminMessage("admin-catalog");
  const href = safeHref(c.referralUrl);
  const expiryEditable = autoCleanup && !c.isPermanent && Boolean(c.expiresAt);
  const editing = reply?.formId === updateId;
  const activeLabel = c.isActive ? t("codes.deactivate") : t("codes.activate");
  const permanentLabel = c.isPermanent ? t("codes.makeTemporary") : t("codes.makePermanent");
  return (
    <tr data-testid={`code-row-${c.code}`}>
      <Cell label={t("codes.columns.code")}>
        <strong>{c.code}</strong>
        {href ? (
          <div>
            <a href={href} rel="noopener noreferrer nofollow" target="_blank" className={muted}>
              {c.referralUrl}
            </a>
          </div>
        ) : null}
      </Cell>
      <Cell label={t("codes.columns.status")}>
        <span className={badgeClass()}>{c.isActive ? t("common.active") : t("common.inactive")}</span>{" "}
        {c.pausedReason ? (
          <>
            <span className={badgeClass()} data-testid="paused-reason">
              {tt(`admin.pausedBy.${c.pausedReason}`)}
            </span>{" "}
          </>
        ) : null}
        <span className={badgeClass()}>{c.isPermanent ? t("codes.permanent") : t("codes.temporary")}</span>
      </Cell>
      <Cell label={t("codes.columns.expires")} className={admin.dateCell}>
        {c.isPermanent ? "—" : formatDate(c.expiresAt, i18n.language) || "—"}
      </Cell>
      <Cell label={t("codes.columns.served")}>{c.timesServed}</Cell>
      <Cell label={t("codes.columns.created")} className={admin.dateCell}>
        {formatDate(c.createdAt, i18n.language)}
      </Cell>
      <Cell label={t("codes.columns.actions")}>
        <div className={`${stack} ${admin.tightStack}`}>
          <div className={admin.actions}>
            <RowAction intent="toggle-active" id={c.id} label={activeLabel} subject={c.code} />
            <RowAction intent="toggle-permanent" id={c.id} label={permanentLabel} subject={c.code} />
            <RowAction
              intent="delete"
              id={c.id}
              tone="danger"
              label={t("common.delete")}
              subject={c.code}
              confirm={deleteCodeQuestion(tl, c.code)}
            />
          </div>
          {expiryEditable ? (
            <Form method="post" {...getFormProps(expiryForm)} className={admin.inlineForm} preventScrollReset>
              <input type="hidden" name="intent" value="set-expiry" />
              <input type="hidden" name="id" value={c.id} />
              <Field
                id={expiryFields.days.id}
                label={t("codes.days")}
                errors={expiryFields.days.errors?.slice(0, 1)}
                translate={message}
              >
                {(control) => (
                  <input
                    {...getInputProps(expiryFields.days, { type: "text" })}
                    {...control}
                    inputMode="numeric"
                    className={`${input} ${admin.daysInput}`}
                  />
                )}
              </Field>
              <SubmitButton intent="set-expiry" id={c.id} tone="secondary" size="small">
                {t("codes.setExpiry")}
              </SubmitButton>
              <FormAlert errors={expiryForm.errors} ns="admin-catalog" />
            </Form>
          ) : (
            <FormAlert errors={lastResultFor(reply, expiryId)?.error?.[""] ?? undefined} ns="admin-catalog" />
          )}
          <details open={editing}>
            <summary>{t("common.edit")}</summary>
            <Form method="post" {...getFormProps(updateForm)} className={`${stack} ${admin.editForm}`} preventScrollReset>
              <input type="hidden" name="intent" value="update" />
              <input type="hidden" name="id" value={c.id} />
              <InputField meta={updateFields.code} type="text" label={t("codes.columns.code")} ns="admin-catalog" />
              <InputField meta={updateFields.referral_url} type="url" label={t("codes.referralUrl")} ns="admin-catalog" />
              <FormAlert errors={updateForm.errors} ns="admin-catalog" />
              <div>
                <SubmitButton intent="update" id={c.id} size="small">
                  {t("common.save")}
                </SubmitButton>
              </div>
            </Form>
          </details>
        </div>
      </Cell>
    </tr>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-pages";
