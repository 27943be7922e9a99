import { foldText } from './analyze.js';

// How many times a text says "not". Embedders read past it: the local hashing embedder drops
// "not" with the other stop words ("User is a morning person." and "User is not a morning
// person." embed to cosine 1.0), and a neural one puts the two close. Steps that act on
// similarity alone, without a model to read the words, check it before treating two texts as
// one statement.

const NEGATIONS = new Set([
  'not',
  'no',
  'never',
  'none',
  'nobody',
  'nothing',
  'neither',
  'nor',
  'nowhere',
  'cannot',
  'without',
]);

// Words with an apostrophe kept whole, so "don't" is one word, not "don" and "t".
const WORD = /[\p{L}\p{N}]+(?:'[\p{L}]+)*/gu;

/**
 * The negations in a text: "not", "never", "no", … and every "n't" ("don't", "isn't").
 *
 * @param text - Any text.
 * @returns How many there are.
 */
export function negationCount(text: string): number {
  let count = 0;
  for (const [word] of foldText(text).replace(/[’‘`]/g, "'").matchAll(WORD)) {
    if (NEGATIONS.has(word) || word.endsWith("n't")) count += 1;
  }
  return count;
}

/**
 * Whether two texts negate alike (as many negations each): two that do not cannot be the same
 * statement, however close their vectors are.
 *
 * @param a - One text.
 * @param b - The other.
 * @returns True when their negation counts are equal.
 */
export function negateAlike(a: string, b: string): boolean {
  return negationCount(a) === negationCount(b);
}
