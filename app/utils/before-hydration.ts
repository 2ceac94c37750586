/**
 * Work a page's route modules ask for before the browser hydrates it (the split parts its HTML
 * shows, app/components/split-part.tsx). Remix's `<Scripts>` imports the page's route modules before
 * the browser entry, so a module that calls `beforeHydration` at its top level is heard in time; the
 * entry (entry.client.tsx) waits for all of them. Once hydrated, a route module loaded by a
 * navigation finds nothing waiting: its work then runs at once and nobody waits for it.
 */
const pending: Array<Promise<unknown>> = [];
let hydrating = false;

export function beforeHydration(work: () => Promise<unknown> | undefined): void {
  if (typeof document === "undefined") return;
  const started = work();
  if (!hydrating && started) pending.push(started);
}

export function runBeforeHydration(): Promise<unknown> {
  hydrating = true;
  return Promise.all(pending.splice(0));
}
