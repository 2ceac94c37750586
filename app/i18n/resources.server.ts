import type { Resource, ResourceLanguage } from "i18next";

const files = import.meta.glob<{ default: Record<string, unknown> }>("../locales/*/*.json", { eager: true });

/** Every translation, read at build time into the server bundle. */
export const resources: Resource = {};
for (const [file, mod] of Object.entries(files)) {
  const match = /locales\/([a-z]{2})\/([\w-]+)\.json$/.exec(file);
  if (!match) continue;
  const [, lng, ns] = match as unknown as [string, string, string];
  (resources[lng] ??= {} as ResourceLanguage)[ns] = mod.default;
}
