import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/paths";
import { SEED_PLATFORMS } from "../../db/seed-data";
import { brandMarkOf, MARKED_SLUGS } from "../../app/features/codes/brand-marks.server";

interface SimpleIcon {
  title: string;
  slug: string;
  hex: string;
}
const icons = JSON.parse(
  fs.readFileSync(path.join(ROOT, "node_modules/simple-icons/data/simple-icons.json"), "utf8"),
) as SimpleIcon[];

describe("brand marks (simple-icons)", () => {
  it("draws each marked platform's icon unaltered, in the colour simple-icons gives it", () => {
    expect(MARKED_SLUGS.sort()).toEqual(["n26", "revolut", "tesla"]);
    for (const slug of MARKED_SLUGS) {
      const icon = icons.find((i) => i.slug === slug);
      expect(icon, slug).toBeDefined();
      const svg = fs.readFileSync(path.join(ROOT, `node_modules/simple-icons/icons/${slug}.svg`), "utf8");
      const mark = brandMarkOf(slug);
      expect(mark?.color).toBe(`#${icon?.hex}`);
      expect(svg).toContain(`<path d="${mark?.path}"/>`);
    }
  });

  it("marks seeded platforms only, and leaves the emoji where simple-icons has no icon", () => {
    const seeded = SEED_PLATFORMS.map((p) => p.slug);
    for (const slug of MARKED_SLUGS) expect(seeded).toContain(slug);
    // Trade Republic, iGraal and Holy are not in simple-icons (16.x): their emoji shows.
    for (const title of ["Trade Republic", "iGraal", "Holy"]) expect(icons.find((i) => i.title === title)).toBeUndefined();
    expect(brandMarkOf("trade-republic")).toBeNull();
    expect(brandMarkOf("no-such-platform")).toBeNull();
  });
});
