import { describe, expect, it, vi } from "vitest";
import config from "../../vite.config";

describe("the production build's output", () => {
  it("does not print a line per resource route's (expected) empty chunk, and keeps every other warning", () => {
    const onwarn = config.build?.rollupOptions?.onwarn;
    expect(onwarn).toBeTypeOf("function");
    const warn = vi.fn();
    onwarn!({ code: "EMPTY_BUNDLE", message: 'Generated an empty chunk: "healthz".' }, warn);
    expect(warn).not.toHaveBeenCalled();
    onwarn!({ code: "CIRCULAR_DEPENDENCY", message: "a -> b -> a" }, warn);
    expect(warn).toHaveBeenCalledTimes(1);
  });
});
