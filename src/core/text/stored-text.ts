/**
 * Lossless text for stores that keep strings as UTF-8 columns (SQLite, LanceDB/Arrow).
 *
 * A JavaScript string may hold lone surrogates (`'a\uD800b'`), which UTF-8 cannot encode: the
 * native drivers write U+FFFD in their place, so the text read back differs from the text
 * retained, and two different strings may even become equal. Before such a column is written,
 * {@link encodeStoredText} replaces every lone surrogate with {@link STORED_TEXT_MARK} followed
 * by its code unit as four upper-case hex digits; {@link decodeStoredText} undoes it on read.
 *
 * The mark is U+FDD0, a Unicode noncharacter (reserved for a process's internal use, never
 * assigned): a mark already present in the text is escaped the same way (`U+FDD0` + `FDD0`),
 * so every encoded string decodes to exactly its original and the escape is unambiguous. Text
 * with neither a lone surrogate nor the mark — all ordinary text, and everything stored
 * before this escape existed — is written and read unchanged, so search terms, fingerprints
 * and existing data are untouched.
 */

/** The escape mark: U+FDD0, a noncharacter. */
export const STORED_TEXT_MARK = '\uFDD0';

// A high surrogate not followed by a low one, a low surrogate not preceded by a high one, or
// the mark itself. No `u` flag: the pattern must see code units, not code points.
const NEEDS_ESCAPE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|\uFDD0/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const ESCAPED = /\uFDD0(D[89A-F][0-9A-F]{2}|FDD0)/g;

const hex4 = (unit: number): string => unit.toString(16).toUpperCase().padStart(4, '0');

/** `text` with lone surrogates and the mark escaped: safe for a UTF-8 column, undone by {@link decodeStoredText}. */
export function encodeStoredText(text: string): string {
  NEEDS_ESCAPE.lastIndex = 0;
  if (!NEEDS_ESCAPE.test(text)) return text;
  return text.replace(NEEDS_ESCAPE, (unit) => `${STORED_TEXT_MARK}${hex4(unit.charCodeAt(0))}`);
}

/**
 * The text {@link encodeStoredText} was given. A mark not followed by an escape it writes is
 * kept as it is (text stored before the escape existed).
 */
export function decodeStoredText(text: string): string {
  if (!text.includes(STORED_TEXT_MARK)) return text;
  return text.replace(ESCAPED, (_match, digits: string) => String.fromCharCode(Number.parseInt(digits, 16)));
}

/** {@link encodeStoredText} that passes `null` through. */
export function encodeNullableText(text: string | null): string | null {
  return text === null ? null : encodeStoredText(text);
}

/** {@link decodeStoredText} that passes `null` (and a missing value, as `null`) through. */
export function decodeNullableText(text: string | null | undefined): string | null {
  return text === null || text === undefined ? null : decodeStoredText(text);
}

/**
 * True when `text` is well-formed UTF-16 (no lone surrogate): what a field used as a key in
 * every store (ids, scope) must be, since not every store can keep a lone surrogate there.
 */
export function isWellFormedText(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}
