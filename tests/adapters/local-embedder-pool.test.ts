import { describe, expect, it } from 'vitest';
import { createLocalEmbedder, localEmbeddingOf } from '../../src/adapters/local-embedder/index.js';
import { ConfigError } from '../../src/core/spec/errors.js';

const texts = Array.from(
  { length: 700 },
  (_, i) =>
    `Memory ${i}: Zoë deployed the café gateway on day ${i % 31}, ${'ünïcode '.repeat(i % 3)}and ran ${i * 7} tests`,
);

describe('the local embedder on worker threads', () => {
  it('gives the same vectors with a worker pool as on the calling thread, in order', async () => {
    const pooled = createLocalEmbedder({ workers: 2, dimensions: 64 });
    const vectors = await pooled.embed(texts);
    expect(vectors).toHaveLength(texts.length);
    expect(vectors.map((vector) => Array.from(vector))).toEqual(
      texts.map((text) => Array.from(localEmbeddingOf(text, 64))),
    );
    // Every vector owns its memory: changing one leaves the others alone.
    vectors[0]!.fill(0);
    expect(vectors[1]!.some((value) => value !== 0)).toBe(true);
    // Again, on the workers already running; a small call is embedded in place.
    expect(Array.from((await pooled.embed(texts.slice(0, 300)))[299]!)).toEqual(
      Array.from(localEmbeddingOf(texts[299]!, 64)),
    );
    expect(Array.from((await pooled.embed(['one text']))[0]!)).toEqual(Array.from(localEmbeddingOf('one text', 64)));
  });

  it('rejects with the reason when the call is aborted', async () => {
    const pooled = createLocalEmbedder({ workers: 1 });
    const controller = new AbortController();
    const pending = pooled.embed(texts, { signal: controller.signal });
    controller.abort(new Error('deadline'));
    await expect(pending).rejects.toThrow('deadline');
  });

  it('refuses a worker count that is not a whole number from 0 to 64, naming the field', () => {
    expect(() => createLocalEmbedder({ workers: -1 })).toThrow(ConfigError);
    expect(() => createLocalEmbedder({ workers: 1.5 })).toThrow(/workers/);
  });
});
