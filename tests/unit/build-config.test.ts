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

  it("minifies the browser's code with terser, keeping each licence comment once, and leaves the server's as it is", () => {
    const browser = build(false);
    expect(browser.minify).toBe("terser");
    expect(browser.cssCodeSplit).toBe(false);
    const keep = browser.terserOptions?.format?.comments;
    expect(keep).toBeTypeOf("function");
    const comment = (value: string) => ({ value, type: "comment2", pos: 0, line: 0 }) as never;
    const fn = keep as (node: never, comment: never) => boolean;
    expect(fn(null as never, comment("* @license MIT (c) Remix"))).toBe(true);
    expect(fn(null as never, comment("* @license MIT (c) Remix"))).toBe(false);
    expect(fn(null as never, comment(" a plain comment"))).toBe(false);
    expect(build(true).minify).toBeUndefined();
  });
});
