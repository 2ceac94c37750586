import { redirect } from "@remix-run/node";
import { parseRowId } from "~/utils/row-id";

/**
 * Row actions that ask first (see row-action.tsx). With JS the dialog posts `confirm=yes` at once.
 * Without JS the first post has no `confirm`: the action answers `askToConfirm`, a 303 to the same
 * page with `?<intent>=<id>`, whose loader reads `confirmationAsked` and shows the ConfirmStep.
 */
export function isConfirmed(form: FormData): boolean {
  return form.get("confirm") === "yes";
}

/** `back` is the page the admin was on, filters and page kept (`currentListHref`). */
export function askToConfirm(back: string, intent: string, id: number): Response {
  return redirect(`${back}${back.includes("?") ? "&" : "?"}${intent}=${id}`, 303);
}

/** The row id a page is asked to confirm `intent` for (`?delete=12`), or null. */
export function confirmationAsked(request: Request, intent: string): number | null {
  return parseRowId(new URL(request.url).searchParams.get(intent));
}
