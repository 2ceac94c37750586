import path from "node:path";
import type { UserConfig } from "vite";
import { describe, expect, it, vi } from "vitest";
import configFor from "../../vite.config";

const build = (isSsrBuild: boolean) =>
  (configFor({ command: "build", mode: "production", isSsrBuild }) as UserConfig).build ?? {};

describe("the production build's output", () => {
  it("does not print a line per resource route's (expected) empty chunk, and keeps every other warning", () => {
    const onwarn = build(false).rollupOptions?.onwarn;
    expect(onwarn).toBeTypeOf("function");
    const warn = vi.fn();
    onwarn!({ code: "EMPTY_BUNDLE", message: 'Generated an empty chunk: "healthz".' }, warn);
    expect(warn).not.toHaveBeenCalled();
    onwarn!({ code: "CIRCULAR_DEPENDENCY", message: "a -> b -> a" }, warn);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it("keeps each licence comment once in the browser's code, and drops the other comments", () => {
    const keep = build(false).terserOptions?.format?.comments;
    expect(keep).toBeTypeOf("function");
    const comment = (value: string) => ({ value, type: "comment2", pos: 0, line: 0 }) as never;
    const fn = keep as (node: never, comment: never) => boolean;
    expect(fn(null as never, comment("* @license MIT (c) Remix"))).toBe(true);
    expect(fn(null as never, comment("* @license MIT (c) Remix"))).toBe(false);
    expect(fn(null as never, comment(" a plain comment"))).toBe(false);
  });

  it("splits the browser's code into framework, layout (what only the root imports) and each route's own chunks", () => {
    const output = build(false).rollupOptions?.output;
    const manualChunks = (Array.isArray(output) ? output[0] : output)?.manualChunks;
    expect(manualChunks).toBeTypeOf("function");
    const app = (file: string) => path.resolve("app", file);
    // A small module graph: the entry imports the runtime; the root imports the header, which imports
    // a helper a route uses too; the route imports its own view.
    const graph: Record<string, string[]> = {
      [app("entry.client.tsx")]: [app("i18n/i18next.client.ts")],
      [app("i18n/i18next.client.ts")]: [],
      [app("root.tsx")]: [app("components/site-header.tsx"), app("i18n/i18next.client.ts")],
      [app("components/site-header.tsx")]: [app("utils/meta.ts")],
      [app("utils/meta.ts")]: [],
      [app("routes/submit.tsx")]: [app("utils/meta.ts"), app("features/codes/copy-button.tsx")],
      [app("features/codes/copy-button.tsx")]: [],
      // The consent parts: imported by the root, and on demand by the layout.
      [app("features/consent/analytics-tags.tsx")]: [],
    };
    const dynamicImporters: Record<string, string[]> = {
      [app("features/consent/analytics-tags.tsx")]: [app("features/consent/consent-parts.tsx")],
    };
    graph[app("root.tsx")]!.push(app("features/consent/analytics-tags.tsx"));
    const chunkOf = (id: string) =>
      (manualChunks as (id: string, api: unknown) => string | undefined)(id, {
        getModuleInfo: (m: string) => (graph[m] ? { importedIds: graph[m], dynamicImporters: dynamicImporters[m] ?? [] } : null),
      });
    expect(chunkOf("/x/node_modules/react-dom/client.js")).toBe("framework");
    expect(chunkOf("/x/node_modules/@remix-run/react/dist/index.js")).toBe("framework");
    expect(chunkOf(app("root.tsx"))).toBe("layout");
    expect(chunkOf(app("components/site-header.tsx"))).toBe("layout");
    expect(chunkOf(app("utils/meta.ts"))).toBe("layout");
    // What the entry imports itself is in the layout too (every page loads it; left to Rollup it once
    // landed in an on-demand chunk, decision 265); the entry stays a chunk of its own.
    expect(chunkOf(app("i18n/i18next.client.ts"))).toBe("layout");
    expect(chunkOf(app("entry.client.tsx"))).toBeUndefined();
    // Small modules most pages share but the layout does not import, in the layout all the same.
    expect(chunkOf("/x/db/platform-links.ts")).toBe("layout");
    expect(chunkOf("/x/node_modules/@vanilla-extract/dynamic/dist/index.js")).toBe("layout");
    expect(chunkOf(app("routes/submit.tsx"))).toBeUndefined();
    expect(chunkOf(app("features/codes/copy-button.tsx"))).toBeUndefined();
    expect(chunkOf("/x/node_modules/zod/index.js")).toBeUndefined();
    // A module the layout imports on demand is a chunk of its own, not in every page's layout.
    expect(chunkOf(app("features/consent/analytics-tags.tsx"))).toBe("analytics-tags");
  });
});
