/**
 * Reading a typed value from the tokens after its frame: a place, a name, a title, an amount,
 * a time, a thing or a literal. Each reader returns the value's text and where it ends, or
 * undefined when the tokens there are not such a value.
 */
import type { ValueKind } from './family.js';
import type { Token } from './parser.js';
import { TITLE_WORDS } from './titles.js';

/** A value read at a place in a clause. */
export interface ValueSpan {
  /** The value as written. */
  text: string;
  /** Index after its last token. */
  end: number;
}

const WEEKDAYS = new Set(
  'monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thurs fri sat sun'.split(' '),
);
const MONTHS = new Set(
  'january february march april may june july august september october november december jan feb mar apr jun jul aug sep sept oct nov dec'.split(
    ' ',
  ),
);
const TIME_WORDS = new Set(
  "noon midnight morning mornings afternoon afternoons evening evenings tonight tomorrow today weekend weekends week month year am pm a.m. p.m. o'clock daily weekly biweekly fortnightly monthly quarterly".split(
    ' ',
  ),
);
const NAME_JOINERS = new Set([
  'of',
  'de',
  'da',
  'do',
  'del',
  'la',
  'le',
  'upon',
  'am',
  'and',
  '&',
  'y',
  'van',
  'von',
  'der',
  'di',
]);
const SKIPPED_BEFORE_VALUE = new Set([
  ...'a an the this that my our his her their its your some one new brand current'.split(' '),
  ...'now currently still again also just finally officially already back over right really'.split(' '),
]);
const CURRENCY_WORDS = new Set(
  'euro euros eur dollar dollars usd pound pounds gbp chf francs yen cad aud bucks k grand quid sek nok dkk pln inr rupees'.split(
    ' ',
  ),
);
const UNIT_WORDS = new Set(
  'kg kgs kilo kilos kilogram kilograms lb lbs pound pounds g gram grams km kms kilometer kilometers kilometre kilometres mile miles m meter meters metre metres minute minutes min mins hour hours hr hrs day days gb tb mb percent % sqm sq ft feet people users seats stone st'.split(
    ' ',
  ),
);
const MULTIPLIERS = new Set(['k', 'm', 'bn', 'thousand', 'million', 'billion', 'grand']);

/** Whether a token names a day, month or clock time. */
export function isTimeToken(token: Token): boolean {
  const bare = token.lower.replace(/s$/u, '');
  return (
    token.shape === 'time' ||
    WEEKDAYS.has(token.lower) ||
    WEEKDAYS.has(bare) ||
    MONTHS.has(token.lower) ||
    TIME_WORDS.has(token.lower) ||
    /^\d{1,2}(?::\d{2})?(?:am|pm|h)$/u.test(token.lower) ||
    /^\d{1,2}:\d{2}$/u.test(token.lower) ||
    /^\d{4}-\d{2}-\d{2}$/u.test(token.lower) ||
    /^\d{1,2}(?:st|nd|rd|th)$/u.test(token.lower)
  );
}

const capitalised = (token: Token) => /^\p{Lu}/u.test(token.text);
const wordish = (token: Token) => token.shape === 'word' || token.shape === 'number';

/** Skip articles, possessives and adverbs ("now", "still") before a value. */
export function skipFiller(tokens: readonly Token[], start: number): number {
  let index = start;
  while (index < tokens.length && SKIPPED_BEFORE_VALUE.has(tokens[index]!.lower)) index += 1;
  return index;
}

/** A proper name: capitalised words, with "of", "de", numbers and versions inside ("GitHub Actions", "Rio de Janeiro", "Node 20"). */
export function nameAt(tokens: readonly Token[], start: number, allowLower = false): ValueSpan | undefined {
  let index = skipFiller(tokens, start);
  const first = tokens[index];
  if (
    !first ||
    !wordish(first) ||
    (!capitalised(first) &&
      !(allowLower && !['DET', 'PRON', 'ADP', 'CCONJ', 'SCONJ', 'AUX', 'PART'].includes(first.pos)))
  )
    return undefined;
  if (isTimeToken(first) || first.pos === 'PRON' || first.pos === 'DET') return undefined;
  const parts: string[] = [];
  while (index < tokens.length && parts.length < 6) {
    const token = tokens[index]!;
    const joiner =
      NAME_JOINERS.has(token.lower) &&
      parts.length > 0 &&
      capitalised(tokens[index + 1] ?? token) &&
      tokens[index + 1]?.shape === 'word';
    const part =
      (wordish(token) && (capitalised(token) || (allowLower && parts.length === 0))) ||
      (parts.length > 0 && (token.shape === 'number' || /^v?\d[\d.]*$/u.test(token.lower))) ||
      (parts.length > 0 && token.text === '-' && capitalised(tokens[index + 1] ?? token));
    if (!(part || joiner) || (parts.length > 0 && isTimeToken(token) && !/^\d/u.test(token.text))) break;
    parts.push(token.text);
    index += 1;
  }
  while (parts.length > 0 && NAME_JOINERS.has(parts[parts.length - 1]!.toLowerCase())) {
    parts.pop();
    index -= 1;
  }
  return parts.length === 0 ? undefined : { text: parts.join(' ').replace(/ - /gu, '-'), end: index };
}

