import { createRequire } from "node:module";

/**
 * Runs what must hold before the port opens (configuration, database). When it fails, the operator
 * gets the reason in a line or two, without a stack (the app words it: which file, what is wrong,
 * what to do), and the process exits 1.
 */
export async function startOrExplain<T>(start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (error) {
    console.error(`Parrainly cannot start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

/** Which React DOM server build this process loaded, read from the module cache (for the start-up line). */
export function reactBuildLoaded(): "production" | "development" | "unknown" {
  const files = Object.keys(createRequire(import.meta.url).cache);
  if (files.some((file) => /react-dom-server[^/]*\.development\.js$/.test(file))) return "development";
  if (files.some((file) => /react-dom-server[^/]*\.production(\.min)?\.js$/.test(file))) return "production";
  return "unknown";
}
