// An embedder that remembers every vector it made, for benches that index the same texts
// several times in one process (each setting of a grid, each retain path).
import type { Embedder } from '../src/index.js';

export function cachedEmbedder(inner: Embedder): Embedder {
  const cache = new Map<string, Float32Array>();
  return {
    specificationVersion: 'v1',
    id: inner.id,
    dimensions: inner.dimensions,
    ...(inner.semantic === undefined ? {} : { semantic: inner.semantic }),
    ...(inner.background === undefined ? {} : { background: inner.background }),
    ...(inner.maxBatchSize === undefined ? {} : { maxBatchSize: inner.maxBatchSize }),
    async embed(texts, options) {
      const missing = [...new Set(texts.filter((text) => !cache.has(text)))];
      if (missing.length > 0) {
        const vectors = await inner.embed(missing, options);
        missing.forEach((text, index) => cache.set(text, vectors[index]!));
      }
      return texts.map((text) => cache.get(text)!);
    },
  };
}
