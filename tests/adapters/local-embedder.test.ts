import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createLocalEmbedder, localEmbeddingOf } from '../../src/adapters/local-embedder/index.js';
import { ConfigError, ValidationError } from '../../src/core/spec/errors.js';

const cosine = (a: Float32Array, b: Float32Array): number => {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot;
};

const norm = (v: Float32Array): number => Math.sqrt(cosine(v, v));

const embedder = createLocalEmbedder();

async function embedOne(text: string): Promise<Float32Array> {
  const [vector] = await embedder.embed([text]);
  return vector!;
}

async function similarity(a: string, b: string): Promise<number> {
  return cosine(await embedOne(a), await embedOne(b));
}

describe('createLocalEmbedder', () => {
  it('describes itself', () => {
    expect(embedder.specificationVersion).toBe('v1');
    expect(embedder.id).toBe('local-hash-v1-256');
    expect(embedder.dimensions).toBe(256);
    expect(embedder.maxBatchSize).toBe(1024);
    const small = createLocalEmbedder({ dimensions: 64 });
    expect(small.id).toBe('local-hash-v1-64');
    expect(small.dimensions).toBe(64);
  });

  it('returns one vector of the configured length per text, in order', async () => {
    const small = createLocalEmbedder({ dimensions: 128 });
    const texts = ['alpha beta', 'gamma delta', 'alpha beta'];
    const vectors = await small.embed(texts);
    expect(vectors).toHaveLength(3);
    for (const v of vectors) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v).toHaveLength(128);
    }
    expect(Array.from(vectors[0]!)).toEqual(Array.from(vectors[2]!));
    expect(Array.from(vectors[0]!)).not.toEqual(Array.from(vectors[1]!));
    expect(await small.embed([])).toEqual([]);
  });

  it('is deterministic within and across embedder instances', async () => {
    const text = 'Peter prefers dark roast coffee in the morning.';
    const a = await embedOne(text);
    const b = (await createLocalEmbedder().embed([text]))[0]!;
    expect(Array.from(a)).toEqual(Array.from(b));
  });

  it('is deterministic across processes', async () => {
    const text = 'The deploy script lives in ops/deploy.sh';
    const script = `
      import { localEmbeddingOf } from './src/adapters/local-embedder/index.ts';
      const v = localEmbeddingOf(${JSON.stringify(text)}, 64);
      process.stdout.write(JSON.stringify(Array.from(v)));
    `;
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: new URL('../..', import.meta.url),
      encoding: 'utf8',
    });
    expect(JSON.parse(out)).toEqual(Array.from(localEmbeddingOf(text, 64)));
  });

  it('produces unit-length vectors', async () => {
    const texts = [
      'hello',
      'A much longer text about databases, indexing, caching and query planning in PostgreSQL.',
      'the the the the',
      'where is it?',
      '!!! ???',
      '東京の天気',
      '12345',
      'repeat repeat repeat repeat repeat',
    ];
    for (const v of await embedder.embed(texts)) expect(norm(v)).toBeCloseTo(1, 5);
  });

  it('gives a stop-word-only text a valid vector that matches itself', async () => {
    const v = await embedOne('where is it?');
    expect(norm(v)).toBeCloseTo(1, 5);
    expect(await similarity('where is it?', 'Where is it')).toBeCloseTo(1, 5);
  });

  it('gives an empty or whitespace-only text the zero vector, which matches nothing', async () => {
    for (const text of ['', '   \n\t']) {
      const v = await embedOne(text);
      expect(v).toHaveLength(256);
      expect(norm(v)).toBe(0);
      expect(cosine(v, await embedOne('anything at all'))).toBe(0);
    }
  });

  it('ranks texts sharing words above unrelated texts', async () => {
    const query = 'What coffee does Peter like?';
    const related = await similarity(query, 'Peter likes dark roast coffee');
    const unrelated = await similarity(query, 'The build fails when the cache directory is missing');
    expect(related).toBeGreaterThan(0.3);
    expect(related).toBeGreaterThan(unrelated + 0.2);

    const paraphrase = await similarity(
      'The deployment pipeline failed because the Docker image was too large',
      'Docker image too large made the deployment pipeline fail',
    );
    const other = await similarity(
      'The deployment pipeline failed because the Docker image was too large',
      'Alice is allergic to peanuts and shellfish',
    );
    expect(paraphrase).toBeGreaterThan(0.5);
    expect(paraphrase).toBeGreaterThan(other + 0.3);
    expect(Math.abs(other)).toBeLessThan(0.2);
  });

  it('matches word forms through stemming', async () => {
    const stemmed = await similarity('running', 'runs');
    const unrelated = await similarity('running', 'swimming');
    expect(stemmed).toBeGreaterThan(0.5);
    expect(stemmed).toBeGreaterThan(unrelated);
    expect(await similarity('she was running late', 'he runs late')).toBeGreaterThan(0.6);
  });

  it('uses word order through bigrams', async () => {
    const same = await similarity('new york pizza', 'new york pizza');
    const swapped = await similarity('new york pizza', 'pizza york new');
    expect(same).toBeCloseTo(1, 5);
    expect(swapped).toBeLessThan(same);
    expect(swapped).toBeGreaterThan(0.5);
  });

  it('catches spelling variants through character n-grams', async () => {
    const variant = await similarity('colour', 'color');
    const unrelated = await similarity('colour', 'banana');
    expect(variant).toBeGreaterThan(unrelated + 0.1);
  });

  it('folds case and accents', async () => {
    expect(await similarity('Café crème brûlée', 'cafe creme brulee')).toBeCloseTo(1, 5);
    expect(await similarity('NAÏVE', 'naive')).toBeCloseTo(1, 5);
  });

  it('handles unsegmented scripts', async () => {
    const related = await similarity('東京の天気は晴れ', '東京の天気');
    const unrelated = await similarity('東京の天気は晴れ', 'banana bread recipe');
    expect(related).toBeGreaterThan(0.5);
    expect(related).toBeGreaterThan(unrelated);
  });

  it('rejects with the abort reason when the signal is already aborted', async () => {
    const controller = new AbortController();
    const reason = new Error('stop now');
    controller.abort(reason);
    await expect(embedder.embed(['x'], { signal: controller.signal })).rejects.toBe(reason);
  });

  it('rejects with the abort reason when aborted while embedding', async () => {
    const controller = new AbortController();
    const reason = new Error('too slow');
    // Scheduled before the call, so it fires at the embedder's first yield.
    setTimeout(() => controller.abort(reason), 0);
    const texts = Array.from({ length: 5000 }, (_, i) => `text number ${i}`);
    await expect(embedder.embed(texts, { signal: controller.signal })).rejects.toBe(reason);
  });

  it.each([
    [{ dimensions: 16 }, 'dimensions'],
    [{ dimensions: 10_000 }, 'dimensions'],
    [{ dimensions: 100.5 }, 'dimensions'],
    [{ dimensions: '512' }, 'dimensions'],
    [{ dimension: 512 }, ''],
  ])('throws a ConfigError for bad options %j', (options, field) => {
    let error: unknown;
    try {
      createLocalEmbedder(options as never);
    } catch (caught) {
      error = caught;
    }
    expect(ConfigError.isInstance(error)).toBe(true);
    const configError = error as ConfigError;
    expect(configError.component).toBe('local-embedder');
    expect(configError.field).toBe(field);
    expect(configError.message).toContain(field || 'dimension');
    expect(configError.suggestion).toBeTruthy();
  });

  it('rejects texts that are not an array of strings with a ValidationError naming the index', async () => {
    const error = await embedder.embed(['ok', 42 as never, 'fine']).catch((caught: unknown) => caught);
    expect(ValidationError.isInstance(error)).toBe(true);
    expect((error as ValidationError).field).toBe('texts[1]');
    expect((error as ValidationError).component).toBe('local-embedder');
    expect((error as ValidationError).message).toContain('texts[1]');

    const notArray = await embedder.embed('just one' as never).catch((caught: unknown) => caught);
    expect(ValidationError.isInstance(notArray)).toBe(true);
    expect((notArray as ValidationError).field).toBe('texts');
  });

  it('embeds 10,000 short texts', async () => {
    const texts = Array.from({ length: 10_000 }, (_, i) => `memory ${i}: the user prefers option ${i % 37}`);
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += embedder.maxBatchSize!) {
      vectors.push(...(await embedder.embed(texts.slice(start, start + embedder.maxBatchSize!))));
    }
    expect(vectors).toHaveLength(10_000);
    expect(norm(vectors[9_999]!)).toBeCloseTo(1, 5);
  });
});
