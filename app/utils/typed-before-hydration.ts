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

/**
 * A controlled select's choice made before the page's script ran. React 18 selects its state's
 * option each time it renders a controlled `<select>`, even with the same value (the first time
 * just after hydration, when the page learns it has JavaScript), so an admin's pick on a slow
 * connection went back to the server's without a word, and the next post used it. Asked in the state's initializer while the component hydrates (`useHydrationRender`):
 * the element's current value, when it is one of `allowed`; otherwise the server's value.
 */
export function chosenBeforeHydration<T extends string>(id: string, serverValue: T, allowed: readonly T[]): T {
  const chosen = (document.getElementById(id) as HTMLSelectElement | null)?.value;
  return allowed.find((value) => value === chosen) ?? serverValue;
}
