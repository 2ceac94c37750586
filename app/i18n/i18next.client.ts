/**
 * The browser's i18next, as react-i18next's documentation sets it up: `initReactI18next`, the
 * languages and options of ./config, and a backend that reads a language's namespaces from the
 * build's locale modules (./locale-files). The server rendered the page with the same texts
 * (./i18next.server); the browser loads only what the page shows before hydrating (entry.client.tsx).
 */
import i18next, { type BackendModule, type ReadCallback, type ResourceKey } from "i18next";
import { initReactI18next } from "react-i18next";
import { i18nBaseOptions } from "./config";
import { readLocales } from "./locale-files";

type Waiting = { namespace: string; callback: ReadCallback };

/**
 * i18next asks its backend for one namespace at a time, all in the same tick when it loads several;
 * they are read here in one request per language (decision 272): i18next's backend interface has no
 * call for several namespaces at once, and a page's three or four files in separate requests cost a
 * phone as many round trips.
 */
const batchedLocales: BackendModule = {
  type: "backend",
  init() {},
  read: (() => {
    const waiting = new Map<string, Waiting[]>();
    return (language: string, namespace: string, callback: ReadCallback) => {
      let batch = waiting.get(language);
      if (batch) return void batch.push({ namespace, callback });
      waiting.set(language, (batch = [{ namespace, callback }]));
      queueMicrotask(() => {
        waiting.delete(language);
        const asked = batch;
        readLocales(
          language,
          asked.map((w) => w.namespace),
        ).then(
          (trees) => {
            for (const w of asked) w.callback(null, (trees[w.namespace] ?? {}) as ResourceKey);
          },
          (error: Error) => {
            for (const w of asked) w.callback(error, false);
          },
        );
      });
    };
  })(),
};

/** Starts i18next with the page's language and the namespaces it shows; resolves once they are loaded. */
export function startI18n(lng: string, ns: readonly string[]) {
  return i18next
    .use(batchedLocales)
    .use(initReactI18next)
    .init({
      ...i18nBaseOptions,
      supportedLngs: [...i18nBaseOptions.supportedLngs],
      lng,
      ns: [...ns],
      // The server renders with the same language: nothing to detect in the browser.
      react: { useSuspense: true },
    });
}
