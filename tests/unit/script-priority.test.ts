import { describe, expect, it } from "vitest";
import { lowPriorityScripts } from "~/utils/script-priority.server";

async function through(chunks: Buffer[]): Promise<{ text: string; ended: boolean }> {
  let ended = false;
  const stream = lowPriorityScripts(() => (ended = true));
  const out: Buffer[] = [];
  stream.on("data", (chunk: Buffer) => out.push(Buffer.from(chunk)));
  const done = new Promise((resolve) => stream.on("end", resolve));
  for (const chunk of chunks) stream.write(chunk);
  stream.end();
  await done;
  return { text: Buffer.concat(out).toString("utf8"), ended };
}

const page =
  '<head><style>a{}</style></head><body><p>Déjà vu · 5 €</p><link rel="modulepreload" href="/assets/a.js"/>' +
  '<link rel="modulepreload" href="/assets/b.js"/><link rel="stylesheet" href="/x.css"/><script type="module">import "/assets/a.js";</script></body>';
const expected = page.replaceAll('<link rel="modulepreload"', '<link rel="modulepreload" fetchpriority="low"');

describe("the page's scripts at low priority", () => {
  it("marks every modulepreload link and leaves the rest of the page as it is", async () => {
    const { text, ended } = await through([Buffer.from(page)]);
    expect(text).toBe(expected);
    expect(text.match(/fetchpriority="low"/g)).toHaveLength(2);
    expect(ended).toBe(true);
  });

  it("whatever byte the stream is cut at, inside a link or inside a character of several bytes", async () => {
    const bytes = Buffer.from(page);
    for (let cut = 1; cut < bytes.length; cut++) {
      const { text } = await through([bytes.subarray(0, cut), bytes.subarray(cut)]);
      expect(text, `cut at byte ${cut}`).toBe(expected);
    }
  });

  it("one byte at a time", async () => {
    const bytes = Buffer.from(page);
    const { text } = await through([...bytes].map((byte) => Buffer.from([byte])));
    expect(text).toBe(expected);
  });
});
