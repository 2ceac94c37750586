import { useRef, useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * Hand-written: remix-utils has `useHydrated` (used elsewhere), nothing that answers once per mount.
 * True when this component mounted by hydrating the server's HTML (and on each later render of it),
 * false when it mounted in the browser; for a question asked once (was this part in the server's HTML? may
 * it move the focus?). Unlike remix-utils' `useHydrated` it never renders the component again: each
 * instance's store answers what it answered first, so when React checks it after hydration nothing
 * has changed (decision 275). A part hydrated later (inside a Suspense boundary) gets true too, and
 * a part React renders afresh because hydration failed gets false.
 */
export function useHydrationRender(): boolean {
  const first = useRef<boolean | null>(null);
  const mountedByHydration = useSyncExternalStore(
    subscribe,
    () => (first.current ??= false),
    () => (first.current ??= true),
  );
  return mountedByHydration && typeof document !== "undefined";
}
