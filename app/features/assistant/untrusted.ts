/**
 * Text written by visitors (a code, a deletion reason, a suggestion, a player's name) as the model
 * reads it: never bare, always the one value of an object under UNTRUSTED_KEY, which the system
 * prompt names as data, never instructions. Shared with the transcript, which tells the admin when
 * an answer read such text.
 */
export const UNTRUSTED_KEY = "untrusted_visitor_text";

export interface UntrustedText {
  [UNTRUSTED_KEY]: string;
}

// Controls (line breaks and tabs aside), format characters (bidirectional overrides, zero-width
// characters, the invisible "tag" characters that can hide a whole sentence), line and paragraph
// separators, and the angle brackets and ampersand a fake end-of-data marker or markup would need.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const DISGUISING = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029<>&]|\p{Cf}/gu;

/** The visitor's text with every character that could hide or disguise something written out as `\u{…}`. */
export function escapeVisitorText(text: string): string {
  return text.replace(DISGUISING, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);
}

export function untrusted(text: string): UntrustedText;
export function untrusted(text: string | null): UntrustedText | null;
export function untrusted(text: string | null): UntrustedText | null {
  return text === null ? null : { [UNTRUSTED_KEY]: escapeVisitorText(text) };
}

/** Whether a tool result's JSON holds visitor text (a visitor cannot forge the key: their quotes are escaped). */
export function holdsVisitorText(json: string): boolean {
  return json.includes(`"${UNTRUSTED_KEY}":`);
}
