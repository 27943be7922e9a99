import { porterStem } from './porter-stemmer.js';
import { ENGLISH_STOP_WORDS } from './stop-words.js';

// Scripts written without spaces between words: each character becomes its own token.
const UNSEGMENTED_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;
const WORD = /[\p{L}\p{N}]+/gu;

/** Lower-case, strip diacritics (é → e) and apply Unicode compatibility folding. */
export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/** Split folded text into words, splitting unsegmented scripts into single characters. */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  for (const match of foldText(text).matchAll(WORD)) {
    const word = match[0];
    if (!UNSEGMENTED_SCRIPT.test(word)) {
      words.push(word);
      continue;
    }
    let run = '';
    for (const ch of word) {
      if (UNSEGMENTED_SCRIPT.test(ch)) {
        if (run) words.push(run);
        run = '';
        words.push(ch);
      } else run += ch;
    }
    if (run) words.push(run);
  }
  return words;
}

// Word frequencies are Zipf-like, so a bounded memo of stems saves most of the stemming work.
const STEM_CACHE_LIMIT = 50_000;
const stems = new Map<string, string>();

function stem(word: string): string {
  let stemmed = stems.get(word);
  if (stemmed === undefined) {
    stemmed = porterStem(word);
    if (stems.size >= STEM_CACHE_LIMIT) stems.clear();
    stems.set(word, stemmed);
  }
  return stemmed;
}

/**
 * The index terms of a text: folded words without English stop words, Porter-stemmed.
 * Both the lexical index and the local embedder use it, so a query matches the same
 * word forms in either.
 */
export function analyzeTerms(text: string): string[] {
  return termsOfWords(splitWords(text));
}

/** {@link analyzeTerms} for words already split by {@link splitWords}. */
export function termsOfWords(words: readonly string[]): string[] {
  const terms: string[] = [];
  for (const word of words) {
    if (ENGLISH_STOP_WORDS.has(word)) continue;
    terms.push(stem(word));
  }
  return terms;
}
