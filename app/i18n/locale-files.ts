/**
 * How the browser's translation runtime reads a language's namespaces. This version (development,
 * Vitest) imports the JSON through Vite; the production browser build replaces this module with one
 * `import()` of `/assets/locales-<hash>.<language>.<namespace>+<namespace>….js` (vite.config.ts,
 * `localeFiles`; names sorted): a page's translations in one request (decision 272), each
 * namespace alone at `…<language>.<namespace>.js`.
 */
type Tree = { [key: string]: string | Tree };

const files = import.meta.glob<{ default: Tree }>("../locales/*/*.json");

export function readLocales(language: string, namespaces: readonly string[]): Promise<Record<string, Tree>> {
  return Promise.all(
    namespaces.map((namespace) => {
      const read = files[`../locales/${language}/${namespace}.json`];
      return read ? read().then((mod) => [namespace, mod.default] as const) : ([namespace, {}] as const);
    }),
  ).then((entries) => Object.fromEntries(entries));
}
