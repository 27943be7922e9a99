/**
 * Building blocks the rules share: names, money, times and the words that end a value.
 * Patterns are strings so rules can compose them; each is a non-capturing group unless named.
 */

/** A proper name of one to four words ("Lisbon", "New York City", "Rio de Janeiro", "Acme & Co"). */
export const NAME = String.raw`(?:\p{Lu}[\p{L}\p{N}'’.&-]*(?:[ -](?:(?:de|da|do|del|la|le|of|upon|am|and|&|y)[ -])?\p{Lu}[\p{L}\p{N}'’.&-]*){0,3})`;

/** An amount of money or a number with a unit ("$1,800", "85k", "2.100 €", "1.5 million"). */
export const MONEY = String.raw`(?:(?:[$€£¥₹]|USD|EUR|GBP|CHF|CAD|AUD)\s?)?\d[\d,.]*(?:\s?(?:k|K|m|M|bn|thousand|million|billion)\b)?(?:\s?(?:[$€£¥₹]|dollars?|euros?|pounds?|USD|EUR|GBP|CHF|CAD|AUD|bucks)\b)?`;

const WEEKDAYS = 'monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun';
const MONTHS =
  'january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec';

/** Words that say a value is a time: weekdays, months, clock times, dates, relative days. */
export const TIME_WORD = new RegExp(
  String.raw`\b(?:${WEEKDAYS})s?\b|\b(?:${MONTHS})\b|\b\d{1,2}(?::\d{2})?\s?(?:am|pm|h)\b|\b\d{1,2}:\d{2}\b|\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}(?:st|nd|rd|th)\b|\b(?:tomorrow|tonight|today|noon|midnight|morning|afternoon|evening|weekend|next week|next month|every|weekly|daily|biweekly|fortnightly)\b`,
  'iu',
);

/** Weekday and month names, which look like places to a capitalised-name pattern. */
export const CALENDAR_NAME = new RegExp(String.raw`^(?:${WEEKDAYS}|${MONTHS})s?\b`, 'iu');

/** Where a value ends: punctuation, a new clause, or a word that starts an explanation. */
const VALUE_END =
  /\s*(?:[;()[\]!?"“”]|,(?!\d{3})|:(?:\s|$)|\.(?:\s|$)|\s[-–—]\s|\s(?:and|but|because|since|so|which|who|where|while|when|after|before|until|though|although|as of|for now|these days|anymore|any more|no more|now|again|instead|too|as well|right now|at the moment|currently|yet|if|or)\b)/iu;

// Things and objects also end at a preposition or a time ("a Pixel 8 last week", "an iPhone with a cracked screen").
const OBJECT_END = /\s(?:with|last|this|next|ago|from|since|in|on|at|for|after|over|today|yesterday|by|of\s+mine)\b/iu;

/** An object's name at the start of `text`: a value that also ends at a preposition or a time. */
export function objectAt(text: string, words = 6): string {
  const value = valueAt(text, words);
  const end = OBJECT_END.exec(value);
  return end ? value.slice(0, end.index) : value;
}

/** The value at the start of `text`: up to where it ends (see VALUE_END), at most `words` words. */
export function valueAt(text: string, words = 6): string {
  const end = VALUE_END.exec(text);
  const head = (end ? text.slice(0, end.index) : text).trim();
  return head.split(/\s+/).slice(0, words).join(' ');
}

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

const NAME_AT = new RegExp(String.raw`^(?:the\s+)?(${NAME})`, 'u');

/** The proper name at the start of `text` (case matters: "Lisbon", not "a flat"), or undefined. */
export function nameAt(text: string): string | undefined {
  const name = NAME_AT.exec(text.trimStart())?.[1];
  if (!name || CALENDAR_NAME.test(name)) return undefined;
  return name.replace(/[.'’-]+$/u, '');
}

const MONEY_AT = new RegExp(
  String.raw`^(?:about|around|roughly|approximately|nearly|almost|just over|just under|over|under|only)?\s*(${MONEY})`,
  'iu',
);

/** The amount at the start of `text` ("$1,800 a month" → "$1,800"), or undefined. */
export function moneyAt(text: string): string | undefined {
  const money = MONEY_AT.exec(text.trimStart())?.[1]?.trim();
  return money && /\d/u.test(money) ? money.replace(/[.,]+$/u, '') : undefined;
}

/** The time expression at the start of `text` when it names a time ("Thursdays at 10am"), or undefined. */
export function timeAt(text: string): string | undefined {
  const value = valueAt(
    text.replace(/^(?:on|at|for|from|in|every)\s+/iu, (word) => word),
    8,
  );
  return TIME_WORD.test(value) ? value : undefined;
}

/**
 * A test for a rule's `mayMatch`: whether lower-case `text` has a word that starts with one
 * of `words` (a phrase counts by its first word, since the patterns allow any spacing). The
 * patterns find these words after `\b` or a space, so a word inside another never counts;
 * a word opening with punctuation (`'m`) counts anywhere. One plain pattern, no Unicode
 * classes: it runs on every clause of every fact, so it must cost far less than the rules.
 */
export function containsAny(words: readonly string[]): (text: string) => boolean {
  const needles = [...new Set(words.map((word) => word.toLowerCase().split(/\s+/u)[0] ?? '').filter(Boolean))];
  const atWordStart = needles.filter((needle) => /^[a-z0-9_]/u.test(needle)).map(escapeRegExp);
  const anywhere = needles.filter((needle) => !/^[a-z0-9_]/u.test(needle)).map(escapeRegExp);
  const parts = [
    ...(atWordStart.length > 0 ? [`(?:^|[^a-z0-9_])(?:${atWordStart.join('|')})`] : []),
    ...(anywhere.length > 0 ? [`(?:${anywhere.join('|')})`] : []),
  ];
  const test = new RegExp(parts.join('|'));
  return (text) => test.test(text);
}

/** Escape text for use inside a RegExp. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A case-insensitive, Unicode pattern from parts. */
export function pattern(source: string): RegExp {
  return new RegExp(source, 'giu');
}

// One global copy per pattern: compiling a large Unicode pattern costs more than matching a
// short clause with it, and every clause of every retained memory goes through here.
const GLOBAL_COPIES = new WeakMap<RegExp, RegExp>();

function globalCopy(regex: RegExp): RegExp {
  let global = GLOBAL_COPIES.get(regex);
  if (!global) {
    global = new RegExp(regex.source, regex.flags.includes('g') ? regex.flags : `${regex.flags}g`);
    GLOBAL_COPIES.set(regex, global);
  }
  return global;
}

/**
 * Every match of `regex` in `text` (a fresh iteration each call). The copy it runs is shared,
 * which is safe because the matches are collected before anything else can run.
 */
export function matchesOf(regex: RegExp, text: string): RegExpExecArray[] {
  const out: RegExpExecArray[] = [];
  const global = globalCopy(regex);
  global.lastIndex = 0;
  for (let match = global.exec(text); match; match = global.exec(text)) {
    out.push(match);
    if (match[0] === '') global.lastIndex++;
  }
  return out;
}
