/** Bytes of float32 vectors kept for rescoring: 32 MiB, 32,768 vectors of 256 dimensions. */
const DEFAULT_BUDGET_BYTES = 32 * 1024 ** 2;

/** A stored vector and its squared norm, summed once instead of in every cosine. */
export interface ExactVector {
  vector: Float32Array;
  squaredNorm: number;
}

/** `vector` with its squared norm, summed in index order as {@link cosineWithNorms} expects. */
export function exactVector(vector: Float32Array): ExactVector {
  let squaredNorm = 0;
  for (let i = 0; i < vector.length; i++) squaredNorm += vector[i]! * vector[i]!;
  return { vector, squaredNorm };
}

/**
 * Cosine similarity of `query` (squared norm `querySquaredNorm`) and `stored`: the same sums in
 * the same order as `cosineSimilarity`, so the same number, with only the dot product left per call.
 */
export function cosineWithNorms(query: Float32Array, querySquaredNorm: number, stored: ExactVector): number {
  if (querySquaredNorm === 0 || stored.squaredNorm === 0) return 0;
  const b = stored.vector;
  let dot = 0;
  for (let i = 0; i < query.length; i++) dot += query[i]! * b[i]!;
  const score = dot / Math.sqrt(querySquaredNorm * stored.squaredNorm);
  return Number.isNaN(score) ? 0 : score;
}

/**
 * The float32 vectors rescoring read lately, by slot. Rescoring reads a few hundred vectors per
 * search from the file, and on a small store that read was most of a recall; a slot's row never
 * changes (a changed memory gets a new slot), so an entry never goes stale — only a rebuilt
 * index, whose slots number other rows, drops them all. Bounded: the oldest entries leave first.
 */
export class ExactVectors {
  readonly #capacity: number;
  readonly #vectors = new Map<number, ExactVector>();

  constructor(dimensions: number, budgetBytes = DEFAULT_BUDGET_BYTES) {
    this.#capacity = Math.max(0, Math.floor(budgetBytes / Math.max(1, dimensions * 4)));
  }

  /** The vector kept for `slot`, if any. */
  get(slot: number): ExactVector | undefined {
    return this.#vectors.get(slot);
  }

  /** Keep `vector` for `slot`, making room by dropping the oldest entries. */
  set(slot: number, vector: ExactVector): void {
    if (this.#capacity === 0) return;
    if (this.#vectors.size >= this.#capacity) {
      const oldest = this.#vectors.keys().next();
      if (!oldest.done) this.#vectors.delete(oldest.value);
    }
    this.#vectors.set(slot, vector);
  }

  /** Forget `slot` (its memory was replaced or deleted). */
  delete(slot: number): void {
    this.#vectors.delete(slot);
  }

  /** Forget everything (the slots now number other rows). */
  clear(): void {
    this.#vectors.clear();
  }

  /** How many vectors are kept. */
  get size(): number {
    return this.#vectors.size;
  }
}
