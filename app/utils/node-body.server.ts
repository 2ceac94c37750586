import type { Readable } from "node:stream";
import { createReadableStreamFromReadable } from "@remix-run/node";

/** Where a page's Node stream hangs on its Response body; server/remix-handler.ts reads it. */
const NODE_BODY = Symbol.for("parrainly.node-body");

/**
 * A page's Response body that keeps the Node stream React renders into. Remix's API takes a web
 * ReadableStream, but the server pipes the Node stream itself to the socket (server/remix-handler.ts):
 * the HTML then never goes through a web stream, chunk by chunk, with a promise per chunk. Anyone
 * else who reads the body (Remix, a test) gets the same bytes through a web stream made on the first
 * read (highWaterMark 0: nothing is pulled before).
 */
export function nodeResponseBody(source: Readable): ReadableStream<Uint8Array> {
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        reader ??= (createReadableStreamFromReadable(source) as ReadableStream<Uint8Array>).getReader();
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel(reason) {
        source.destroy(reason instanceof Error ? reason : undefined);
      },
    },
    { highWaterMark: 0 },
  );
  Object.defineProperty(body, NODE_BODY, { value: source });
  return body;
}
