/**
 * Explicit correction phrasing, rewritten before the rules read a clause so that they see
 * the corrected statement only: "Actually, my rent is 1,900, not 1,800" → "my rent is 1,900";
 * "the sync is not on Tuesday but on Wednesday" → "the sync is on Wednesday". "No longer",
 * "cancelled" and "moved to" are read by the rules themselves (negation, schedules, homes).
 */

// Markers that only announce a correction; the statement after them is what counts.
const MARKERS =
  /^(?:(?:well|oh|oops|sorry|correction|update|edit|erratum|to be clear|to clarify|actually|in fact|as it turns out|it turns out|scratch that|wait|no)\b[,:!]?\s*|i\s+misspoke\b[,:;.!—–-]*\s*|i\s+meant(?:\s+to\s+say)?\b[,:]?\s*|let me correct (?:myself|that)\b[,:.]?\s*)+/iu;

// "not X but Y" → "Y", keeping a preposition Y had ("not on Tuesday but on Wednesday").
const NOT_BUT = /\bnot\s+(?:on\s+|in\s+|at\s+|for\s+)?(?:[^,;.]|[,.](?=\d)){1,60}?,?\s+but\s+(?:rather\s+)?/giu;
// "X, not Y" at the end of a clause → "X".
const COMMA_NOT =
  /,?\s+(?:and\s+)?not\s+(?:on\s+|in\s+|at\s+|for\s+)?(?:[^,;.]|[,.](?=\d)){1,60}?(?=$|[;!?]|[,.](?!\d))/giu;

/** Whether `text` says it corrects something said before. */
export function announcesCorrection(text: string): boolean {
  return (
    MARKERS.test(text.trimStart()) ||
    /\b(?:i misspoke|correction|not\s+[^,;.]{1,60}\s+but)\b/iu.test(text) ||
    /,\s+not\s+/iu.test(text)
  );
}

/** The clause with correction markers dropped and "not X but Y" / "X, not Y" reduced to the corrected value. */
export function rewriteCorrections(clause: string): string {
  let out = clause.trimStart().replace(MARKERS, '');
  out = out.replace(NOT_BUT, '');
  // A "not" that negates a verb ("does not live", "is not a fan") is not a correction of a value.
  out = out.replace(COMMA_NOT, (whole) => (/^,/u.test(whole) ? '' : whole));
  return out.trim();
}
