import { z } from 'zod';
import type { Embedder, EmbedOptions } from '../../core/spec/embedder.js';
import { ValidationError, type ValidationIssue } from '../../core/spec/errors.js';
import { foldText, splitWords, termsOfWords } from '../../core/text/analyze.js';
import { ENGLISH_STOP_WORDS } from '../../core/text/stop-words.js';
import { parseOptions } from '../../core/utils/parse-options.js';

const COMPONENT = 'local-embedder';

/**
 * Version of the hashing scheme. Any change to the features, weights or hash function
 * changes the vectors, so it is part of {@link Embedder.id} and bumping it makes stores
 * built with the old vectors refuse the new embedder instead of comparing across schemes.
 */
export const LOCAL_EMBEDDER_VERSION = 1;

/** Fewest dimensions {@link createLocalEmbedder} accepts. */
export const LOCAL_EMBEDDER_MIN_DIMENSIONS = 32;
/** Most dimensions {@link createLocalEmbedder} accepts. */
export const LOCAL_EMBEDDER_MAX_DIMENSIONS = 8192;

/**
 * Options of {@link createLocalEmbedder}.
 *
 * @group Adapters
 */
export interface LocalEmbedderOptions {
  /**
   * Length of every vector, a whole number from 32 to 8192. More dimensions mean fewer
   * hash collisions (slightly better similarity) at the cost of memory and search time.
   * Default 256: on LoCoMo, 256, 512 and 1,024 dimensions recall within half a point of
   * each other, and vector search time grows with the dimensions.
   */
  dimensions?: number;
}

const optionsSchema = z
  .object({
    dimensions: z.number().int().min(LOCAL_EMBEDDER_MIN_DIMENSIONS).max(LOCAL_EMBEDDER_MAX_DIMENSIONS).default(256),
  })
  .strict();

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

/** Throw a ValidationError unless `texts` is an array of strings. Shared with the test embedder. */
export function assertTexts(texts: unknown, component: string): asserts texts is readonly string[] {
  if (!Array.isArray(texts)) {
    throw new ValidationError([{ field: 'texts', message: `expected an array of strings (got ${typeof texts})` }], {
      component,
      suggestion: 'Pass an array of strings, e.g. embed(["first text", "second text"]).',
    });
  }
  const issues: ValidationIssue[] = [];
  for (let i = 0; i < texts.length; i++) {
    const text: unknown = texts[i];
    if (typeof text !== 'string') {
      const got = text === null ? 'null' : Array.isArray(text) ? 'an array' : typeof text;
      issues.push({ field: `texts[${i}]`, message: `expected a string (got ${got})` });
    }
  }
  if (issues.length > 0) {
    throw new ValidationError(issues, { component, suggestion: 'Pass only strings; convert other values first.' });
  }
}

// Texts embedded between two yields to the event loop, so that an abort fired by a timer
// or an I/O callback can land during a long call.
const YIELD_EVERY = 256;

const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Create the offline embedder: no download, no network, no native code. Each text becomes a
 * feature-hashed bag of stemmed words, word pairs and character 3- and 4-grams (the same
 * word analysis as the lexical index), weighted by sublinear term frequency, signed, and
 * L2-normalised. It finds texts sharing words and word forms ("running" ≈ "runs",
 * "café" = "cafe"), not synonyms; plug in an embedding model for that.
 *
 * Vectors are deterministic across processes and platforms. The id, e.g.
 * `local-hash-v1-256`, encodes the scheme version and the dimensions. An empty or
 * whitespace-only text gets the zero vector, which matches nothing.
 *
 * @example
 * ```ts
 * import { createLocalEmbedder, createMemory } from 'memoir';
 *
 * const memory = createMemory({ embedder: createLocalEmbedder({ dimensions: 512 }) }); // the default is 256
 * const [vector] = await createLocalEmbedder().embed(['running shoes']); // a Float32Array of 256 numbers
 * ```
 *
 * @throws ConfigError when an option is invalid.
 * @group Adapters
 */
export function createLocalEmbedder(options?: LocalEmbedderOptions): Embedder {
  const { dimensions } = parseOptions(optionsSchema, options, COMPONENT, (field) =>
    field === 'dimensions'
      ? `Pass dimensions as a whole number from ${LOCAL_EMBEDDER_MIN_DIMENSIONS} to ${LOCAL_EMBEDDER_MAX_DIMENSIONS}, or omit it for 256.`
      : 'The local embedder accepts one option, `dimensions`.',
  );

  return {
    specificationVersion: 'v1',
    id: `local-hash-v${LOCAL_EMBEDDER_VERSION}-${dimensions}`,
    dimensions,
    // It hashes words and spellings; it does not know that two different words mean the same.
    semantic: false,
    maxBatchSize: 1024,
    async embed(texts: readonly string[], embedOptions?: EmbedOptions): Promise<Float32Array[]> {
      const signal = embedOptions?.signal;
      signal?.throwIfAborted();
      assertTexts(texts, COMPONENT);
      const vectors: Float32Array[] = [];
      for (let i = 0; i < texts.length; i++) {
        if (i > 0 && i % YIELD_EVERY === 0) await yieldToEventLoop();
        signal?.throwIfAborted();
        vectors.push(localEmbeddingOf(texts[i]!, dimensions));
      }
      return vectors;
    },
  };
}
