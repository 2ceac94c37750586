import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The files that take longest (over 10 s in a pass on the 2-core machine with their hooks, 2026-12-06),
 * longest first.
 * Vitest orders files by the durations it cached from earlier runs; a fresh clone has none, so it
 * orders them by size, and a long file that happened to start last ran alone at the end of its pass
 * while the other workers idled (held-lock-writes: its last 28 s; scale-out: its last 30 s).
 */
export const SLOW_FILES = [
  "tests/integration/hardening.test.ts",
  "tests/integration/held-lock-writes.test.ts",
  "tests/integration/scale-out.test.ts",
  "tests/integration/admin-lists.test.ts",
  "tests/integration/stranger.test.ts",
  "tests/integration/assistant.test.ts",
  "tests/integration/operations.test.ts",
  "tests/integration/nu-html-checker.test.ts",
  "tests/integration/list-query-plans.test.ts",
  "tests/unit/backup-room.test.ts",
  "tests/integration/platform-deletions.test.ts",
  "tests/integration/assistant-safety.test.ts",
  "tests/integration/code-loop.test.ts",
  "tests/integration/admin-site.test.ts",
  "tests/integration/processes.test.ts",
  "tests/integration/ledger.test.ts",
  "tests/integration/read-cache.test.ts",
  "tests/integration/privacy.test.ts",
  "tests/integration/admin-auth.test.ts",
  "tests/integration/trust.test.ts",
  "tests/integration/fair-rotation.test.ts",
  "tests/integration/admin-catalog.test.ts",
  "tests/integration/suggestions.test.ts",
  "tests/integration/history.test.ts",
  "tests/integration/html-validity.test.ts",
  "tests/unit/admission.test.ts",
];

/** The slow files first, longest first; the rest in Vitest's own order after them. */
export default class SlowFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const index = SLOW_FILES.findIndex((slow) => file.moduleId.endsWith(`/${slow}`));
      return index === -1 ? SLOW_FILES.length : index;
    };
    const sorted = await super.sort(files);
    // Array.prototype.sort is stable: the files outside the list keep Vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
