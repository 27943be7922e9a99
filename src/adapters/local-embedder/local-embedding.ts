import { foldText, splitWords, termsOfWords } from '../../core/text/analyze.js';
import { ENGLISH_STOP_WORDS } from '../../core/text/stop-words.js';

// Feature groups. Each has its own hash seed so that, say, the word "ing" and the
// character trigram "ing" land in unrelated buckets.
const UNIGRAM_SEED = 0x9e3779b9;
const BIGRAM_SEED = 0x85ebca6b;
const CHAR_SEED = 0xc2b2ae35;

// Whole stemmed words carry most of the meaning; bigrams add word order and phrases;
// character n-grams catch spelling variants, compounds and words the stemmer misses,
// but are many per word, so each gets a small weight.
const UNIGRAM_WEIGHT = 1;
const BIGRAM_WEIGHT = 0.5;
const CHAR_WEIGHT = 0.25;

/**
 * FNV-1a over UTF-16 code units, seeded per feature group, then murmur3's finaliser:
 * FNV-1a alone mixes its low bits poorly, and the bucket comes from a modulo.
 */
function hashRange(seed: number, text: string, start: number, end: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = start; i < end; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

function hashFeature(seed: number, feature: string): number {
  return hashRange(seed, feature, 0, feature.length);
}

type Counts = Map<string, number>;

function count(counts: Counts, feature: string): void {
  counts.set(feature, (counts.get(feature) ?? 0) + 1);
}

// Character n-grams are many per word: they are counted by hash, straight from the word,
// without building a string per n-gram.
function addCharGrams(counts: Map<number, number>, word: string): void {
  const marked = `#${word}#`;
  for (let n = 3; n <= 4; n++) {
    for (let i = 0; i + n <= marked.length; i++) {
      const h = hashRange(CHAR_SEED, marked, i, i + n);
      counts.set(h, (counts.get(h) ?? 0) + 1);
    }
  }
}

function addHashed(vector: Float32Array, h: number, weight: number, tf: number): void {
  // Top bit picks the sign, so colliding features cancel on average instead of piling up.
  const sign = h & 0x80000000 ? -1 : 1;
  vector[(h & 0x7fffffff) % vector.length]! += sign * weight * (1 + Math.log(tf));
}

function addCharGroup(vector: Float32Array, counts: Map<number, number>): void {
  for (const [h, tf] of counts) addHashed(vector, h, CHAR_WEIGHT, tf);
}

function addGroup(vector: Float32Array, counts: Counts, seed: number, weight: number): void {
  for (const [feature, tf] of counts) addHashed(vector, hashFeature(seed, feature), weight, tf);
}

/**
 * The vector {@link createLocalEmbedder} gives `text` at `dimensions` (any whole number
 * of at least 1; the factory restricts it to 32..8192). L2-normalised, except that a text
 * with no letters, digits or symbols at all (empty or whitespace only) gives the zero
 * vector, which has cosine 0 with everything: it matches nothing.
 */
export function localEmbeddingOf(text: string, dimensions: number): Float32Array {
  const vector = new Float32Array(dimensions);
  const words = splitWords(text);
  const terms = termsOfWords(words);

  if (terms.length > 0) {
    const unigrams: Counts = new Map();
    for (const term of terms) count(unigrams, term);
    const bigrams: Counts = new Map();
    for (let i = 1; i < terms.length; i++) count(bigrams, `${terms[i - 1]} ${terms[i]}`);
    const chars = new Map<number, number>();
    for (const word of words) if (!ENGLISH_STOP_WORDS.has(word)) addCharGrams(chars, word);
    addGroup(vector, unigrams, UNIGRAM_SEED, UNIGRAM_WEIGHT);
    addGroup(vector, bigrams, BIGRAM_SEED, BIGRAM_WEIGHT);
    addCharGroup(vector, chars);
  } else {
    // Only stop words ("where is it?"), or only punctuation/emoji: fall back to character
    // n-grams of every word, else of the folded text, so the text still has a direction
    // and equal texts still match.
    const chars = new Map<number, number>();
    if (words.length > 0) for (const word of words) addCharGrams(chars, word);
    else {
      const folded = foldText(text).trim().replace(/\s+/g, ' ');
      if (folded) addCharGrams(chars, folded);
    }
    addCharGroup(vector, chars);
  }

  let norm = 0;
  for (let i = 0; i < dimensions; i++) norm += vector[i]! * vector[i]!;
  if (norm > 0) {
    const scale = 1 / Math.sqrt(norm);
    for (let i = 0; i < dimensions; i++) vector[i]! *= scale;
  }
  return vector;
}
