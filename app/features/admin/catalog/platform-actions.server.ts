import { parseWithZod } from "@conform-to/zod";
import {
  getPlatformById,
  setPlatformLogo,
  startPlatformDeletion,
  SlugTakenError,
  togglePlatformActive,
  updatePlatform,
} from "~db/repositories/platforms.server";
import { runWrite } from "~db/availability.server";
import { saveOfferForm } from "./offer-actions.server";
import { assertUnreachable, parseIntent } from "~/utils/intent.server";
import { redirectWithToast } from "~/utils/toast.server";
import { requireAdmin } from "~/utils/auth.server";
import { askToConfirm, isConfirmed } from "~/utils/confirmation.server";
import { currentListHref } from "~/utils/paging.server";
import { badRequest, notFound } from "~/utils/responses.server";
import { parseRowId } from "~/utils/row-id";
import { formIdOf } from "../forms";
import { readAdminForm, refusedForm, rejectForm, rejectWith } from "../forms.server";
import { detectImageKind, MAX_LOGO_BYTES, removeStoredLogo, storeLogo } from "./logo.server";
import { getEnv } from "~/utils/env.server";
import { continuePlatformDeletions } from "./platform-deletions.server";
import { deriveUrlRules, normalizeHosts } from "./rules";
import { logoVariantSchema, platformUpdateSchema } from "./schemas";

/**
 * The platforms tab's row actions: its one list of intents, what a failing write says for each, and
 * what each does once the platform is found and the admin confirmed a delete. One action serves the
 * list (app/routes/admin.platforms._index.tsx) and each platform's editor page
 * (app/routes/admin.platforms.$id.tsx): both take every intent.
 */
const PLATFORM_INTENTS = ["toggle-active", "update", "update-offer", "upload-logo", "remove-logo", "delete"] as const;
type PlatformIntent = (typeof PLATFORM_INTENTS)[number];

/** What a failing write says, per intent (the platforms tab's status, update, logo and delete errors). */
const PLATFORM_FAILURE_KEYS: Record<PlatformIntent, string> = {
  "toggle-active": "admin-catalog:platforms.errors.status",
  update: "admin-catalog:platforms.errors.update",
  "upload-logo": "admin-catalog:platforms.errors.logoUpload",
  "remove-logo": "admin-catalog:platforms.errors.logoRemove",
  delete: "admin-catalog:platforms.errors.delete",
  "update-offer": "offer:admin.errors.save",
};

type AdminPlatform = NonNullable<Awaited<ReturnType<typeof getPlatformById>>>;

/** Where the list is: a deletion asked or done on a platform's editor page ends there. */
const PLATFORMS_LIST = "/admin/platforms";

/**
 * The action of the platforms tab and of a platform's editor page (`editorId`, the id in its URL:
 * that page edits its own platform only). Success redirects to the page it was posted on (list
 * filters and page kept), except a deletion from the editor page, which goes back to the list.
 */
export async function platformTabAction(request: Request, editorId: number | null = null) {
  // The body is read only once the admin is known: a stranger's upload is never parsed.
  await requireAdmin(request);
  const { form, tooLarge } = await readAdminForm(request);
  if (tooLarge) return rejectWith("upload-logo", "platforms.errors.logoTooLarge", { field: "file", status: 413 });
  const intent = await parseIntent(request, form, PLATFORM_INTENTS);
  const id = parseRowId(form.get("id"));
  if (id === null || (editorId !== null && id !== editorId)) throw await badRequest(request);
  const platform = await getPlatformById(id);
  // A platform being deleted is gone for every edit; deleting it again joins its deletion.
  if (!platform || (platform.deleting_since !== null && intent !== "delete"))
    throw await notFound(request, "admin-catalog:errors.notFound");
  const formId = formIdOf(intent, id);
  const gone = () => notFound(request, "admin-catalog:errors.notFound");
  const back = editorId !== null && intent === "delete" ? PLATFORMS_LIST : currentListHref(new URL(request.url));
  if (intent === "delete" && !isConfirmed(form)) return askToConfirm(back, "delete", platform.id);

  return runWrite(
    formId,
    () => runPlatformAction(form, intent, platform, formId, gone, back),
    refusedForm(formId, PLATFORM_FAILURE_KEYS[intent], form),
  );
}

