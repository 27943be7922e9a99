/**
 * How claim values are compared: normalised text (lower case, no articles or trailing
 * punctuation), its words, and the number an amount states.
 */

const ARTICLES =
  /^(?:a|an|the|my|our|his|her|their|its|this|that|these|those|some|new|current|old|brand new|same)\s+/iu;

/** A value as compared: lower case, no leading articles, no trailing punctuation or plural `s`. */
export function normaliseValue(value: string): string {
  let out = value
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[’`]/g, "'")
    .replace(/[.,;:!?"“”]+$/u, '')
    .trim();
  for (let previous = ''; previous !== out; ) {
    previous = out;
    out = out.replace(ARTICLES, '');
  }
  return out.replace(/\s+/g, ' ');
}

/** The words of a normalised value, singular, for comparing values that differ only by detail. */
export function valueWords(value: string): string[] {
  return value
    .split(/[^\p{L}\p{N}.$€£+#]+/u)
    .filter(Boolean)
    .map((word) => (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word));
}

/** A number in a normalised amount ("$1,800" → 1800, "85k" → 85000), or undefined. */
export function amountNumber(value: string): number | undefined {
  const match = /(\d[\d,.]*)\s?(k|m|bn|thousand|million|billion)?\b/iu.exec(value);
  if (!match?.[1]) return undefined;
  const digits = match[1];
  // "1,800" and "1.800" are thousands; "2.5" and "1,5" are decimals.
  const grouped = /^\d{1,3}(?:[,.]\d{3})+$/u.test(digits);
  const number = grouped ? Number(digits.replace(/[,.]/g, '')) : Number(digits.replace(',', '.'));
  if (!Number.isFinite(number)) return undefined;
  const unit = match[2]?.toLowerCase();
  const scale =
    unit === 'k' || unit === 'thousand'
      ? 1e3
      : unit === 'm' || unit === 'million'
        ? 1e6
        : unit === 'bn' || unit === 'billion'
          ? 1e9
          : 1;
  return number * scale;
}
