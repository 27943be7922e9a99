// An embedder that remembers every vector it made, for benches that index the same texts
// several times (each setting of a grid, each retain path), optionally kept in a file between
// runs of the same embedder.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Embedder } from '../src/index.js';

export interface CachedEmbedder extends Embedder {
  /** Write the vectors to the cache file, if there is one. */
  save(): void;
}

export function cachedEmbedder(inner: Embedder, file?: string): CachedEmbedder {
  const cache = new Map<string, Float32Array>();
  if (file && existsSync(`${file}.json`)) {
    const { id, texts } = JSON.parse(readFileSync(`${file}.json`, 'utf8')) as { id: string; texts: string[] };
    if (id === inner.id) {
      const raw = readFileSync(`${file}.bin`);
      const all = new Float32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);
      for (const [index, text] of texts.entries()) {
        cache.set(text, all.slice(index * inner.dimensions, (index + 1) * inner.dimensions));
      }
    }
  }
  return {
    specificationVersion: 'v1',
    id: inner.id,
    dimensions: inner.dimensions,
    ...(inner.semantic === undefined ? {} : { semantic: inner.semantic }),
    ...(inner.background === undefined ? {} : { background: inner.background }),
    ...(inner.maxBatchSize === undefined ? {} : { maxBatchSize: inner.maxBatchSize }),
    ...(inner.fusion === undefined ? {} : { fusion: inner.fusion }),
    async embed(texts, options) {
      const missing = [...new Set(texts.filter((text) => !cache.has(text)))];
      if (missing.length > 0) {
        const vectors = await inner.embed(missing, options);
        for (const [index, text] of missing.entries()) cache.set(text, vectors[index]!);
      }
      return texts.map((text) => cache.get(text)!);
    },
    save() {
      if (!file) return;
      const texts = [...cache.keys()];
      const all = new Float32Array(texts.length * inner.dimensions);
      for (const [index, text] of texts.entries()) all.set(cache.get(text)!, index * inner.dimensions);
      writeFileSync(`${file}.json`, JSON.stringify({ id: inner.id, texts }));
      writeFileSync(`${file}.bin`, Buffer.from(all.buffer));
    },
  };
}
