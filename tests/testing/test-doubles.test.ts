import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { localEmbeddingOf } from '../../src/adapters/local-embedder/index.js';
import { ConfigError, ProviderError, ValidationError } from '../../src/core/spec/errors.js';
import type { GenerateRequest } from '../../src/core/spec/language-model.js';
import { createScriptedLanguageModel } from '../../src/testing/scripted-language-model.js';
import { createTestEmbedder } from '../../src/testing/test-embedder.js';

const ask = (content: string, extra: Partial<GenerateRequest> = {}): GenerateRequest => ({
  messages: [{ role: 'user', content }],
  ...extra,
});

describe('createScriptedLanguageModel', () => {
  it('answers from a queue in order and records the calls', async () => {
    const model = createScriptedLanguageModel(['first answer', { text: 'second', finishReason: 'length' }]);
    expect(model.specificationVersion).toBe('v1');
    expect(model.id).toBe('scripted');
    expect(model.remaining()).toBe(2);

    const one = await model.generate(ask('hello there', { system: 'be brief' }));
    expect(one).toEqual({ text: 'first answer', usage: { inputTokens: 4, outputTokens: 2 }, finishReason: 'stop' });
    const two = await model.generate(ask('again'));
    expect(two.text).toBe('second');
    expect(two.finishReason).toBe('length');
    expect(model.remaining()).toBe(0);
    expect(model.calls.map((call) => call.messages[0]!.content)).toEqual(['hello there', 'again']);
    expect(model.calls[0]!.system).toBe('be brief');
  });

  it('counts input words over the system prompt and every message', async () => {
    const model = createScriptedLanguageModel(['ok']);
    const result = await model.generate({
      system: 'you extract facts',
      messages: [
        { role: 'user', content: 'Peter likes coffee' },
        { role: 'assistant', content: 'noted' },
        { role: 'user', content: '  and   tea  ' },
      ],
    });
    expect(result.usage).toEqual({ inputTokens: 9, outputTokens: 1 });
  });

  it('keeps usage given in the script, filling in what is missing', async () => {
    const model = createScriptedLanguageModel([
      { text: 'a b c', usage: { inputTokens: 100 } },
      { usage: { inputTokens: 1, outputTokens: 2 } },
    ]);
    expect((await model.generate(ask('x y'))).usage).toEqual({ inputTokens: 100, outputTokens: 3 });
    expect(await model.generate(ask('x y'))).toEqual({
      text: '',
      usage: { inputTokens: 1, outputTokens: 2 },
      finishReason: 'stop',
    });
  });

  it('rejects with a scripted Error, which uses up its entry', async () => {
    const failure = new ProviderError('rate limited', { component: 'fake', retryable: true });
    const model = createScriptedLanguageModel([failure, 'recovered']);
    await expect(model.generate(ask('one'))).rejects.toBe(failure);
    await expect(model.generate(ask('two'))).resolves.toMatchObject({ text: 'recovered' });
    expect(model.calls).toHaveLength(2);
  });

  it('throws a ProviderError explaining the exhausted script', async () => {
    const model = createScriptedLanguageModel(['only one']);
    await model.generate(ask('first'));
    const error = await model.generate(ask('an unexpected second question')).catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(error)).toBe(true);
    const providerError = error as ProviderError;
    expect(providerError.component).toBe('scripted-language-model');
    expect(providerError.message).toContain('1 response(s) were scripted');
    expect(providerError.message).toContain('call 2 had no response');
    expect(providerError.message).toContain('an unexpected second question');
    expect(providerError.suggestion).toMatch(/add more responses/i);
    expect(model.calls).toHaveLength(2);
  });

  it('answers from a function given the request and call index', async () => {
    const seen: number[] = [];
    const model = createScriptedLanguageModel(async (request, callIndex) => {
      seen.push(callIndex);
      if (request.json) return { text: JSON.stringify({ echo: request.messages[0]!.content }) };
      return `echo: ${request.messages[0]!.content}`;
    });
    expect(model.remaining()).toBe(Number.POSITIVE_INFINITY);
    expect((await model.generate(ask('hi'))).text).toBe('echo: hi');
    expect(JSON.parse((await model.generate(ask('hi', { json: true }))).text)).toEqual({ echo: 'hi' });
    expect(seen).toEqual([0, 1]);
    expect(model.calls).toHaveLength(2);
  });

  it('rejects when the function throws', async () => {
    const model = createScriptedLanguageModel(() => {
      throw new Error('boom');
    });
    await expect(model.generate(ask('x'))).rejects.toThrow('boom');
  });

  it('rejects with the abort reason when the signal is already aborted, without using an answer', async () => {
    const model = createScriptedLanguageModel(['answer']);
    const controller = new AbortController();
    const reason = new Error('cancelled');
    controller.abort(reason);
    await expect(model.generate(ask('x', { signal: controller.signal }))).rejects.toBe(reason);
    expect(model.calls).toHaveLength(0);
    expect(model.remaining()).toBe(1);
  });

  it('copies the queue, so later changes to the array do not affect it', async () => {
    const script = ['a'];
    const model = createScriptedLanguageModel(script);
    script.push('b');
    expect(model.remaining()).toBe(1);
  });

  it('throws a ConfigError for a script that is neither an array nor a function', () => {
    expect(() => createScriptedLanguageModel('answer' as never)).toThrow(ConfigError);
    let error: unknown;
    try {
      createScriptedLanguageModel(['ok', 42 as never]);
    } catch (caught) {
      error = caught;
    }
    expect(ConfigError.isInstance(error)).toBe(true);
    expect((error as ConfigError).field).toBe('script[1]');
  });
});

