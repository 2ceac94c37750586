/**
 * On the server, `react-i18next` is this file (vite.config.ts, `translationHooks`): the two things
 * the app takes from it, `I18nextProvider` and `useTranslation`, without react-i18next's per-call
 * work. Its hook spreads its options into a new object, checks every namespace is loaded, reports
 * them, and sets up state, refs and two effects on every call, for a render that never re-renders
 * and an i18next that holds every translation from the start (./i18next.server). Here a call reads
 * the request's i18next from context and returns its shared, remembering `t` for the namespace
 * (`shareFixedTs`): one Map lookup (decision 268). The browser has its own runtime (./client-runtime).
 */
import type { i18n as I18n } from "i18next";
import { createContext, createElement, useContext, type ReactNode } from "react";

const I18nContext = createContext<I18n | null>(null);

export function I18nextProvider({ i18n, children }: { i18n: I18n; children?: ReactNode }) {
  return createElement(I18nContext.Provider, { value: i18n }, children);
}

/** `t` bound to the first namespace asked (the default one when none), as react-i18next's is. */
export function useTranslation(ns?: string | readonly string[]) {
  const i18n = useContext(I18nContext);
  if (!i18n) throw new Error("useTranslation outside I18nextProvider");
  const first = typeof ns === "string" ? ns : (ns?.[0] ?? (i18n.options.defaultNS as string));
  return { t: i18n.getFixedT(null, first), i18n, ready: true };
}
