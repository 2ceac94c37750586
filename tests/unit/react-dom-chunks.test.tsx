import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { PassThrough } from "node:stream";
import { Suspense, type ReactNode } from "react";
import type { renderToPipeableStream } from "react-dom/server";
import { describe, expect, it } from "vitest";

// The production build of React's Node renderer is the file patches/react-dom+18.3.1.patch changes
// (decisions 269, 270: each flush gathered as one string, written once); tests otherwise get the
// development build, which the patch leaves alone.
const require = createRequire(import.meta.url);
type Server = { renderToPipeableStream: typeof renderToPipeableStream };
const cjs = path.join(path.dirname(require.resolve("react-dom/package.json")), "cjs");
const productionFile = path.join(cjs, "react-dom-server.node.production.min.js");
const production = require(productionFile) as Server;
const development = require(path.join(cjs, "react-dom-server.node.development.js")) as Server;

/** The bytes, and how many writes they came in. `shell`: piped when the shell is ready, as Remix does. */
function render(server: Server, tree: ReactNode, shell = false): Promise<{ bytes: Buffer; writes: number }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const out = new PassThrough();
    out.on("data", (chunk: Buffer) => chunks.push(Buffer.from(chunk)));
    out.on("end", () => resolve({ bytes: Buffer.concat(chunks), writes: chunks.length }));
    const ready = () => pipe(out);
    const { pipe } = server.renderToPipeableStream(tree, {
      ...(shell ? { onShellReady: ready } : { onAllReady: ready }),
      onError: reject,
    });
  });
}

/** A part that suspends until `promise` settles, so the renderer flushes it after the shell. */
function Late({ promise, children }: { promise: Promise<void> & { done?: boolean }; children: ReactNode }) {
  if (!promise.done) {
    throw promise.then(() => {
      promise.done = true;
    });
  }
  return <>{children}</>;
}

/** Texts of every UTF-8 width, cut so that strings end on and across the 2 KB chunk boundaries. */
function texts(seed: number): string[] {
  const pieces = ["a", "é", "€", "😀", "\ud800", "<&>\"'", "z".repeat(700), "ç".repeat(300)];
  const list: string[] = [];
  let x = seed;
  for (let i = 0; i < 400; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const piece = pieces[x % pieces.length]!;
    list.push(piece.repeat(1 + (x % 7)).slice(0, 1 + (x % 900)));
  }
  return list;
}

describe("React's production renderer, patched to write each flush as one string (decisions 269, 270)", () => {
  it("writes the patch's mark, and the same bytes as the development renderer for texts of every width", async () => {
    expect(fs.readFileSync(productionFile, "utf8")).toContain("Parrainly patch");
    for (const seed of [1, 2, 3, 4, 5]) {
      const tree = (
        <ul title={texts(seed + 10)[0]}>
          {texts(seed).map((text, i) => (
            <li key={i} data-i={i} className={`c${i % 5}`}>
              {text}
              <b>{i}</b>
            </li>
          ))}
        </ul>
      );
      const [ours, theirs] = await Promise.all([render(production, tree), render(development, tree)]);
      expect(ours.bytes.length).toBeGreaterThan(10_000);
      expect(ours.bytes.equals(theirs.bytes)).toBe(true);
    }
  });

  it("streams what suspends in later flushes, with the same bytes as the development renderer", async () => {
    const page = (promise: Promise<void>) => (
      <main>
        <h1>{texts(7)[0]}</h1>
        <Suspense fallback={<p>…</p>}>
          <Late promise={promise}>
            <ol>
              {texts(8).map((text, i) => (
                <li key={i}>{text}</li>
              ))}
            </ol>
          </Late>
        </Suspense>
        <footer>{texts(9)[1]}</footer>
      </main>
    );
    const later = () => new Promise<void>((resolve) => setTimeout(resolve, 20));
    const [ours, theirs] = await Promise.all([render(production, page(later()), true), render(development, page(later()), true)]);
    // The shell, then the suspended part with React's script that moves it in place.
    expect(ours.writes).toBeGreaterThanOrEqual(2);
    expect(ours.bytes.toString()).toContain('<template id="B:0">');
    expect(ours.bytes.equals(theirs.bytes)).toBe(true);
  });
});
