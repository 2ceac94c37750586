/**
 * A form message that needs values ('“{{name}}” already exists') travels as one string, key and
 * values together, so wherever the message is shown later (a re-render, a form library's kept state)
 * it is translated with its values and never shows a raw `{{name}}`.
 */
const SEPARATOR = "|";

export function messageWithValues(key: string, values: Record<string, string | number>): string {
  return `${key}${SEPARATOR}${JSON.stringify(values)}`;
}

export function parseMessage(message: string): { key: string; values?: Record<string, string | number> } {
  const at = message.indexOf(SEPARATOR);
  if (at < 0) return { key: message };
  try {
    return { key: message.slice(0, at), values: JSON.parse(message.slice(at + 1)) as Record<string, string | number> };
  } catch {
    return { key: message.slice(0, at) };
  }
}

/** `t` of the message's namespace, applied to a message made by messageWithValues (or a bare key). */
export function translateMessage(t: (key: string, values?: Record<string, unknown>) => string, message: string): string {
  const { key, values } = parseMessage(message);
  return t(key, values);
}
