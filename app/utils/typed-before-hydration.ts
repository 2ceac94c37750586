import { useEffect, type RefObject } from "react";

/**
 * A controlled text field keeps what was typed into it before the page's script ran. React 18 leaves
 * the field's text alone when it hydrates, but its state still holds the server's value, and the
 * next render (a keystroke in another field) would put that back: an admin who started typing on a
 * slow connection lost the name. Once, after hydration, the field's text becomes the state
 * (`adopt`) when they differ.
 */
export function useTypedBeforeHydration(
  ref: RefObject<HTMLInputElement | HTMLTextAreaElement | null>,
  value: string,
  adopt: (typed: string) => void,
): void {
  useEffect(() => {
    const typed = ref.current?.value;
    if (typed !== undefined && typed !== value) adopt(typed);
    // After hydration only: later changes reach the state through the field's onChange.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}
