import { PassThrough } from "node:stream";
import { createElement } from "react";
import { renderToPipeableStream } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { withoutNulBytes } from "~/utils/nul-bytes.server";

/** A paragraph of two-byte characters, shifted by `offset` ASCII letters, so that one lands on a buffer's edge. */
function tree(offset: number) {
  const texts = Array.from({ length: 60 }, (_, i) => createElement("span", { key: i }, "é".repeat(41)));
  return createElement("p", null, "x".repeat(offset), ...texts);
}

function render(offset: number, filtered: boolean): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on("data", (chunk: Buffer) => chunks.push(Buffer.from(chunk)));
    out.on("end", () => resolve(Buffer.concat(chunks)));
    const { pipe } = renderToPipeableStream(tree(offset), {
      onAllReady: () => pipe(filtered ? withoutNulBytes(out) : out),
      onError: reject,
    });
  });
}

const zeros = (bytes: Buffer) => bytes.reduce((n, b) => n + (b === 0 ? 1 : 0), 0);

describe("withoutNulBytes (React 18.3.1's stray 0x00 at a 2,048-byte buffer's edge)", () => {
  it("React alone sends NUL bytes on these pages; through the filter none, and the text is whole", async () => {
    let unfilteredZeros = 0;
    for (let offset = 0; offset < 4; offset++) {
      const raw = await render(offset, false);
      const clean = await render(offset, true);
      unfilteredZeros += zeros(raw);
      expect(zeros(clean)).toBe(0);
      // Nothing but the stray bytes is taken out: every character is there, none broken.
      expect(clean.equals(Buffer.from(raw.filter((b) => b !== 0)))).toBe(true);
      expect(clean.toString("utf8")).not.toContain("\uFFFD");
      expect(clean.toString("utf8").match(/é/g)).toHaveLength(60 * 41);
    }
    // The case the filter exists for does happen: if React stops sending them, this says so.
    expect(unfilteredZeros).toBeGreaterThan(0);
  });
});
