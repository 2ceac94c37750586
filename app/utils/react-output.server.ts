import { finished, Transform, type Writable } from "node:stream";

/**
 * What React's Node renderer writes, on its way to the response:
 *
 * - **One chunk per tick.** React's own renderer copies the page into 2,048-byte buffers and writes
 *   each one as it fills (about 20 writes for a 42 KB shell). The production build is patched to
 *   write each flush as one string instead (decision 270), so this now matters for the development
 *   renderer only: everything written in one tick goes on as one buffer, at the end of that tick;
 *   streaming is unchanged, the pieces are fewer.
 * - **No NUL byte.** React 18.3.1 writes its whole 2,048-byte buffer when a multi-byte character
 *   does not fit at its end (react#31134, fixed on React 19's line only): the unused bytes go out
 *   as 0x00. The patched production build has no such buffers; for any other build, every 0x00 is
 *   dropped (UTF-8 never has a 0x00 byte inside a character, and HTML has no use for U+0000).
 *
 * - **Bytes made once, put in place.** Each of `inserts` names a placeholder that the first tick's
 *   output holds (the shell's head) and the bytes that stand in its place: the site's stylesheet,
 *   28 KB that React would otherwise encode to UTF-8 anew for every page (`SiteStylesheet`,
 *   decision 240); the end of the head, after which the server adds what the browser's code never
 *   renders (the first paint's hold, decision 306). Only the first tick is searched, and only each
 *   placeholder's first place is replaced, in the order given.
 *
 * Returns the stream to give React's `pipe`; what comes out of it goes on into `destination`.
 */
export function reactOutput<T extends Writable>(destination: T, inserts: readonly Insert[] = []): Transform {
  let pending: Buffer[] = [];
  let scheduled = false;
  let firstTick = true;
  const handOn = () => {
    scheduled = false;
    if (pending.length === 0 || output.destroyed) return;
    let chunk = pending.length === 1 ? pending[0]! : Buffer.concat(pending);
    pending = [];
    if (firstTick) for (const insert of inserts) chunk = inserted(chunk, insert);
    firstTick = false;
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

/** A placeholder the renderer writes, and the bytes the page carries in its place. */
export interface Insert {
  placeholder: Buffer;
  bytes: Buffer;
}

function inserted(chunk: Buffer, { placeholder, bytes }: Insert): Buffer {
  const at = chunk.indexOf(placeholder);
  if (at < 0) return chunk;
  return Buffer.concat([chunk.subarray(0, at), bytes, chunk.subarray(at + placeholder.length)]);
}

function dropZeros(chunk: Buffer): Buffer {
  const out = Buffer.allocUnsafe(chunk.length);
  let n = 0;
  for (const byte of chunk) if (byte !== 0) out[n++] = byte;
  return out.subarray(0, n);
}
