import { createRequire } from "node:module";
import { PassThrough } from "node:stream";
import type { EntryContext } from "@remix-run/node";
import { Suspense, type ComponentType } from "react";
import { renderToPipeableStream, renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { prefillStreamTransfer } from "~/utils/stream-handoff.server";

// Remix's own component (not in the package's index), as RemixServer renders it.
const require = createRequire(import.meta.url);
const { StreamTransfer } = require("@remix-run/react/dist/single-fetch.js") as {
  StreamTransfer: ComponentType<{
    context: EntryContext;
    identifier: number;
    reader: ReadableStreamDefaultReader<Uint8Array>;
    textDecoder: TextDecoder;
    nonce?: string;
  }>;
};

/** A single-fetch stream: texts ready at once are enqueued at its start, promised ones when they come. */
function handoff(chunks: (string | Promise<string>)[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(typeof chunk === "string" ? chunk : await chunk));
      controller.close();
    },
  });
}

function contextOf(stream: ReadableStream<Uint8Array>): EntryContext {
  return { serverHandoffStream: stream, renderMeta: { didRenderScripts: true } } as unknown as EntryContext;
}

/** What RemixServer renders for the stream: StreamTransfer in a Suspense boundary. */
function transfer(context: EntryContext) {
  return (
    <main>
      <Suspense fallback={<i>waiting</i>}>
        <StreamTransfer
          context={context}
          identifier={0}
          reader={context.serverHandoffStream!.getReader()}
          textDecoder={new TextDecoder()}
          nonce="n0nce"
        />
      </Suspense>
    </main>
  );
}

function renderAll(context: EntryContext): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const out = new PassThrough();
    out.on("data", (chunk: Buffer) => chunks.push(chunk));
    out.on("end", () => resolve(Buffer.concat(chunks).toString()));
    const { pipe } = renderToPipeableStream(transfer(context), { onAllReady: () => pipe(out), onError: reject });
  });
}

const later = (text: string, ms: number) => new Promise<string>((resolve) => setTimeout(() => resolve(text), ms));

describe("the loader data's stream read before the render (decision 271)", () => {
  it("lets Remix's StreamTransfer render the data without suspending", async () => {
    const data = ['[{"_1":2},"loaderData","é😀 <script>"]\n'];
    const before = renderToString(transfer(contextOf(handoff(data))));
    // Without it, the first render can only show the boundary's fallback.
    expect(before).toContain("waiting");
    expect(before).not.toContain("streamController.enqueue");

    const context = contextOf(handoff(data));
    await prefillStreamTransfer(context);
    const after = renderToString(transfer(context));
    expect(after).not.toContain("waiting");
    expect(after).toContain("window.__remixContext.streamController.enqueue(");
    expect(after).toContain("window.__remixContext.streamController.close();");
    expect(after).toContain('nonce="n0nce"');
  });

  it("gives the same bytes as Remix reading the stream itself", async () => {
    const data = () => ['[{"_1":2},"loaderData",{"_3":4},"name","Trade Republic ⚡ & co"]\n', "P5:[6]\n"];
    const theirs = await renderAll(contextOf(handoff(data())));
    const context = contextOf(handoff(data()));
    await prefillStreamTransfer(context);
    expect(await renderAll(context)).toBe(theirs);
    expect(theirs.match(/streamController\.enqueue/g)).toHaveLength(2);
  });

  it("hands a read still in flight to StreamTransfer, which reads the rest itself in order", async () => {
    const data = () => ['[{"_1":2},"deferred",-7]\n', later("P7:[8]\n", 30), later("P9:[10]\n", 10)];
    const theirs = await renderAll(contextOf(handoff(data())));
    const context = contextOf(handoff(data()));
    const stream = context.serverHandoffStream;
    await prefillStreamTransfer(context);
    // The first chunk was ready; the second is on its way, and the rest comes from a new stream.
    expect(context.renderMeta!.streamCache![0]!.result?.done).toBe(false);
    expect(context.renderMeta!.streamCache![1]!.result).toBeUndefined();
    expect(context.serverHandoffStream).not.toBe(stream);
    const ours = await renderAll(context);
    expect(ours).toBe(theirs);
    expect(ours.indexOf("P7:")).toBeLessThan(ours.indexOf("P9:"));
  });

  it("leaves a failed stream's error for StreamTransfer to report, as it would", async () => {
    const failing = () =>
      new ReadableStream<Uint8Array>({
        pull() {
          throw new Error("the data failed");
        },
      });
    const reported = (context: EntryContext) => renderAll(context).then(String, (error: Error) => error.message);
    expect(await reported(contextOf(failing()))).toBe("the data failed");
    const context = contextOf(failing());
    await expect(prefillStreamTransfer(context)).resolves.toBeUndefined();
    expect(context.renderMeta!.streamCache![0]!.error).toBeInstanceOf(Error);
    // RemixServer can still take its reader, and the render reports the same error.
    expect(await reported(context)).toBe("the data failed");
  });

  it("does nothing without a stream, or with one already being read", async () => {
    const bare = { renderMeta: {} } as unknown as EntryContext;
    await prefillStreamTransfer(bare);
    expect(bare.renderMeta!.streamCache).toBeUndefined();
    const stream = handoff(["[1]\n"]);
    const reader = stream.getReader();
    const locked = contextOf(stream);
    await prefillStreamTransfer(locked);
    expect(locked.renderMeta!.streamCache).toBeUndefined();
    expect((await reader.read()).done).toBe(false);
  });
});
