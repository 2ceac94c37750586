import { useRouteLoaderData } from "@remix-run/react";
import type { Theme } from "./theme";
import type { Toast } from "./toast.server";

/**
 * What the root loader gives every page that components below it read. It lives here, on a lower
 * floor than `app/root.tsx`, so components need not import the root module that renders them;
 * the root loader's return value is checked against it (`satisfies RootData`).
 */
export interface RootData {
  language: string;
  theme: Theme;
  siteUrl: string;
  themeToggleEnabled: boolean;
  toast: (Toast & { id: string }) | null;
}

export function useRootData(): RootData | undefined {
  return useRouteLoaderData("root") as RootData | undefined;
}
