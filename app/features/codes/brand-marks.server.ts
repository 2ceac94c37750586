// The brand marks of the seeded platforms that simple-icons (CC0) draws, in each brand's own colour,
// unaltered (issue 59). Only these three files enter the server build (`?raw` inlines each SVG; the
// package's index is 5 MB and is never imported); nothing of them reaches the browser's scripts: the
// loaders hand the path to the page, which draws it as inline SVG in the server's HTML.
// Trade Republic, iGraal and Holy are not in simple-icons: their emoji stays. An admin's uploaded
// logo overrides a mark (PlatformLogo).
import n26 from "simple-icons/icons/n26.svg?raw";
import revolut from "simple-icons/icons/revolut.svg?raw";
import tesla from "simple-icons/icons/tesla.svg?raw";

import type { BrandMark } from "./platform-logo";

// Each colour as simple-icons gives it (its data/simple-icons.json; a unit test holds them equal).

function pathOf(svg: string): string {
  const d = /<path d="([^"]+)"/.exec(svg)?.[1];
  if (!d) throw new Error("simple-icons: an icon without a path");
  return d;
}

/** By the seeded platforms' slugs (db/seed-data.ts). */
const MARKS: Record<string, BrandMark> = {
  tesla: { path: pathOf(tesla), color: "#CC0000" },
  revolut: { path: pathOf(revolut), color: "#191C1F" },
  n26: { path: pathOf(n26), color: "#48AC98" },
};

/** The platform's brand mark, or null where simple-icons has none (the emoji shows). */
export function brandMarkOf(slug: string): BrandMark | null {
  return MARKS[slug] ?? null;
}

/** The slugs that have a mark (the unit test's list). */
export const MARKED_SLUGS = Object.keys(MARKS);
