// Characters the JSON locator and the repairer agree on.

const WHITESPACE = /\s/;

/**
 * Whether `ch` is whitespace as `String.prototype.trim` sees it. Called for almost every
 * character of a reply, so ASCII is decided without a regular expression.
 */
export function isWhitespace(ch: string): boolean {
  const code = ch.charCodeAt(0);
  if (code < 0xa0) return code === 32 || (code >= 9 && code <= 13);
  return WHITESPACE.test(ch);
}

// Maps, not object literals: a lookup by arbitrary model text must never reach Object.prototype.
/** Quotes that open a string, each with the quotes that may close it. */
export const STRING_CLOSERS: ReadonlyMap<string, readonly string[]> = new Map([
  ['"', ['"']],
  ["'", ["'"]],
  ['\u201c', ['\u201d', '\u201c']],
  ['\u201d', ['\u201d', '\u201c']],
  ['\u2018', ['\u2019', '\u2018']],
  ['\u2019', ['\u2019', '\u2018']],
]);
