/**
 * `values` scaled to unit length (returned unchanged when all zero).
 *
 * @group Testing
 */
export function normalize(values: readonly number[]): Float32Array {
  const norm = Math.sqrt(values.reduce((sum, value) => sum + value * value, 0));
  return Float32Array.from(values, (value) => (norm === 0 ? value : value / norm));
}

/**
 * A deterministic pseudo-random number generator in [0, 1) (mulberry32: tiny, seedable, good
 * enough for test data): the same `seed` always gives the same sequence.
 *
 * @group Testing
 */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * A deterministic pseudo-random unit vector of `dims` values: the same `seed` always gives
 * the same vector, so a test can seed a store's embeddings and query with one of them.
 *
 * @group Testing
 */
export function unitVector(dims: number, seed: number): Float32Array {
  const random = prng(seed);
  const values = Array.from({ length: dims }, () => random() * 2 - 1);
  return normalize(values);
}

/**
 * The unit vector along axis `axis` (negated when `sign` is -1).
 *
 * @group Testing
 */
export function axisVector(dims: number, axis: number, sign: 1 | -1 = 1): Float32Array {
  const vector = new Float32Array(dims);
  vector[axis] = sign;
  return vector;
}

/**
 * Cosine similarity computed in double precision: the oracle for a store's vector scores.
 *
 * @group Testing
 */
export function cosineSimilarity(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    normA += a[i]! * a[i]!;
    normB += b[i]! * b[i]!;
  }
  return dot / Math.sqrt(normA * normB);
}