describe('createTestEmbedder', () => {
  it('defaults to 64 dimensions and the local embedder vectors', async () => {
    const embedder = createTestEmbedder();
    expect(embedder.specificationVersion).toBe('v1');
    expect(embedder.id).toBe('test-embedder-64');
    expect(embedder.dimensions).toBe(64);
    const [vector] = await embedder.embed(['Peter likes coffee']);
    expect(Array.from(vector!)).toEqual(Array.from(localEmbeddingOf('Peter likes coffee', 64)));
  });

  it('returns fixed vectors, normalised, for the listed texts', async () => {
    const embedder = createTestEmbedder({ vectors: { cats: [3, 4, 0], kittens: [0, 0, 2] } });
    expect(embedder.dimensions).toBe(3);
    expect(embedder.id).toBe('test-embedder-3');
    const [cats, kittens, other] = await embedder.embed(['cats', 'kittens', 'dogs']);
    expect(Array.from(cats!)).toEqual([Math.fround(0.6), Math.fround(0.8), 0]);
    expect(Array.from(kittens!)).toEqual([0, 0, 1]);
    expect(other).toHaveLength(3);
    expect(Array.from(other!)).toEqual(Array.from(localEmbeddingOf('dogs', 3)));
  });

  it('does not share vectors between calls', async () => {
    const embedder = createTestEmbedder({ vectors: { a: [1, 0] } });
    const [first] = await embedder.embed(['a']);
    first![0] = 42;
    const [second] = await embedder.embed(['a']);
    expect(second![0]).toBe(1);
  });

  it('honours explicit dimensions for unlisted texts', async () => {
    const embedder = createTestEmbedder({ dimensions: 256 });
    const [vector] = await embedder.embed(['x']);
    expect(vector).toHaveLength(256);
  });

  it('records the texts of each call', async () => {
    const embedder = createTestEmbedder();
    const texts = ['one', 'two'];
    await embedder.embed(texts);
    await embedder.embed(['three']);
    texts.push('mutated');
    expect(embedder.calls).toEqual([['one', 'two'], ['three']]);
  });

  it('throws a ConfigError for a vector of the wrong length or with no direction', () => {
    const wrong = (() => {
      try {
        createTestEmbedder({ dimensions: 4, vectors: { cats: [1, 0, 0] } });
      } catch (caught) {
        return caught;
      }
    })();
    expect(ConfigError.isInstance(wrong)).toBe(true);
    expect((wrong as ConfigError).field).toBe('vectors["cats"]');
    expect((wrong as ConfigError).message).toContain('4 numbers');
    expect(() => createTestEmbedder({ vectors: { a: [1, 0], b: [1, 0, 0] } })).toThrow(ConfigError);
    expect(() => createTestEmbedder({ vectors: { a: [0, 0] } })).toThrow(ConfigError);
    expect(() => createTestEmbedder({ vectors: { a: [1, Number.NaN] } })).toThrow(ConfigError);
    expect(() => createTestEmbedder({ dimensions: 0 })).toThrow(ConfigError);
    expect(() => createTestEmbedder({ dimensions: 2.5 })).toThrow(ConfigError);
  });

  it('validates texts and honours an aborted signal', async () => {
    const embedder = createTestEmbedder();
    const invalid = await embedder.embed(['a', null as never]).catch((caught: unknown) => caught);
    expect(ValidationError.isInstance(invalid)).toBe(true);
    expect((invalid as ValidationError).field).toBe('texts[1]');
    expect((invalid as ValidationError).component).toBe('test-embedder');

    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(embedder.embed(['a'], { signal: controller.signal })).rejects.toThrow('stop');
    expect(embedder.calls).toEqual([]);
  });
});

const inMemoryWritten = existsSync(new URL('../../src/adapters/in-memory/index.ts', import.meta.url));

describe('memoir/testing entry', () => {
  // The in-memory store is written separately; until it exists the entry cannot load.
  it.skipIf(!inMemoryWritten)('exports the three doubles', async () => {
    const testing = await import('../../src/testing/index.js');
    expect(typeof testing.createScriptedLanguageModel).toBe('function');
    expect(typeof testing.createTestEmbedder).toBe('function');
    expect(typeof testing.createTestStore).toBe('function');
    expect(testing.createTestStore()).not.toBe(testing.createTestStore());
  });
});
