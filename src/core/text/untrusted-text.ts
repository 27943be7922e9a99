// Text someone else wrote — memories, conversations, tool output — goes into prompts as
// data. One sanitiser for every prompt (formatContext and the pipeline's prompts), so that
// what one renderer neutralises no other lets through:
// - characters that render as nothing or reorder what is shown are removed: they can hide
//   instructions from a human reviewing the prompt while the model still reads them;
// - a line that Markdown would take for a heading gets a backslash, so data cannot open a
//   section of the prompt it sits in;
// - `&`, `<` and `>` become entities, so data can neither close the block it sits in nor
//   forge a new one.

// Every line break a renderer might honour becomes `\n` first, so the heading rule below sees
// the lines a reader sees: CRLF, CR, vertical tab, form feed, NEL, line and paragraph separators.
const LINE_BREAKS = /\r\n?|[\v\f\u0085\u2028\u2029]/g;

// Controls other than tab and newline; format characters (zero-width space, joiners, bidi
// marks, embeddings, overrides and isolates, soft hyphen, BOM, Unicode tags U+E0000–E007F);
// and every other default-ignorable code point (variation selectors, which can smuggle bytes
// one per selector, Hangul fillers, the combining grapheme joiner). Joiners and variation
// selectors go too: the model reads the text the same without them, and keeping "one between
// two letters" would still leave a channel of one bit per letter.
const HIDDEN = /(?![\t\n])[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]/gu;

// Half of a surrogate pair on its own cannot be encoded; it becomes the replacement character.
const LONE_SURROGATE = /\p{Cs}/gu;

// A line opening with `#`s then a space or nothing is an ATX heading; a line of only `=` or `-`
// turns the line above into a setext heading. Leading spaces of any kind are allowed: a model
// does not count to three the way CommonMark does.
const ATX_HEADING = /^([^\S\n]*)(#+)(?=\s|$)/gmu;
const SETEXT_UNDERLINE = /^([^\S\n]*)(=+|-+)([^\S\n]*)$/gmu;

/** Remove hidden characters and turn every kind of line break into `\n`; nothing is escaped. */
export function stripHiddenText(text: string): string {
  return String(text).replace(LINE_BREAKS, '\n').replace(LONE_SURROGATE, '\uFFFD').replace(HIDDEN, '');
}

/**
 * Escape untrusted text for the body of a prompt data block: hidden characters removed, line
 * breaks made `\n`, a backslash before a line-leading Markdown heading (`\# Title`, `\===`),
 * and `&`, `<`, `>` written as `&amp;`, `&lt;`, `&gt;`. Tabs and newlines are kept.
 */
export function escapeUntrustedText(text: string): string {
  return stripHiddenText(text)
    .replace(ATX_HEADING, '$1\\$2')
    .replace(SETEXT_UNDERLINE, '$1\\$2$3')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/**
 * Escape untrusted text that must stay on one line: an attribute value or a heading. Hidden
 * characters are removed, every run of whitespace (newlines included) becomes one space, the
 * ends are trimmed, and `&`, `<`, `>`, `"` become entities.
 */
export function escapeUntrustedLine(text: string): string {
  return stripHiddenText(text)
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}
