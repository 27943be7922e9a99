import { describe, expect, it } from 'vitest';
import { cosineWithNorms, ExactVectors, exactVector } from '../../src/adapters/sqlite/search-index/exact-vectors.js';
import { cosineSimilarity } from '../../src/core/search/vector-math.js';

function randomVector(seed: number, dimensions: number): Float32Array {
  let state = seed;
  const vector = new Float32Array(dimensions);
  for (let i = 0; i < dimensions; i++) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    vector[i] = state / 2 ** 30 - 1;
  }
  return vector;
}

describe("rescoring's kept vectors", () => {
  it('score exactly as cosineSimilarity does, zero vectors included', () => {
    const query = randomVector(7, 256);
    const queryNorm = exactVector(query).squaredNorm;
    for (let seed = 1; seed < 200; seed++) {
      const stored = randomVector(seed * 31, 256);
      expect(cosineWithNorms(query, queryNorm, exactVector(stored))).toBe(cosineSimilarity(query, stored));
    }
    const zero = new Float32Array(256);
    expect(cosineWithNorms(query, queryNorm, exactVector(zero))).toBe(0);
    expect(cosineWithNorms(zero, 0, exactVector(query))).toBe(0);
  });

  it('hold at most their budget, the oldest leaving first', () => {
    // 4 dimensions x 4 bytes: a 48-byte budget holds three vectors.
    const kept = new ExactVectors(4, 48);
    for (let slot = 0; slot < 5; slot++) kept.set(slot, exactVector(randomVector(slot + 1, 4)));
    expect(kept.size).toBe(3);
    expect(kept.get(0)).toBeUndefined();
    expect(kept.get(1)).toBeUndefined();
    expect(kept.get(4)).toBeDefined();
    kept.delete(4);
    expect(kept.get(4)).toBeUndefined();
    kept.clear();
    expect(kept.size).toBe(0);
  });
});
