import { finished, Transform, type Writable } from "node:stream";

/**
 * What React's Node renderer writes, on its way to the response. Not a rewrite: the bytes are
 * React's, in the same order.
 *
 * - **One chunk per tick.** React 18's renderer copies the page into 2,048-byte buffers and writes
 *   each one as it fills (about 20 writes for a 42 KB shell): everything written in one tick goes on
 *   as one buffer, at the end of that tick. Streaming is unchanged; the pieces are fewer.
 * - **No NUL byte.** React 18.3.1 writes its whole 2,048-byte buffer when a multi-byte character
 *   does not fit at its end (react#31134, fixed on React 19's line only): the unused bytes go out
 *   as 0x00. Every 0x00 is dropped (UTF-8 never has a 0x00 byte inside a character, and HTML has
 *   no use for U+0000); a unit test fails once React stops sending them.
 *
 * Returns the stream to give React's `pipe`; what comes out of it goes on into `destination`.
 */
export function reactOutput<T extends Writable>(destination: T): Transform {
  let pending: Buffer[] = [];
  let scheduled = false;
  const handOn = () => {
    scheduled = false;
    if (pending.length === 0 || output.destroyed) return;
    const chunk = pending.length === 1 ? pending[0]! : Buffer.concat(pending);
    pending = [];
    output.push(chunk);
  };
  const output = new Transform({
    // React listens for "close" to stop a render whose visitor left; once the page is whole, its
    // handler would end the stream a second time (an error object made and dropped per page). A
    // visitor leaving destroys this stream with an error, which React hears as "error".
    emitClose: false,
    transform(chunk: Buffer, _encoding, callback) {
      // React never writes into a buffer again once it has handed it over: holding it is safe.
      pending.push(chunk.indexOf(0) < 0 ? chunk : dropZeros(chunk));
      if (!scheduled) {
        scheduled = true;
        process.nextTick(handOn);
      }
      callback();
    },
    flush(callback) {
      handOn();
      callback();
    },
  });
  // An aborted render destroys the output: the response's stream ends with it, and a response torn
  // down early stops the render. (As `pipeline` would, without the AbortController and the
  // DOMException it makes for every page.)
  output.pipe(destination);
  finished(output, (error) => error && destination.destroy(error));
  finished(destination, (error) => error && output.destroy(error));
  return output;
}

function dropZeros(chunk: Buffer): Buffer {
  const out = Buffer.allocUnsafe(chunk.length);
  let n = 0;
  for (const byte of chunk) if (byte !== 0) out[n++] = byte;
  return out.subarray(0, n);
}
