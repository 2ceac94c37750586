import { useNavigation } from "@remix-run/react";

/**
 * True while the form being submitted matches: its `intent` (when given), its row `id` (when
 * given, read from `idField`; `null` means "a form without an id") and its action path (when given). With JS only:
 * without it there is no pending state to show. Every submit button's busy state comes from here.
 */
export function usePending({
  intent,
  id,
  idField = "id",
  formAction,
}: { intent?: string; id?: number | string | null; idField?: string; formAction?: string } = {}): boolean {
  const navigation = useNavigation();
  if (navigation.state === "idle" || !navigation.formData) return false;
  if (formAction !== undefined && navigation.formAction !== formAction) return false;
  if (intent !== undefined && navigation.formData.get("intent") !== intent) return false;
  if (id !== undefined) {
    const sent = navigation.formData.get(idField);
    if (id === null ? sent !== null : sent !== String(id)) return false;
  }
  return true;
}