async function runPlatformAction(
  form: FormData,
  intent: PlatformIntent,
  platform: AdminPlatform,
  formId: string,
  gone: () => Promise<Response>,
  back: string,
) {
  switch (intent) {
    case "toggle-active": {
      const result = await togglePlatformActive(platform.id);
      if (!result) throw await gone();
      return redirectWithToast(back, {
        type: "success",
        key: result.isActive ? "admin-catalog:platforms.toast.activated" : "admin-catalog:platforms.toast.deactivated",
        values: { name: platform.name },
      });
    }
    case "update": {
      const submission = parseWithZod(form, { schema: platformUpdateSchema });
      if (submission.status !== "success") return rejectForm(formId, submission.reply());
      const v = submission.value;
      const template = v.referral_url_template ?? null;
      try {
        await updatePlatform(platform.id, {
          name: v.name,
          slug: v.slug,
          code_pattern: v.code_pattern,
          description: v.description ?? "",
          hosts: normalizeHosts(v.hosts),
          referral_url_template: template,
          // Rules follow the template only when it changed: hand-written seed rules stay.
          ...(template !== platform.referral_url_template ? { url_rules: JSON.stringify(deriveUrlRules(template)) } : {}),
        });
      } catch (error) {
        if (error instanceof SlugTakenError) {
          return rejectForm(formId, submission.reply({ fieldErrors: { slug: ["platformForm.errors.slugTaken"] } }));
        }
        throw error;
      }
      return redirectWithToast(back, {
        type: "success",
        key: "admin-catalog:platforms.toast.updated",
        values: { name: v.name },
      });
    }
    case "update-offer":
      return saveOfferForm(formId, platform, form, back);
    case "upload-logo": {
      const variant = logoVariantSchema.safeParse(form.get("variant"));
      if (!variant.success) return rejectWith(formId, "platforms.errors.variant", { field: "variant" });
      const which = { variant: variant.data };
      const file = form.get("file");
      if (!(file instanceof Blob) || file.size === 0)
        return rejectWith(formId, "platforms.errors.logoMissing", { field: "file", initialValue: which });
      if (file.size > MAX_LOGO_BYTES)
        return rejectWith(formId, "platforms.errors.logoTooLarge", { field: "file", status: 413, initialValue: which });
      const bytes = new Uint8Array(await file.arrayBuffer());
      const kind = detectImageKind(bytes);
      if (!kind) return rejectWith(formId, "platforms.errors.logoType", { field: "file", initialValue: which });
      const url = await storeLogo(platform.slug, variant.data, kind, bytes);
      const saved = await setPlatformLogo(platform.id, variant.data, url);
      if (!saved) {
        await removeStoredLogo(url);
        throw await gone();
      }
      await removeStoredLogo(saved.previous);
      return redirectWithToast(back, {
        type: "success",
        key: "admin-catalog:platforms.toast.logoUploaded",
        values: { name: platform.name },
      });
    }
    case "remove-logo": {
      const variant = logoVariantSchema.safeParse(form.get("variant"));
      if (!variant.success) return rejectWith(formId, "platforms.errors.variant");
      const saved = await setPlatformLogo(platform.id, variant.data, null);
      if (!saved) throw await gone();
      await removeStoredLogo(saved.previous);
      return redirectWithToast(back, {
        type: "success",
        key: "admin-catalog:platforms.toast.logoRemoved",
        values: { name: platform.name },
      });
    }
    case "delete": {
      // Gone for visitors at once; its rows go in the background, waited for a short while only
      // (decision 292). A delete of a platform already being deleted joins that deletion.
      if (!(await startPlatformDeletion(platform.id, new Date()))) throw await gone();
      const job = continuePlatformDeletions();
      const wait = new Promise<"waiting">((resolve) => setTimeout(resolve, getEnv().PLATFORM_DELETE_WAIT_MS, "waiting").unref());
      const outcome = await Promise.race([job, wait]);
      if (outcome !== "waiting" && outcome.error) throw outcome.error;
      return redirectWithToast(back, {
        type: outcome === "waiting" ? "info" : "success",
        key: outcome === "waiting" ? "admin-catalog:platforms.toast.deleting" : "admin-catalog:platforms.toast.deleted",
        values: { name: platform.name },
      });
    }
    default:
      return assertUnreachable(intent);
  }
}