/** A place: a proper name that is not a day or month. */
export function placeAt(tokens: readonly Token[], start: number): ValueSpan | undefined {
  const name = nameAt(tokens, start);
  if (!name) return undefined;
  const first = tokens[skipFiller(tokens, start)]!;
  return isTimeToken(first) ? undefined : name;
}

/** A noun phrase: adjectives, nouns and names, up to six words ("a Tesla Model 3", "oat milk lattes"). */
export function thingAt(tokens: readonly Token[], start: number): ValueSpan | undefined {
  let index = skipFiller(tokens, start);
  const parts: string[] = [];
  while (index < tokens.length && parts.length < 6) {
    const token = tokens[index]!;
    const inside =
      ['NOUN', 'PROPN', 'ADJ', 'NUM', 'X'].includes(token.pos) ||
      (token.pos === 'VERB' &&
        /ing$/u.test(token.lower) &&
        (parts.length === 0 || tokens[index + 1]?.pos === 'NOUN')) ||
      (token.text === '-' && parts.length > 0) ||
      (token.lower === 'of' && parts.length > 0 && ['NOUN', 'PROPN'].includes(tokens[index + 1]?.pos ?? ''));
    if (!inside || (parts.length > 0 && isTimeToken(token) && token.pos !== 'PROPN')) break;
    if (token.shape === 'punctuation' && token.text !== '-') break;
    parts.push(token.text);
    index += 1;
  }
  while (parts.length > 0 && /^(?:of|-)$/u.test(parts[parts.length - 1]!)) {
    parts.pop();
    index -= 1;
  }
  return parts.length === 0 ? undefined : { text: parts.join(' ').replace(/ - /gu, '-'), end: index };
}

/** A job title (a phrase ending in a job word), with the employer after "at"/"for"/"with" when one follows. */
export function titleAt(tokens: readonly Token[], start: number): ValueSpan | undefined {
  let index = skipFiller(tokens, start);
  const parts: Token[] = [];
  let lastTitle = -1;
  while (index < tokens.length && parts.length < 8) {
    const token = tokens[index]!;
    const inside =
      ['NOUN', 'PROPN', 'ADJ', 'NUM', 'X'].includes(token.pos) ||
      (token.text === '-' && parts.length > 0) ||
      (['of', 'for'].includes(token.lower) &&
        parts.length > 0 &&
        lastTitle >= 0 &&
        ['NOUN', 'PROPN'].includes(tokens[index + 1]?.pos ?? ''));
    if (!inside || (token.shape === 'punctuation' && token.text !== '-')) break;
    parts.push(token);
    if (TITLE_WORDS.has(token.lemma) || TITLE_WORDS.has(token.lower)) lastTitle = parts.length;
    index += 1;
  }
  if (lastTitle < 0) return undefined;
  // "Director of Engineering for payments": a title ends at its last job word, or the phrase
  // it heads ("of Engineering"), not at what the job is about.
  let end = lastTitle;
  while (end < parts.length && parts[end]!.lower === 'of' && parts[end + 1]) end += 2;
  const title = parts
    .slice(0, end)
    .map((token) => token.text)
    .join(' ')
    .replace(/ - /gu, '-');
  let after = start + (index - start) - (parts.length - end);
  const employer = employerAfter(tokens, after);
  if (employer) after = employer.end;
  return { text: employer ? `${title} at ${employer.text}` : title, end: after };
}

/** "at Adyen", "for payments at Adyen", "with Stripe" within a few words after a title. */
function employerAfter(tokens: readonly Token[], start: number): ValueSpan | undefined {
  for (let index = start; index < Math.min(tokens.length, start + 6); index += 1) {
    const token = tokens[index]!;
    if (token.shape === 'punctuation' || token.pos === 'VERB' || token.pos === 'AUX') return undefined;
    if (['at', 'with'].includes(token.lower) || (token.lower === 'for' && capitalised(tokens[index + 1] ?? token))) {
      const name = nameAt(tokens, index + 1);
      if (name) return name;
    }
  }
  return undefined;
}

const amountNumber = (token: Token) =>
  (token.shape === 'number' || token.pos === 'NUM' || /^\d[\d,.]*(?:k|m|bn)?$/iu.test(token.lower)) &&
  /\d/u.test(token.text);
const isYear = (token: Token) => /^(?:19|20)\d{2}$/u.test(token.text);

