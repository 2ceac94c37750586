import { useFetcher, useLocation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useRootData } from "~/utils/root-data";
import * as layout from "~/styles/layout.css";
import { afterLoadWhenIdle } from "~/utils/after-load";
import { THEME_COOKIE, type Theme } from "~/utils/theme";
import { MoonIcon, SunIcon } from "./icons";

/** Theme toggle: a POST to /preferences that works without JS; with JS it switches at once. */
export function ThemeForm() {
  const { t } = useTranslation();
  const root = useRootData();
  const fetcher = useFetcher();
  const location = useLocation();
  const pending = fetcher.formData?.get("theme");
  const current: Theme = pending === "light" || pending === "dark" ? pending : (root?.theme ?? "dark");
  const next: Theme = current === "dark" ? "light" : "dark";

  useEffect(() => {
    document.documentElement.dataset.theme = current;
  }, [current]);

  return (
    <fetcher.Form method="post" action="/preferences" className={layout.inlineForm} onSubmit={() => applyTheme(next)}>
      <input type="hidden" name="intent" value="set-theme" />
      <input type="hidden" name="theme" value={next} />
      <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
      <button type="submit" className={layout.iconButton} aria-label={t(next === "light" ? "theme.toLight" : "theme.toDark")}>
        {current === "dark" ? <SunIcon /> : <MoonIcon />}
      </button>
    </fetcher.Form>
  );
}

/**
 * With JS, the choice is stored before the POST leaves, in a fixed order: the cookie the server
 * reads (so a reload at any moment renders the new theme), then localStorage, then the page. The
 * POST sets the same cookie again; without JS it is the only writer.
 */
function applyTheme(theme: Theme) {
  const secure = location.protocol === "https:" ? "; Secure" : "";
  document.cookie = `${THEME_COOKIE}=${theme}; Path=/; Max-Age=${60 * 60 * 24 * 365}; SameSite=Lax${secure}`;
  try {
    localStorage.setItem("theme", theme);
  } catch {
    // storage unavailable
  }
  document.documentElement.dataset.theme = theme;
}

/**
 * The setting's value, kept live by the server's event stream while the page is visible (opened once
 * the page has loaded and the browser is idle). A hidden
 * page closes its stream and opens a new one when it is shown again, whose first event is the current
 * value: a tab left in the background holds no connection (each open stream takes one of the places
 * Fly's proxy gives the machine, decision 280). Where the server has no room for another stream it
 * answers 204, the browser does not reconnect, and the page asks again the next time it is shown.
 * Hand-written: remix-utils' useEventSource keeps its stream open while the tab is hidden.
 */
export function useThemeToggleEnabled(initial: boolean): boolean {
  const [enabled, setEnabled] = useState(initial);
  useEffect(() => setEnabled(initial), [initial]);
  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    let source: EventSource | null = null;
    const open = () => {
      if (source && source.readyState !== EventSource.CLOSED) return;
      source = new EventSource("/events/settings");
      source.addEventListener("setting", (event) => {
        try {
          const { key, value } = JSON.parse((event as MessageEvent<string>).data) as { key: string; value: string };
          if (key === "enable_theme_toggle") setEnabled(value === "true");
        } catch {
          // ignore a malformed event
        }
      });
    };
    const close = () => {
      source?.close();
      source = null;
    };
    const onVisibility = () => (document.visibilityState === "hidden" ? close() : open());
    // Not during the page's load: its first event is the current value, so nothing is missed meanwhile.
    const cancelStart = afterLoadWhenIdle(() => {
      if (document.visibilityState !== "hidden") open();
      document.addEventListener("visibilitychange", onVisibility);
    });
    return () => {
      cancelStart();
      document.removeEventListener("visibilitychange", onVisibility);
      close();
    };
  }, []);
  return enabled;
}
