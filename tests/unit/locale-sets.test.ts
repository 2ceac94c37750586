import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import type { Request, Response } from "express";
import { describe, expect, it, vi } from "vitest";
import { localeSets } from "../../server/locale-sets";
import { tmpPath } from "../support/paths";

/** Two one-namespace modules as the build writes them. */
function assets() {
  const dir = tmpPath("assets");
  fs.mkdirSync(dir, { recursive: true });
  for (const name of ["common", "trust"])
    fs.writeFileSync(path.join(dir, `locales-abc.fr.${name}.js`), `export default JSON.parse("{\\"${name}\\":\\"x\\"}");\n`);
  return dir;
}

function ask(handler: ReturnType<typeof localeSets>, encoding: string) {
  const headers: Record<string, string> = {};
  const send = vi.fn<(body: Buffer) => void>();
  const next = vi.fn();
  const req = { method: "GET", path: "/locales-abc.fr.common+trust.js", get: () => encoding } as unknown as Request;
  const res = { setHeader: (k: string, v: string) => (headers[k] = v), send } as unknown as Response;
  handler(req, res, next);
  return { headers, send, next };
}

describe("a page's translations joined by the server (decision 297)", () => {
  it("compresses off the event loop: the handler returns before the gzipped answer is sent", async () => {
    const handler = localeSets(assets());
    const gz = ask(handler, "gzip, br");
    expect(gz.next).not.toHaveBeenCalled();
    // zlib.gzipSync answered within the call; now libuv's thread pool does the work.
    expect(gz.send).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(gz.send).toHaveBeenCalledOnce());
    expect(gz.headers["Content-Encoding"]).toBe("gzip");
    const body = zlib.gunzipSync(gz.send.mock.calls[0]![0]).toString();
    expect(body).toBe(
      `export default {"common":JSON.parse("{\\"common\\":\\"x\\"}"),"trust":JSON.parse("{\\"trust\\":\\"x\\"}")};\n`,
    );
    // Kept: the second answer needs no compression, and a client without gzip gets the plain module at once.
    const again = ask(handler, "gzip");
    await vi.waitFor(() => expect(again.send).toHaveBeenCalledOnce());
    expect(zlib.gunzipSync(again.send.mock.calls[0]![0]).toString()).toBe(body);
    const plain = ask(handler, "identity");
    expect(plain.send).toHaveBeenCalledOnce();
    expect(plain.headers["Content-Encoding"]).toBeUndefined();
    expect(plain.send.mock.calls[0]![0].toString()).toBe(body);
  });
});
