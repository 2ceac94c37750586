import { EventEmitter } from "node:events";

/** In-process event bus (one VM, one process): server-sent events read from it. */
const bus = new EventEmitter().setMaxListeners(0);

export interface SiteEvents {
  setting: { key: string; value: string };
}

export function publish<K extends keyof SiteEvents>(type: K, payload: SiteEvents[K]) {
  bus.emit(type, payload);
}

export function subscribe<K extends keyof SiteEvents>(type: K, listener: (payload: SiteEvents[K]) => void) {
  bus.on(type, listener);
  return () => void bus.off(type, listener);
}
