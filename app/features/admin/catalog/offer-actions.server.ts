import { parseWithZod } from "@conform-to/zod";
import { savePlatformOffer } from "~db/repositories/platform-offers.server";
import { rejectForm } from "../forms.server";
import { redirectWithToast } from "~/utils/toast.server";
import { offerSchema } from "~/features/offer/offer-schema";

/** `intent=update-offer` on the admin's platforms tab: writes the whole offer, or answers 400 next to the form. */
export async function saveOfferForm(formId: string, platform: { id: number; name: string }, form: FormData, back: string) {
  const submission = parseWithZod(form, { schema: offerSchema });
  if (submission.status !== "success") return rejectForm(formId, submission.reply());
  const { intent: _intent, ...offer } = submission.value;
  await savePlatformOffer(platform.id, offer);
  return redirectWithToast(back, { type: "success", key: "offer:admin.toast.saved", values: { name: platform.name } });
}
