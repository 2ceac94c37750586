import { PassThrough } from "node:stream";
import { createElement, Suspense } from "react";
import { renderToPipeableStream } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { reactOutput } from "~/utils/react-output.server";

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
      onAllReady: () => pipe(filtered ? reactOutput(out) : out),
      onError: reject,
    });
  });
}

/** A paragraph that suspends until `release` is called: a part of the page streamed after the shell. */
function lateParagraph(props: Record<string, unknown>, text?: string) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let ready = false;
  void gate.then(() => (ready = true));
  function Late() {
    if (!ready) throw gate;
    return createElement("p", props, text);
  }
  return { Late, release };
}

const zeros = (bytes: Buffer) => bytes.reduce((n, b) => n + (b === 0 ? 1 : 0), 0);

describe("reactOutput: no NUL byte (React 18.3.1's stray 0x00 at a 2,048-byte buffer's edge)", () => {
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

describe("reactOutput: one chunk per tick, streaming kept", () => {
  /** A shell of about 40 KB and a Suspense boundary whose data comes when `release` is called. */
  function streamed() {
    const { Late, release } = lateParagraph({ id: "late" }, "arrived");
    const rows = Array.from({ length: 400 }, (_, i) => createElement("li", { key: i }, `row ${i} `.padEnd(80, "-")));
    const element = createElement(
      "div",
      null,
      createElement("ul", null, ...rows),
      createElement(Suspense, { fallback: createElement("p", null, "waiting") }, createElement(Late)),
    );
    return { element, release };
  }

  it("hands the shell on as one chunk before the late part exists, then the late part, bytes unchanged", async () => {
    const render = (batched: boolean) =>
      new Promise<{ chunks: Buffer[]; beforeRelease: number }>((resolve, reject) => {
        const { element, release } = streamed();
        const out = new PassThrough();
        const chunks: Buffer[] = [];
        out.on("data", (chunk: Buffer) => chunks.push(Buffer.from(chunk)));
        out.on("end", () => resolve({ chunks, beforeRelease }));
        let beforeRelease = -1;
        const { pipe } = renderToPipeableStream(element, {
          onShellReady: () => {
            pipe(batched ? reactOutput(out) : out);
            // Let the shell travel, then note what came before the late data exists.
            setImmediate(() => {
              beforeRelease = chunks.length;
              release();
            });
          },
          onError: reject,
        });
      });
    const raw = await render(false);
    const batched = await render(true);
    expect(raw.beforeRelease).toBeGreaterThan(5); // React alone: one write per 2 KB buffer
    expect(batched.beforeRelease).toBe(1); // the whole shell, at once, before the data came
    expect(batched.chunks.length).toBe(2); // then the boundary's chunk
    expect(Buffer.concat(batched.chunks).equals(Buffer.concat(raw.chunks))).toBe(true);
    expect(Buffer.concat(batched.chunks).toString()).toContain('<p id="late">arrived</p>');
  });
});

describe("reactOutput: a visitor who leaves stops the render", () => {
  it("React hears that the response is gone and abandons the part still waiting for its data", async () => {
    const gate = new Promise<void>(() => {}); // data that never comes
    function Late(): never {
      throw gate;
    }
    const element = createElement(
      "div",
      null,
      createElement(Suspense, { fallback: createElement("p", null, "waiting") }, createElement(Late)),
    );
    const errors: unknown[] = [];
    const out = new PassThrough();
    out.resume();
    await new Promise<void>((resolve) => {
      const { pipe } = renderToPipeableStream(element, {
        onShellReady: () => {
          pipe(reactOutput(out));
          setImmediate(() => {
            out.destroy(); // the socket closed
            resolve();
          });
        },
        onError: (error) => void errors.push(error),
      });
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(errors).toHaveLength(1);
    expect(String(errors[0])).toMatch(/destination stream (errored|closed)/);
  });
});
