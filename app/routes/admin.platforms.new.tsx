import { parseWithZod } from "@conform-to/zod";
import { parseIntent } from "~/utils/intent.server";
import { CheckboxField, Field, SubmitButton, type FieldControl } from "~/components/forms";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { approveSuggestionAsPlatform, getSuggestion } from "~db/repositories/suggestions.server";
import { createPlatform, isSlugTaken, SlugTakenError } from "~db/repositories/platforms.server";
import { RowGoneError } from "~db/errors.server";
import { DatabaseUnavailable, retryAfterSecondsOf, runWrite } from "~db/availability.server";
import { parseHttpUrl } from "~db/platform-links";
import { GRADIENTS } from "~db/seed-data";
import * as admin from "~/features/admin/admin.css";
import { deriveUrlRules, normalizeHosts } from "~/features/admin/catalog/rules";
import {
  DEFAULT_CODE_PATTERN,
  DEFAULT_DISPLAY_ORDER,
  DEFAULT_EMOJI,
  DEFAULT_GRADIENT_ID,
  platformCreateSchema,
} from "~/features/admin/catalog/schemas";
import { deriveSlug } from "~/features/admin/catalog/slug";
import { FormAlert, useAdminMessage, type AdminFormReply } from "~/features/admin/forms";
import { readAdminForm, rejectForm } from "~/features/admin/forms.server";
import { getT } from "~/i18n/i18next.server";
import { alert, bareFieldset, input, label, row, stack } from "~/styles/ui.css";
import { requireAdmin } from "~/utils/auth.server";
import { routeMeta } from "~/utils/meta";
import { useTypedBeforeHydration } from "~/utils/typed-before-hydration";
import { parseRowId } from "~/utils/row-id";
import { redirectWithToast } from "~/utils/toast.server";
import { keepRetryAfter } from "~/utils/responses.server";
import { withDatabaseNet } from "~/utils/failures.server";

export const handle = { i18n: ["admin", "admin-catalog"] };

export const loader = withDatabaseNet(async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const t = await getT(request, "admin-catalog");
  const suggestionId = parseRowId(new URL(request.url).searchParams.get("suggestion"));
  const suggestion = suggestionId === null ? undefined : await getSuggestion(suggestionId);
  const pending = suggestion?.status === "pending" ? suggestion : undefined;
  const website = pending?.website_url ? parseHttpUrl(pending.website_url) : null;
  return {
    suggestion: pending
      ? {
          id: pending.id,
          name: pending.name,
          description: pending.description ?? "",
          hosts: website ? website.hostname.replace(/^www\./, "") : "",
        }
      : null,
    suggestionMissing: Boolean(suggestionId) && !pending,
    meta: { title: t("newPlatform.title"), description: t("newPlatform.title"), path: "/admin/platforms/new", noindex: true },
  };
});

export const meta = routeMeta;

export const headers = keepRetryAfter;

