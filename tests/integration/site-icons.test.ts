import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../support/server";

/**
 * Over HTTP against the built server: the icons a page and its web manifest name are PNGs the
 * server serves, of the sizes they claim (decision 274: the browser decodes them in the page's
 * renderer, where an SVG was a document to build twice per page).
 */
let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

const PNG_SIGNATURE = "89504e470d0a1a0a";

/** A PNG's width and height from its header (IHDR), or null when the bytes are not a PNG. */
function pngSize(bytes: Buffer): { width: number; height: number } | null {
  if (bytes.subarray(0, 8).toString("hex") !== PNG_SIGNATURE || bytes.subarray(12, 16).toString("latin1") !== "IHDR") return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

async function icon(href: string) {
  const response = await fetch(new URL(href, server.url));
  expect(response.status, href).toBe(200);
  return { type: response.headers.get("content-type"), size: pngSize(Buffer.from(await response.arrayBuffer())) };
}

const attribute = (tag: string, name: string) => new RegExp(`${name}="([^"]*)"`).exec(tag)?.[1];

describe("site icons", () => {
  it("every page names a 48 px PNG icon, a 180 px touch icon and the manifest; no SVG icon", async () => {
    for (const path of ["/", "/tesla", "/submit"]) {
      const html = await (await fetch(new URL(path, server.url))).text();
      const links = [...html.matchAll(/<link rel="(?:icon|apple-touch-icon|manifest)"[^>]*>/g)].map((m) => m[0]);
      const icons = links.filter((tag) => tag.startsWith('<link rel="icon"'));
      expect(icons, path).toHaveLength(1);
      expect(attribute(icons[0]!, "type")).toBe("image/png");
      expect(attribute(icons[0]!, "sizes")).toBe("48x48");
      expect(await icon(attribute(icons[0]!, "href")!)).toEqual({ type: "image/png", size: { width: 48, height: 48 } });
      const touch = links.find((tag) => tag.startsWith('<link rel="apple-touch-icon"'));
      expect(await icon(attribute(touch!, "href")!)).toEqual({ type: "image/png", size: { width: 180, height: 180 } });
      expect(links.find((tag) => tag.startsWith('<link rel="manifest"'))).toContain('href="/site.webmanifest"');
      expect(links.join(" "), path).not.toContain(".svg");
    }
  });

  it("the web manifest's icons are PNGs of their declared sizes, 192 and 512 px for a home-screen shortcut", async () => {
    const manifest = (await (await fetch(new URL("/site.webmanifest", server.url))).json()) as {
      icons: Array<{ src: string; sizes: string; type: string }>;
    };
    expect(manifest.icons.map((i) => i.sizes).sort()).toEqual(["192x192", "512x512"]);
    for (const { src, sizes, type } of manifest.icons) {
      expect(type).toBe("image/png");
      const [width, height] = sizes.split("x").map(Number);
      expect(await icon(src)).toEqual({ type: "image/png", size: { width, height } });
    }
  });

  it("the web manifest opens the site in the browser: nothing to install, so no install prompt while a page loads (decision 305)", async () => {
    const manifest = (await (await fetch(new URL("/site.webmanifest", server.url))).json()) as Record<string, unknown>;
    expect(manifest.display).toBe("browser");
    expect(manifest).toMatchObject({ name: "Parrainly", short_name: "Parrainly", start_url: "/" });
  });

  it("the organisation's logo in the home page's structured data is the 512 px PNG", async () => {
    const html = await (await fetch(new URL("/", server.url))).text();
    expect(html).toMatch(/"logo":"https?:\/\/[^"]+\/icon-512\.png"/);
  });
});
