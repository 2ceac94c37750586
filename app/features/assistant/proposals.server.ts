import { z } from "zod/v4";
import { codeForProposal, deletionRequestForProposal, suggestionForProposal } from "~db/repositories/assistant-queries.server";
import { settingSchema } from "~/features/admin/site/schemas";
import { ToolInputError } from "./tool-inputs.server";
import { PROPOSAL_ACTIONS, type ProposalAction } from "./types";

/**
 * The assistant's one tool that leads to a change: it proposes an admin action, checked against the
 * live data; the admin is shown the ordinary admin form, filled in, and decides.
 */

/**
 * The only settings a card may change: the rest (tags, ads, captcha, the price tracker, the
 * assistant's own budget, the expired codes' clean-up, and any setting added later) are refused
 * here and in the transcript, whatever the model asks (decision 327).
 */
const PROPOSABLE_SETTINGS = ["enable_theme_toggle", "default_ai_provider"] as const;
type ProposableSetting = (typeof PROPOSABLE_SETTINGS)[number];

export function isProposableSetting(key: string | undefined): key is ProposableSetting {
  return (PROPOSABLE_SETTINGS as readonly string[]).includes(key ?? "");
}

/** Actions that remove, pause or refuse something: their card asks a second time before posting. */
export function isDestructive(action: ProposalAction): boolean {
  return action !== "change_setting";
}

export const proposeActionSchema = z.object({
  action: z.enum(PROPOSAL_ACTIONS).describe("The admin action to propose."),
  id: z
    .number()
    .int()
    .positive()
    .optional()
    .describe("The row's id: the code for deactivate_code, the deletion request, or the suggestion."),
  key: z
    .string()
    .max(100)
    .optional()
    .describe(`change_setting: the setting's key, one of ${PROPOSABLE_SETTINGS.join(", ")} (no other setting is ever proposed).`),
  value: z.string().max(2000).optional().describe("change_setting: the new value."),
  reason: z.string().trim().min(1).max(500).describe("One sentence telling the admin why."),
});
export type ProposeActionInput = z.infer<typeof proposeActionSchema>;

/** Checks a proposal against the live data; throws ToolInputError when it cannot apply. */
export async function checkProposal(input: ProposeActionInput) {
  const shown = { shown_to_admin: true, note: "The admin sees a filled-in form; nothing has changed unless they submit it." };
  if (input.action === "change_setting") {
    if (!input.key || input.value === undefined) throw new ToolInputError("change_setting needs key and value");
    if (!isProposableSetting(input.key)) {
      throw new ToolInputError(
        `${input.key} is never proposed: only ${PROPOSABLE_SETTINGS.join(" and ")} may be; tags, ads, captcha, the price tracker and the assistant's budget are the admin's own work in Settings`,
      );
    }
    // The settings tab's own schema: the proposal is valid exactly when its form would be.
    const checked = settingSchema.safeParse({ key: input.key, value: input.value });
    if (!checked.success) {
      throw new ToolInputError(
        `the value is not valid for ${input.key} (${checked.error.issues.map((i) => i.message).join(", ")})`,
      );
    }
    return { ...shown, action: input.action, key: input.key, value: checked.data.value };
  }
  if (!input.id) throw new ToolInputError(`${input.action} needs id`);
  switch (input.action) {
    case "deactivate_code": {
      const code = await codeForProposal(input.id);
      if (!code) throw new ToolInputError(`no code has id ${input.id}`);
      if (code.is_active !== 1) throw new ToolInputError(`code ${input.id} is already inactive`);
      return { ...shown, action: input.action, id: code.id, platform: code.platform_slug };
    }
    case "approve_deletion_request":
    case "reject_deletion_request": {
      const request = await deletionRequestForProposal(input.id);
      if (!request) throw new ToolInputError(`no deletion request has id ${input.id}`);
      if (request.status !== "pending") throw new ToolInputError(`deletion request ${input.id} is already ${request.status}`);
      return { ...shown, action: input.action, id: request.id };
    }
    case "reject_suggestion": {
      const suggestion = await suggestionForProposal(input.id);
      if (!suggestion) throw new ToolInputError(`no suggestion has id ${input.id}`);
      if (suggestion.status !== "pending") throw new ToolInputError(`suggestion ${input.id} is already ${suggestion.status}`);
      return { ...shown, action: input.action, id: suggestion.id };
    }
  }
}
