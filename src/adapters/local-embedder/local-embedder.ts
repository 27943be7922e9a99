import { z } from 'zod';
import type { Embedder, EmbedOptions } from '../../core/spec/embedder.js';
import { assertTexts } from '../../core/utils/assert-texts.js';
import { parseOptions } from '../../core/utils/parse-options.js';
import { LocalEmbedderPool, POOL_MIN_TEXTS } from './local-embedder-pool.js';
import { localEmbeddingOf } from './local-embedding.js';

export { localEmbeddingOf } from './local-embedding.js';

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
  /**
   * Worker threads that embed large batches (128 texts or more) in parallel, a whole number
   * from 0 to 64; smaller calls, such as a recall's query, are embedded in place. The vectors
   * are identical either way. Default 0 (none): starting a worker costs tens of milliseconds,
   * and a retain's time goes mostly to the rest of the pipeline (claim extraction, rows) rather
   * than to hashing (about 10 % in a CPU profile of a 10,000-memory retain); use them when
   * embedding is the bottleneck, such as a reindex.
   */
  workers?: number;
}

const optionsSchema = z
  .object({
    dimensions: z.number().int().min(LOCAL_EMBEDDER_MIN_DIMENSIONS).max(LOCAL_EMBEDDER_MAX_DIMENSIONS).default(256),
    workers: z.number().int().min(0).max(64).default(0),
  })
  .strict();

export { assertTexts } from '../../core/utils/assert-texts.js';

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
  const { dimensions, workers } = parseOptions(optionsSchema, options, COMPONENT, (field) =>
    field === 'dimensions'
      ? `Pass dimensions as a whole number from ${LOCAL_EMBEDDER_MIN_DIMENSIONS} to ${LOCAL_EMBEDDER_MAX_DIMENSIONS}, or omit it for 256.`
      : field === 'workers'
        ? 'Pass workers as a whole number from 0 to 64 (0: embed on the calling thread).'
        : 'The local embedder accepts two options, `dimensions` and `workers`.',
  );
  const pool = workers > 0 ? new LocalEmbedderPool(workers) : undefined;

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
      if (pool && texts.length >= POOL_MIN_TEXTS) return pool.embed(texts, dimensions, signal);
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
