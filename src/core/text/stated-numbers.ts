import { foldText } from './analyze.js';

// The numbers a text states. "User has two siblings" and "User has three siblings" embed
// almost alike (a neural encoder puts them above 0.95), and "May 12" / "May 21" share every
// hashed feature but one: a step that merges on similarity alone checks that two texts state
// the same numbers before it treats them as one statement.

// Zero to twenty, each at its own value.
const WORDS = new Map<string, number>(
  'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty'
    .split(' ')
    .map((word, index) => [word, index] as const),
);
for (const [word, value] of [
  ['thirty', 30],
  ['forty', 40],
  ['fifty', 50],
  ['sixty', 60],
  ['seventy', 70],
  ['eighty', 80],
  ['ninety', 90],
  ['hundred', 100],
  ['thousand', 1000],
  ['million', 1_000_000],
  ['dozen', 12],
  ['first', 1],
  ['second', 2],
  ['third', 3],
  ['fourth', 4],
  ['fifth', 5],
  ['once', 1],
  ['twice', 2],
  ['both', 2],
  ['single', 1],
  ['half', 0.5],
] as const)
  WORDS.set(word, value);
// Months and weekdays are numbers of a calendar: "starts in April" and "starts in January" differ
// as "May 12" and "May 21" do. Kept apart from plain numbers ("may" the verb is too common).
const CALENDAR = new Map<string, string>([
  ...'january february march april june july august september october november december'
    .split(' ')
    .map((month) => [month, `month:${month}`] as const),
  ...'monday tuesday wednesday thursday friday saturday sunday'.split(' ').map((day) => [day, `day:${day}`] as const),
]);

// A run of digits with its separators ("1,200", "3.5", "12:30"), or a word.
const TOKEN = /\d+(?:[.,:/]\d+)*|[\p{L}]+/gu;

/**
 * The numbers a text states, in digits or words, and the months and weekdays it names, as sorted strings ("1,200" and "1200" alike;
 * "12:30" kept whole, so times and dates compare as stated).
 *
 * @param text - Any text.
 * @returns The numbers, sorted.
 */
export function statedNumbers(text: string): string[] {
  const numbers: string[] = [];
  for (const [token] of foldText(text).matchAll(TOKEN)) {
    if (/^\d/.test(token)) {
      // A thousands separator is not a decimal point: "1,200" is 1200, "3.5" stays 3.5.
      const plain = /^\d{1,3}(?:,\d{3})+$/.test(token) ? token.replaceAll(',', '') : token;
      numbers.push(plain.replace(/^0+(?=\d)/, ''));
      continue;
    }
    const value = WORDS.get(token);
    if (value !== undefined) numbers.push(String(value));
    const date = CALENDAR.get(token);
    if (date !== undefined) numbers.push(date);
  }
  return numbers.sort();
}

/**
 * Whether two texts state the same numbers: two that do not ("two siblings" / "three
 * siblings", "May 12" / "May 21", "in April" / "in January") cannot be one statement, however close their vectors are.
 *
 * @param a - One text.
 * @param b - The other.
 * @returns True when both state the same numbers (or none).
 */
export function numbersAlike(a: string, b: string): boolean {
  const left = statedNumbers(a);
  const right = statedNumbers(b);
  return left.length === right.length && left.every((value, index) => value === right[index]);
}
