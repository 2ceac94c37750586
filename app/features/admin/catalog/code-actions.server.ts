import { parseWithZod } from "@conform-to/zod";
import {
  CodeTakenError,
  deleteCode,
  setCodeActive,
  setCodeExpiry,
  setCodePermanent,
  updateCode,
} from "~db/repositories/codes.server";
import type { getCodeWithPlatform } from "~db/repositories/codes.server";
import { liftMonthlyCap, restoreReportedCode } from "~db/repositories/code-reports.server";
import { getSettings } from "~db/repositories/settings.server";
import { codeKey } from "~db/repositories/rotation.server";
import { getEnv } from "~/utils/env.server";
import { hostMatches, normalizeCodeInput, parseHosts, parseHttpUrl, swapCodeInLink } from "~db/platform-links";
import { formatDate } from "~/utils/dates";
import { assertUnreachable } from "~/utils/intent.server";
import { redirectWithToast } from "~/utils/toast.server";
import { rejectForm } from "../forms.server";
import { codeUpdateSchema, expirySchema } from "./schemas";

/**
 * The codes tab's row actions (app/routes/admin.codes.tsx): its one list of intents, what a failing
 * write says for each, and what each does once the route has found the code and the admin confirmed
 * a delete. Every branch answers a redirect with a toast, or the form's rejection next to its row.
 */

export const CODE_INTENTS = [
  "restore",
  "lift-cap",
  "toggle-active",
  "toggle-permanent",
  "set-expiry",
  "update",
  "delete",
] as const;
type CodeIntent = (typeof CODE_INTENTS)[number];

/** What a failing write says, per intent (the codes tab's update, modify and delete errors). */
export const CODE_FAILURE_KEYS: Record<CodeIntent, string> = {
  restore: "admin-catalog:codes.errors.update",
  "lift-cap": "admin-catalog:codes.errors.update",
  "toggle-active": "admin-catalog:codes.errors.update",
  "toggle-permanent": "admin-catalog:codes.errors.update",
  "set-expiry": "admin-catalog:codes.errors.update",
  update: "admin-catalog:codes.errors.modify",
  delete: "admin-catalog:codes.errors.delete",
};

type AdminCode = NonNullable<Awaited<ReturnType<typeof getCodeWithPlatform>>>;

export async function runCodeAction(
  form: FormData,
  intent: CodeIntent,
  code: AdminCode,
  formId: string,
  gone: () => Promise<Response>,
  backTo: string,
  language: string,
) {
  switch (intent) {
    case "restore": {
      // A code paused after failing answers, back into the rotation once checked.
      if (!(await restoreReportedCode(code.id))) throw await gone();
      return redirectWithToast(backTo, { type: "success", key: "trust:admin.toast.restored" });
    }
    case "lift-cap": {
      // A code on its monthly cap, back before the month is over (the admin checked it works).
      if (!(await liftMonthlyCap(code.id))) throw await gone();
      return redirectWithToast(backTo, { type: "success", key: "offer:admin.toast.capLifted" });
    }
    case "toggle-active": {
      if (!(await setCodeActive(code.id, code.is_active !== 1))) throw await gone();
      return redirectWithToast(backTo, {
        type: "success",
        key: code.is_active === 1 ? "admin-catalog:codes.toast.deactivated" : "admin-catalog:codes.toast.activated",
      });
    }
    case "toggle-permanent": {
      if (!(await setCodePermanent(code.id, code.is_permanent !== 1))) throw await gone();
      return redirectWithToast(backTo, {
        type: "success",
        key: code.is_permanent === 1 ? "admin-catalog:codes.toast.temporary" : "admin-catalog:codes.toast.permanent",
      });
    }
    case "set-expiry": {
      const submission = parseWithZod(form, { schema: expirySchema });
      if (submission.status !== "success") return rejectForm(formId, submission.reply());
      const settings = await getSettings();
      // Only a temporary code with an expiry can move, and only while auto-cleanup would remove it.
      if (code.is_permanent === 1 || !code.expires_at || settings.enable_auto_cleanup !== "true") {
        return rejectForm(formId, submission.reply({ formErrors: ["codes.errors.expiryNotEditable"] }));
      }
      const expiresAt = await setCodeExpiry(code.id, submission.value.days);
      if (!expiresAt) throw await gone();
      return redirectWithToast(backTo, {
        type: "success",
        key: "admin-catalog:codes.toast.expiry",
        values: { date: formatDate(expiresAt, language) },
      });
    }
    case "update": {
      const submission = parseWithZod(form, { schema: codeUpdateSchema });
      if (submission.status !== "success") return rejectForm(formId, submission.reply());
      const normalized = normalizeCodeInput(submission.value.code, code);
      if (!normalized.ok) {
        return rejectForm(formId, submission.reply({ fieldErrors: { code: [`link.${normalized.error}`] } }));
      }
      let referralUrl = normalized.referralUrl;
      const given = submission.value.referral_url;
      // The form shows the stored link: sent back unchanged with a new code, it is the old code's
      // link, so the platform's rule rebuilds it (as /submit does). Only a new link replaces it.
      const staleLink = normalized.code !== code.code && given === code.referral_url;
      // The stored link sent back with a renamed code: the same link with only its code swapped,
      // what follows the code kept (else the platform's link for the new code, as above).
      if (staleLink && code.referral_url) {
        referralUrl = swapCodeInLink(code.referral_url, code.code, normalized.code, code) ?? referralUrl;
      }
      if (given && !staleLink) {
        // A pasted link must be http(s) and live on one of the platform's hosts, like a submission's.
        const url = parseHttpUrl(given);
        if (!url || !hostMatches(url.hostname, parseHosts(code.hosts))) {
          return rejectForm(formId, submission.reply({ fieldErrors: { referral_url: ["codes.errors.referralUrl"] } }));
        }
        referralUrl = url.href;
      }
      try {
        const edit = {
          code: normalized.code,
          referralUrl,
          codeKey: codeKey(getEnv().SESSION_SECRET, code.platform_id, normalized.code),
        };
        if (!(await updateCode(code.id, edit))) throw await gone();
      } catch (error) {
        if (error instanceof CodeTakenError) {
          return rejectForm(formId, submission.reply({ fieldErrors: { code: ["codes.errors.codeTaken"] } }));
        }
        throw error;
      }
      return redirectWithToast(backTo, { type: "success", key: "admin-catalog:codes.toast.updated" });
    }
    case "delete": {
      if (!(await deleteCode(code.id))) throw await gone();
      return redirectWithToast(backTo, { type: "success", key: "admin-catalog:codes.toast.deleted" });
    }
    default:
      return assertUnreachable(intent);
  }
}
