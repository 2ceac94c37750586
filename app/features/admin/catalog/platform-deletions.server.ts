import { startPeriodic } from "~/utils/periodic.server";
import { finishPlatformDeletion, listPlatformDeletions } from "~db/repositories/platforms.server";
import { asSiteLeader } from "~db/site-locks.server";
import { removeStoredLogo } from "./logo.server";

/**
 * Platform deletions in the background (decision 292). An admin's delete marks the platform
 * (`startPlatformDeletion`: gone for visitors at once) and starts this runner, which removes the
 * platforms marked, one after the other, in small batches (decision 284), then their logos. The
 * admin's request waits for it a short while only (`PLATFORM_DELETE_WAIT_MS`, 2 s): a small platform is
 * gone before the answer, a popular one (two years of draws: seconds to minutes on a small VM)
 * goes on after it, and the platforms tab says so. The server starts the runner again a little
 * after it starts, so a deletion cut short by a restart ends by itself.
 */

let running: Promise<{ error?: unknown }> | null = null;
/** Aborted when the server stops: the run under way ends between two batches (decision 294). */
let stopping = new AbortController();

/**
 * Runs every deletion begun and not ended, once at a time: a second call while one runs joins it.
 * Never rejects: resolves with the error that stopped it (logged too), the deletions left marked for
 * the next run.
 */
export function continuePlatformDeletions(log: (line: string) => void = console.log): Promise<{ error?: unknown }> {
  running ??= (async () => {
    try {
      const { signal } = stopping;
      // One runner for the site: a process that finds another at work leaves the deletions to it (decision 367).
      const run = await asSiteLeader("platform-deletions", () => runDeletions(log, signal));
      return run.led ? run.value : {};
    } catch (error) {
      log(`[platforms] deletion stopped, to go on at the next run: ${error instanceof Error ? error.message : String(error)}`);
      return { error };
    } finally {
      running = null;
    }
  })();
  return running;
}

/** Every deletion marked, each to its end, batch after batch, until none is left or the server stops. */
async function runDeletions(log: (line: string) => void, signal: AbortSignal): Promise<{ error?: unknown }> {
  for (;;) {
    if (signal.aborted) return {};
    const pending = await listPlatformDeletions();
    if (pending.length === 0) return {};
    for (const platform of pending) {
      const removed = await finishPlatformDeletion(platform.id, undefined, { signal });
      if (signal.aborted) {
        log(`[platforms] deletion of "${platform.name}" paused: the server is shutting down (it goes on at the next start)`);
        return {};
      }
      if (!removed) continue;
      await removeStoredLogo(removed.custom_logo_light_url);
      await removeStoredLogo(removed.custom_logo_dark_url);
      log(`[platforms] deleted "${platform.name}" (begun ${platform.deleting_since})`);
    }
  }
}

/**
 * Inside the server: a few seconds after start, then every minute (a no-op with nothing marked). The
 * function returned stops it, and a deletion an admin's request began, between two batches, and
 * resolves once the batch under way has ended (shutdown).
 */
export function startPlatformDeletionsJob(
  log: (line: string) => void,
  { intervalMs = 60_000, firstRunMs = 3_000 } = {},
): () => Promise<void> {
  stopping = new AbortController();
  const stopPeriodic = startPeriodic("platforms", log, { firstMs: firstRunMs, intervalMs }, () => continuePlatformDeletions(log));
  return async () => {
    stopping.abort();
    await Promise.all([stopPeriodic(), running]);
  };
}
