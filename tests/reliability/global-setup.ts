import fs from "node:fs";
import path from "node:path";
import setupTmp from "../support/global-setup";
import { FIGURES_DIR } from "./support";

/** Fresh tests/.tmp and a build of the current sources (tests/support/global-setup.ts) before; after, every file's figures in one table (the numbers CI shows). */
export default function setup() {
  setupTmp();
  return () => {
    const files = fs.existsSync(FIGURES_DIR) ? fs.readdirSync(FIGURES_DIR).sort() : [];
    const lines = [`\n== reliability figures, ${new Date().toISOString().slice(0, 10)}`];
    for (const file of files) {
      const figures = JSON.parse(fs.readFileSync(path.join(FIGURES_DIR, file), "utf8")) as Record<string, number | string>;
      for (const [name, value] of Object.entries(figures)) {
        lines.push(`${name.padEnd(48, " ")} ${typeof value === "number" ? value.toLocaleString("en-US") : value}`);
      }
    }
    if (!files.length) lines.push("(no figures recorded)");
    console.log(lines.join("\n"));
  };
}
