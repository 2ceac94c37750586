import { pipeline, Transform, type Writable } from "node:stream";

/**
 * React 18.3.1's Node renderer writes its whole 2,048-byte buffer when a multi-byte character does
 * not fit at its end (react#31134, fixed on React 19's line only): the unused bytes go out as 0x00.
 * Nothing is lost, a NUL is added. UTF-8 never has a 0x00 byte inside a character, and HTML has no
 * use for U+0000, so every 0x00 is dropped on the way out: the page cannot carry one, whichever
 * character lands on a buffer's edge.
 *
 * Returns the stream to give React's `pipe`; what comes out of it goes on into `destination`.
 */
export function withoutNulBytes<T extends Writable>(destination: T): Transform {
  const filter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      callback(null, chunk.indexOf(0) < 0 ? chunk : dropZeros(chunk));
    },
  });
  // An aborted render destroys the filter: the response's stream ends with it.
  pipeline(filter, destination, () => {});
  return filter;
}

function dropZeros(chunk: Buffer): Buffer {
  const out = Buffer.allocUnsafe(chunk.length);
  let n = 0;
  for (const byte of chunk) if (byte !== 0) out[n++] = byte;
  return out.subarray(0, n);
}
