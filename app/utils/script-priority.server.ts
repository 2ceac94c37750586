import { Transform, type TransformCallback } from "node:stream";

const FROM = Buffer.from('<link rel="modulepreload"');
const ADDED = Buffer.from(' fetchpriority="low"');

/**
 * The page's own scripts are fetched at low priority: every page is whole without JavaScript, so
 * the browser should spend a slow connection on the HTML first and hydrate after (decision 179).
 * Remix's `<Scripts>` takes no option for its `modulepreload` links, so the rendered HTML is
 * rewritten on its way out, as bytes (the link is ASCII, and no byte of a multi-byte UTF-8
 * character is `<`); a link cut across two chunks is held back until the next one.
 */
export function lowPriorityScripts(onEnd?: () => void): Transform {
  let carry: Buffer | null = null;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      const data = carry ? Buffer.concat([carry, chunk]) : chunk;
      const kept = heldBack(data);
      carry = kept > 0 ? data.subarray(data.length - kept) : null;
      callback(null, marked(data.subarray(0, data.length - kept)));
    },
    flush(callback: TransformCallback) {
      onEnd?.();
      callback(null, carry ? marked(carry) : undefined);
    },
  });
}

/** `data` with the attribute added after each link's opening. */
function marked(data: Buffer): Buffer {
  let at = data.indexOf(FROM);
  if (at < 0) return data;
  const parts: Buffer[] = [];
  let from = 0;
  while (at >= 0) {
    parts.push(data.subarray(from, at + FROM.length), ADDED);
    from = at + FROM.length;
    at = data.indexOf(FROM, from);
  }
  parts.push(data.subarray(from));
  return Buffer.concat(parts);
}

/** How many bytes at the end of `data` may be the start of a link still to come. */
function heldBack(data: Buffer): number {
  const from = data.lastIndexOf(0x3c); // "<"
  if (from < 0 || data.length - from >= FROM.length) return 0;
  return FROM.subarray(0, data.length - from).equals(data.subarray(from)) ? data.length - from : 0;
}