export const action = withDatabaseNet(async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  const { form } = await readAdminForm(request);
  // One intent: creating a platform.
  await parseIntent(request, form, ["create"] as const);
  const submission = parseWithZod(form, { schema: platformCreateSchema });
  const reject = (fieldErrors: Record<string, string[]>, status = 400, headers?: HeadersInit) =>
    rejectForm("create", submission.reply({ fieldErrors }), status, headers);
  if (submission.status !== "success") return rejectForm("create", submission.reply());

  const v = submission.value;
  const slug = v.slug || deriveSlug(v.name);
  if (!slug) return reject({ slug: ["errors.required"] });
  if (await isSlugTaken(slug)) return reject({ slug: ["platformForm.errors.slugTaken"] });
  const gradient = GRADIENTS.find((g) => g.id === v.gradient) ?? GRADIENTS[3];
  const template = v.referral_url_template ?? null;
  const values = {
    name: v.name,
    slug,
    description: v.description ?? "",
    code_pattern: v.code_pattern,
    emoji_icon: v.emoji || DEFAULT_EMOJI,
    gradient_from: gradient.from,
    gradient_to: gradient.to,
    display_order: v.display_order ?? DEFAULT_DISPLAY_ORDER,
    show_in_homepage: v.show_in_homepage ? 1 : 0,
    show_in_partnerships: v.show_in_partnerships ? 1 : 0,
    hosts: normalizeHosts(v.hosts),
    referral_url_template: template,
    url_rules: JSON.stringify(deriveUrlRules(template)),
  };

  try {
    const suggestionId = v.suggestion_id;
    if (suggestionId) {
      // The platform starts inactive and the suggestion is approved in the same transaction.
      await runWrite("approve-suggestion", () => approveSuggestionAsPlatform(suggestionId, values));
      return redirectWithToast("/admin/suggestions", {
        type: "success",
        key: "admin-catalog:suggestions.toast.approved",
        values: { page: `/${slug}`, drawPage: `/${slug}/get-code` },
      });
    }
    await runWrite("create-platform", () => createPlatform({ ...values, is_active: v.is_active ? 1 : 0 }));
  } catch (error) {
    if (error instanceof SlugTakenError) return reject({ slug: ["platformForm.errors.slugTaken"] });
    if (error instanceof RowGoneError) return reject({ "": ["suggestions.errors.notPending"] }, 404);
    // Any other failure: the tab's message next to the form, the input kept, nothing half-written.
    if (!(error instanceof DatabaseUnavailable)) console.error("create platform failed", error);
    return reject({ "": ["newPlatform.errors.createFailed"] }, 503, { "Retry-After": String(retryAfterSecondsOf(error)) });
  }
  return redirectWithToast("/admin/platforms", {
    type: "success",
    key: "admin-catalog:newPlatform.toast.created",
    values: { page: `/${slug}`, drawPage: `/${slug}/get-code` },
  });
});

