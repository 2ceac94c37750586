import type { EntryContext } from "@remix-run/node";

type StreamCache = NonNullable<NonNullable<EntryContext["renderMeta"]>["streamCache"]>;
type Entry = StreamCache[number];

const PENDING = Symbol("pending");

/**
 * Remix's `<StreamTransfer>` writes the page's loader data (the single-fetch stream) into inline
 * scripts: it reads one chunk per render and suspends on each read, so every page renders its
 * Suspense boundary again for the data and again for the stream's end (two pings, two more render
 * passes through React; about 6 % of an uncached page's CPU, decision 271). Our loaders return no
 * deferred values, so the whole stream is there a few microtasks after Remix made it.
 *
 * Before the render, this reads every chunk that is ready in this turn of the event loop and hands
 * each to `<StreamTransfer>` through the cache it keeps in `renderMeta` (an entry per chunk: a
 * promise carrying its `result`, the shape StreamTransfer itself stores), decoded as it decodes
 * them. StreamTransfer then renders the scripts at once, and the bytes are the same. Should a chunk
 * not be ready (a deferred value, if a loader ever returns one), its read is handed over still in
 * flight, and StreamTransfer reads the rest itself from a stream that goes on where this one
 * stopped: streaming is unchanged.
 */
export async function prefillStreamTransfer(context: EntryContext): Promise<void> {
  const stream = context.serverHandoffStream;
  const meta = context.renderMeta;
  if (!stream || !meta || stream.locked) return;
  const cache: StreamCache = (meta.streamCache ??= {});
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  for (let id = 0; ; id++) {
    const read = reader.read();
    let result: ReadableStreamReadResult<Uint8Array> | typeof PENDING;
    try {
      result = await readyThisTurn(read);
    } catch (error) {
      cache[id] = Object.assign(Promise.resolve(), { error });
      reader.releaseLock();
      return;
    }
    if (result === PENDING) {
      cache[id] = inFlight(read, decoder);
      context.serverHandoffStream = rest(reader);
      return;
    }
    cache[id] = Object.assign(Promise.resolve(), { result: decoded(result, decoder) });
    if (result.done) {
      reader.releaseLock();
      return;
    }
  }
}

/** What StreamTransfer keeps of a read: the chunk as text, decoded as a stream. */
function decoded(result: ReadableStreamReadResult<Uint8Array>, decoder: TextDecoder) {
  return { done: result.done, value: decoder.decode(result.value, { stream: true }) };
}

/** A read still in flight, as StreamTransfer would have stored it. */
function inFlight(read: Promise<ReadableStreamReadResult<Uint8Array>>, decoder: TextDecoder): Entry {
  const entry: Entry = read.then(
    (result) => {
      entry.result = decoded(result, decoder);
    },
    (error: unknown) => {
      entry.error = error;
    },
  );
  return entry;
}

/** The chunks after those already read, for StreamTransfer's own reader. */
function rest(reader: ReadableStreamDefaultReader<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/** The promise's value if it settles before the event loop's next turn, else PENDING. */
function readyThisTurn<T>(promise: Promise<T>): Promise<T | typeof PENDING> {
  return new Promise((resolve, reject) => {
    const timer = setImmediate(() => resolve(PENDING));
    promise.then(
      (value) => {
        clearImmediate(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearImmediate(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
