/**
 * How the browser's translation runtime reads one language's namespace. This version (development,
 * Vitest) imports the JSON through Vite; the production browser build replaces this module with an
 * `import()` of `/assets/locales-<hash>.<language>.<namespace>.js` (vite.config.ts, `localeFiles`):
 * one URL pattern instead of a table of 68 loaders in every page's layout chunk (decision 252).
 */
type Tree = { [key: string]: string | Tree };

const files = import.meta.glob<{ default: Tree }>("../locales/*/*.json");

export function readLocale(language: string, namespace: string): Promise<Tree> {
  const read = files[`../locales/${language}/${namespace}.json`];
  return read ? read().then((mod) => mod.default) : Promise.resolve({});
}
