import { localEmbeddingOf } from '../adapters/local-embedder/index.js';
import { assertTexts } from '../adapters/local-embedder/local-embedder.js';
import type { Embedder, EmbedOptions } from '../core/spec/embedder.js';
import { ConfigError } from '../core/spec/errors.js';

const COMPONENT = 'test-embedder';
const DEFAULT_DIMENSIONS = 64;
const MAX_DIMENSIONS = 8192;

/**
 * Options of {@link createTestEmbedder}.
 *
 * @group Testing
 */
export interface TestEmbedderOptions {
  /**
   * Length of every vector, 1 to 8192. Default: the length of the vectors in `vectors`,
   * else 64.
   */
  dimensions?: number;
  /**
   * Fixed vectors for exact texts, e.g. `{ 'cats': [1, 0, 0], 'kittens': [0.9, 0.1, 0] }`.
   * Each is L2-normalised; each must have `dimensions` finite numbers, not all zero.
   */
  vectors?: Record<string, readonly number[]>;
}

/**
 * A deterministic {@link Embedder} for tests that records what it was asked to embed.
 *
 * @group Testing
 */
export interface TestEmbedder extends Embedder {
  /** The `texts` of every `embed` call, oldest first (copies). */
  readonly calls: string[][];
}

function configError(message: string, field: string, suggestion: string): ConfigError {
  return new ConfigError(message, { component: COMPONENT, field, suggestion });
}

/**
 * An embedder for tests. Texts listed in `vectors` get exactly that vector (normalised),
 * so a test can decide which texts are near each other; every other text gets the local
 * embedder's vector at the same dimensions, so texts sharing words still come out similar.
 * Same text, same vector, in every run.
 *
 * @example
 * ```ts
 * import { createMemory } from 'memoir';
 * import { createTestEmbedder, createTestStore } from 'memoir/testing';
 *
 * // 'cats' and 'kittens' are near each other; everything else gets a lexical vector.
 * const embedder = createTestEmbedder({ vectors: { cats: [1, 0, 0], kittens: [0.9, 0.1, 0] } });
 * const memory = createMemory({ store: createTestStore(), embedder });
 * ```
 *
 * @throws ConfigError when `dimensions` is not a whole number from 1 to 8192, or a vector
 * in `vectors` has the wrong length, a non-finite number, or is all zeros.
 * @group Testing
 */
export function createTestEmbedder(options: TestEmbedderOptions = {}): TestEmbedder {
  const entries = Object.entries(options.vectors ?? {});
  const dimensions = options.dimensions ?? entries[0]?.[1].length ?? DEFAULT_DIMENSIONS;
  if (!Number.isInteger(dimensions) || dimensions < 1 || dimensions > MAX_DIMENSIONS) {
    throw configError(
      `dimensions must be a whole number from 1 to ${MAX_DIMENSIONS} (got ${String(dimensions)})`,
      'dimensions',
      `Pass e.g. { dimensions: ${DEFAULT_DIMENSIONS} }, or omit it.`,
    );
  }

  const fixed = new Map<string, Float32Array>();
  for (const [text, values] of entries) {
    const field = `vectors[${JSON.stringify(text)}]`;
    if (!Array.isArray(values) || values.length !== dimensions) {
      const got = Array.isArray(values) ? `${values.length} numbers` : typeof values;
      throw configError(
        `${field} must have ${dimensions} numbers, the embedder's dimensions (got ${got})`,
        field,
        'Give every fixed vector the same length, and pass that length as `dimensions` (or omit `dimensions`).',
      );
    }
    let norm = 0;
    for (const value of values)
      norm += typeof value === 'number' && Number.isFinite(value) ? value * value : Number.NaN;
    if (!(norm > 0)) {
      throw configError(
        `${field} must hold finite numbers, not all zero`,
        field,
        'Use a direction such as [1, 0, 0]; a zero vector cannot be normalised.',
      );
    }
    const scale = 1 / Math.sqrt(norm);
    fixed.set(
      text,
      Float32Array.from(values, (value) => value * scale),
    );
  }

  const calls: string[][] = [];
  return {
    specificationVersion: 'v1',
    id: `test-embedder-${dimensions}`,
    dimensions,
    maxBatchSize: 1024,
    calls,
    async embed(texts: readonly string[], embedOptions?: EmbedOptions): Promise<Float32Array[]> {
      embedOptions?.signal?.throwIfAborted();
      assertTexts(texts, COMPONENT);
      calls.push([...texts]);
      // Copies, so a caller that mutates a vector does not change later answers.
      return texts.map((text) => fixed.get(text)?.slice() ?? localEmbeddingOf(text, dimensions));
    },
  };
}