export default function NewPlatform() {
  const { suggestion, suggestionMissing } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as AdminFormReply | undefined;
  const { t } = useTranslation("admin-catalog");
  const last = actionData?.result.initialValue ?? null;
  const errors = (name: string) => actionData?.result.error?.[name] ?? [];
  const value = (name: string) => {
    const v = last?.[name];
    return typeof v === "string" ? v : undefined;
  };
  // Checkboxes: after a rejected post, exactly what was sent; on first display, the defaults.
  const checked = (name: string, fallback: boolean) => (last ? last[name] === "on" : fallback);

  const [name, setName] = useState(value("name") ?? suggestion?.name ?? "");
  const [slug, setSlug] = useState(value("slug") ?? (suggestion ? deriveSlug(suggestion.name) : ""));
  const onNameChange = (next: string) => {
    // The slug follows the name while it is empty or still what the previous name gave.
    if (!slug || slug === deriveSlug(name)) setSlug(deriveSlug(next));
    setName(next);
  };
  // Typed before the script ran (a slow connection): kept, and the slug derived as it would have been.
  const nameField = useRef<HTMLInputElement>(null);
  const slugField = useRef<HTMLInputElement>(null);
  useTypedBeforeHydration(slugField, slug, setSlug);
  useTypedBeforeHydration(nameField, name, (typed) => {
    if (!slugField.current?.value) setSlug(deriveSlug(typed));
    setName(typed);
  });

  const anyRequired = Object.values(actionData?.result.error ?? {}).some((e) => e?.includes("errors.required"));
  const message = useAdminMessage("admin-catalog");
  const props = (fieldName: string) => ({ name: fieldName, className: input });
  const fieldBlock = (fieldName: string, text: string, control: (control: FieldControl) => React.ReactNode, help?: string) => (
    <Field id={`new-${fieldName}`} label={text} description={help} errors={errors(fieldName)} translate={message}>
      {control}
    </Field>
  );

  return (
    <section className={stack} aria-labelledby="new-platform-heading">
      <h2 id="new-platform-heading">
        {suggestion ? t("newPlatform.fromSuggestion", { name: suggestion.name }) : t("newPlatform.title")}
      </h2>
      {suggestion ? <p className={alert.info}>{t("newPlatform.suggestionNote")}</p> : null}
      {suggestionMissing ? <p className={alert.warning}>{t("suggestions.errors.notPending")}</p> : null}
      {anyRequired ? <FormAlert errors={["errors.required"]} ns="admin-catalog" testId="required-error" /> : null}
      <FormAlert errors={errors("")} ns="admin-catalog" />
      <Form method="post" className={stack}>
        <input type="hidden" name="intent" value="create" />
        {suggestion ? <input type="hidden" name="suggestion_id" value={suggestion.id} /> : null}
        <div className={admin.formGrid}>
          {fieldBlock("name", t("platformForm.name"), (control) => (
            <input
              {...control}
              {...props("name")}
              ref={nameField}
              required
              maxLength={100}
              value={name}
              onChange={(e) => onNameChange(e.target.value)}
            />
          ))}
          {fieldBlock(
            "slug",
            t("platformForm.slug"),
            (control) => (
              <input
                {...control}
                {...props("slug")}
                ref={slugField}
                maxLength={60}
                value={slug}
                onChange={(e) => setSlug(e.target.value)}
                pattern="[a-z0-9]+(-[a-z0-9]+)*"
              />
            ),
            t("platformForm.slugHint"),
          )}
          {fieldBlock(
            "code_pattern",
            t("platformForm.codePattern"),
            (control) => (
              <input
                {...control}
                {...props("code_pattern")}
                required
                maxLength={200}
                defaultValue={value("code_pattern") ?? DEFAULT_CODE_PATTERN}
              />
            ),
            t("platformForm.codePatternHint"),
          )}
          {fieldBlock(
            "emoji",
            t("platformForm.emoji"),
            (control) => (
              <input {...control} {...props("emoji")} defaultValue={value("emoji") ?? DEFAULT_EMOJI} />
            ),
            t("platformForm.emojiHint"),
          )}
          {fieldBlock("gradient", t("platformForm.gradient"), (control) => (
            <select {...control} {...props("gradient")} defaultValue={value("gradient") ?? DEFAULT_GRADIENT_ID}>
              {GRADIENTS.map((g) => (
                <option key={g.id} value={g.id}>
                  {g.label}
                </option>
              ))}
            </select>
          ))}
          {fieldBlock("display_order", t("platformForm.displayOrder"), (control) => (
            <input
              {...control}
              {...props("display_order")}
              type="number"
              min={0}
              step={1}
              inputMode="numeric"
              defaultValue={value("display_order") ?? String(DEFAULT_DISPLAY_ORDER)}
            />
          ))}
          {fieldBlock(
            "hosts",
            t("platformForm.hosts"),
            (control) => (
              <input {...control} {...props("hosts")} defaultValue={value("hosts") ?? suggestion?.hosts ?? ""} />
            ),
            t("platformForm.hostsHint"),
          )}
          {fieldBlock(
            "referral_url_template",
            t("platformForm.template"),
            (control) => (
              <input
                {...control}
                {...props("referral_url_template")}
                defaultValue={value("referral_url_template") ?? ""}
                placeholder="https://example.com/r/{code}"
              />
            ),
            t("platformForm.templateHint"),
          )}
        </div>
        {fieldBlock("description", t("platformForm.description"), (control) => (
          <textarea
            {...control}
            {...props("description")}
            rows={3}
            maxLength={1000}
            required={!suggestion}
            defaultValue={value("description") ?? suggestion?.description ?? ""}
          />
        ))}
        <fieldset className={`${row} ${bareFieldset}`}>
          <legend className={label}>{t("platformForm.flags")}</legend>
          {suggestion ? null : (
            <CheckboxField id="new-is_active" label={t("platformForm.isActive")}>
              {(control) => <input {...control} name="is_active" defaultChecked={checked("is_active", true)} />}
            </CheckboxField>
          )}
          <CheckboxField id="new-show_in_homepage" label={t("platformForm.showInHomepage")}>
            {(control) => <input {...control} name="show_in_homepage" defaultChecked={checked("show_in_homepage", true)} />}
          </CheckboxField>
          <CheckboxField id="new-show_in_partnerships" label={t("platformForm.showInPartnerships")}>
            {(control) => (
              <input {...control} name="show_in_partnerships" defaultChecked={checked("show_in_partnerships", true)} />
            )}
          </CheckboxField>
        </fieldset>
        <div>
          <SubmitButton intent="create" pendingLabel={t("newPlatform.pending")}>
            {t("newPlatform.submit")}
          </SubmitButton>
        </div>
      </Form>
    </section>
  );
}

export { GeneralErrorBoundary as ErrorBoundary } from "~/components/error-pages";