/** An amount anywhere from `start`: the one after "to" when the clause says "from X to Y", else the first. */
export function amountAt(tokens: readonly Token[], start: number, stop = tokens.length): ValueSpan | undefined {
  const found: Array<ValueSpan & { afterTo: boolean; from: boolean }> = [];
  for (let index = start; index < stop; index += 1) {
    const token = tokens[index]!;
    if (!amountNumber(token) || isTimeToken(token)) continue;
    const previous = tokens[index - 1];
    const currencyBefore =
      previous !== undefined && (previous.shape === 'currency' || /^[$€£¥₹]$/u.test(previous.text));
    if (isYear(token) && !currencyBefore) continue;
    let end = index + 1;
    const parts = [currencyBefore ? `${previous!.text}${token.text}` : token.text];
    // "95k." is read as "95" and "k.": the multiplier keeps no sentence's full stop.
    if (MULTIPLIERS.has((tokens[end]?.lower ?? '').replace(/\.$/u, '')))
      parts.push(tokens[end++]!.text.replace(/\.$/u, ''));
    const unit = tokens[end];
    if (unit && (CURRENCY_WORDS.has(unit.lower) || UNIT_WORDS.has(unit.lower) || unit.shape === 'currency')) {
      parts.push(unit.text);
      end += 1;
    }
    const bare = !currencyBefore && parts.length === 1;
    // A bare small number is a count ("2 kids"), not an amount, unless a unit word follows later.
    if (bare && /^\d{1,2}$/u.test(token.text) && !/^\d/u.test(token.text.slice(2))) {
      const next = tokens[end];
      if (next && next.pos === 'NOUN' && !CURRENCY_WORDS.has(next.lower)) continue;
    }
    found.push({
      text: parts.join(' ').replace(/(\d) (k|m|bn)\b/iu, '$1$2'),
      end,
      afterTo:
        ['to', 'at', 'is', 'now'].includes(previous?.lower ?? '') ||
        (currencyBefore && ['to', 'at'].includes(tokens[index - 2]?.lower ?? '')),
      from: previous?.lower === 'from' || (currencyBefore && tokens[index - 2]?.lower === 'from'),
    });
  }
  const notFrom = found.filter((value) => !value.from);
  return notFrom.find((value) => value.afterTo) ?? notFrom[0];
}

/** A time: days, dates and clock times together ("Friday at 10am", "the 3rd of May", "Tuesdays"). */
export function timeAt(tokens: readonly Token[], start: number): ValueSpan | undefined {
  let index = start;
  while (index < tokens.length && ['the', 'on', 'at', 'every', 'next', 'this', 'a'].includes(tokens[index]!.lower))
    index += 1;
  const parts: string[] = [];
  let real = false;
  while (index < tokens.length && parts.length < 8) {
    const token = tokens[index]!;
    // "March 21", "21 March", "the 3rd": a day number beside a month is part of the date.
    const previous = tokens[index - 1];
    const dayOfMonth =
      /^\d{1,2}(?:st|nd|rd|th)?$/u.test(token.lower) &&
      ((previous !== undefined && MONTHS.has(previous.lower)) || MONTHS.has(tokens[index + 1]?.lower ?? ''));
    // "at 11", "at 9:30": an hour after "at" in a time already begun.
    const hour = /^\d{1,2}(?::\d{2})?$/u.test(token.lower) && previous?.lower === 'at' && parts.length > 1;
    const time = isTimeToken(token) || dayOfMonth || hour || (/^\d{4}$/u.test(token.text) && parts.length > 0);
    const glue =
      ['at', 'on', 'the', 'of', 'every', 'next', 'from', 'and', '-', 'to'].includes(token.lower) ||
      token.shape === 'number' ||
      /^\d/u.test(token.text);
    const next = tokens[index + 1];
    const nextIsTime =
      next !== undefined && (isTimeToken(next) || (token.lower === 'at' && /^\d{1,2}(?::\d{2})?$/u.test(next.lower)));
    if (!time && !(glue && parts.length > 0 && nextIsTime)) {
      if (!(token.shape === 'number' && parts.length === 0 && isTimeToken(tokens[index + 1] ?? token))) break;
    }
    if (time) real = true;
    parts.push(token.text);
    index += 1;
  }
  return real ? { text: parts.join(' '), end: index } : undefined;
}

/** A literal: a URL, e-mail, number or name ("https://api.acme.io/v2", "8080", "eu-west-1", "Dana"). */
export function literalAt(tokens: readonly Token[], start: number): ValueSpan | undefined {
  const index = skipFiller(tokens, start);
  const token = tokens[index];
  if (!token) return undefined;
  if (['url', 'email'].includes(token.shape) || /^[\w.-]+\.[a-z]{2,}(?:\/\S*)?$/iu.test(token.text))
    return { text: token.text.replace(/[.,;]+$/u, ''), end: index + 1 };
  if (token.shape === 'number' || /^\d/u.test(token.text)) return { text: token.text, end: index + 1 };
  if (/^[a-z0-9]+(?:[-_][a-z0-9]+)+$/iu.test(token.text)) return { text: token.text, end: index + 1 };
  return nameAt(tokens, index);
}

/** The value of `kind` at `start` (`stop` bounds amounts). */
export function valueAt(kind: ValueKind, tokens: readonly Token[], start: number): ValueSpan | undefined {
  switch (kind) {
    case 'place':
      return placeAt(tokens, start);
    case 'name':
      return nameAt(tokens, start, true);
    case 'title':
      return titleAt(tokens, start) ?? nameAt(tokens, start);
    case 'amount':
      return amountAt(tokens, start);
    case 'time':
      return timeAt(tokens, start);
    case 'thing':
      return thingAt(tokens, start);
    case 'literal':
      return literalAt(tokens, start);
  }
}
