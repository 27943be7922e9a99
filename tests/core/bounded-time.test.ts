import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createOpenAIEmbedder } from '../../src/adapters/openai/index.js';
import { createMemoryEngine } from '../../src/core/engine/memory-engine.js';
import {
  ConfigError,
  type ConversationInput,
  createInMemoryStore,
  createMemory,
  type Embedder,
  type LanguageModel,
  type MemoryOptions,
  ProviderError,
} from '../../src/index.js';
import { clientsClosedAfterEach } from '../helpers/clients.js';

// Every bound here is measured against real elapsed time with a generous margin: the machine
// is shared, and what the tests protect is seconds against minutes (or forever).
const MARGIN_MS = 2000;
const client = clientsClosedAfterEach();

/** An embedder that never answers and ignores its signal, recording the signals it was given. */
function hangingEmbedder(): Embedder & { signals: (AbortSignal | undefined)[] } {
  const signals: (AbortSignal | undefined)[] = [];
  return {
    specificationVersion: 'v1',
    id: 'hanging-embedder',
    dimensions: 4,
    signals,
    embed(_texts, options) {
      signals.push(options?.signal);
      return new Promise<Float32Array[]>(() => {});
    },
  };
}

/** A model that never answers and ignores its signal, recording the signals it was given. */
function hangingModel(): LanguageModel & { signals: (AbortSignal | undefined)[] } {
  const signals: (AbortSignal | undefined)[] = [];
  return {
    specificationVersion: 'v1',
    id: 'hanging-model',
    signals,
    generate(request) {
      signals.push(request.signal);
      return new Promise(() => {});
    },
  };
}

const conversation: ConversationInput = {
  sessionId: 'session_1',
  messages: [
    { role: 'user', content: 'I moved the backups to the NAS in the hallway.', id: 'm1' },
    { role: 'assistant', content: 'Noted: backups live on the hallway NAS now.', id: 'm2' },
    { role: 'user', content: 'And the NAS gets a new disk every two years.', id: 'm3' },
    { role: 'assistant', content: 'I will remind you when the disk is due.', id: 'm4' },
  ],
};

const settle = <T>(promise: Promise<T>) =>
  promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );

describe('close() is bounded when a provider hangs', () => {
  it('finishes within closeTimeoutMs while a custom embedder that ignores its signal hangs a retain, which keeps its text', async () => {
    const embedder = hangingEmbedder();
    const memory = client({ embedder, closeTimeoutMs: 500 });
    const retained = settle(memory.retain({ content: 'The hallway NAS holds the backups.' }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(embedder.signals).toHaveLength(1);

    const started = performance.now();
    await memory.close();
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(450);
    expect(elapsed).toBeLessThan(500 + MARGIN_MS);

    // The embedder was told (its signal aborted), and the retain settled instead of hanging:
    // close() lets a started call keep what it holds, so the text is stored without a vector.
    expect(embedder.signals[0]?.aborted).toBe(true);
    const outcome = await retained;
    expect(outcome.ok).toBe(true);
    expect(outcome.ok && outcome.value.memories.map((memory) => memory.content)).toEqual([
      'The hallway NAS holds the backups.',
    ]);
  });

  it('finishes within closeTimeoutMs while a model that ignores its signal hangs a conversation retain', async () => {
    const model = hangingModel();
    const memory = client({ languageModel: model, closeTimeoutMs: 500 });
    const retained = settle(memory.retain(conversation));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(model.signals).toHaveLength(1);

    const started = performance.now();
    await memory.close();
    expect(performance.now() - started).toBeLessThan(500 + MARGIN_MS);
    expect(model.signals[0]?.aborted).toBe(true);
    await retained;
  });

  it('aborts an OpenAI request whose body trickles, dropping the connection, within closeTimeoutMs', async () => {
    let dropped = 0;
    let arrived: () => void = () => {};
    const requested = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    const server: Server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        arrived();
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"object":"list","data":[');
        const timer = setInterval(() => res.write(' '), 50);
        res.on('close', () => {
          clearInterval(timer);
          dropped++;
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      // The adapter's own deadline is a minute: only the close signal can end this call early.
      const embedder = createOpenAIEmbedder({
        baseURL: `http://127.0.0.1:${port}/v1`,
        apiKey: 'sk-test',
        model: 'fake-embed',
        dimensions: 4,
        timeoutMs: 60_000,
      });
      const memory = client({ embedder, closeTimeoutMs: 500 });
      const retained = settle(memory.retain({ content: 'The hallway NAS holds the backups.' }));
      // Closed once the request is on the wire: a fixed wait can end before it leaves on a loaded
      // machine, and then no connection is there to drop.
      await requested;

      const started = performance.now();
      await memory.close();
      expect(performance.now() - started).toBeLessThan(500 + MARGIN_MS);
      await retained;
      await expect.poll(() => dropped, { timeout: 5000 }).toBe(1);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('refuses provider calls started after the grace period, so the calls it waits for end at once', async () => {
    const embedder = hangingEmbedder();
    const engine = createMemoryEngine(
      { store: createInMemoryStore(), embedder, concurrency: 1, closeTimeoutMs: 0, logger: { log: () => {} } },
      {
        store: () => createInMemoryStore(),
        embedder: () => embedder,
        backupDirectory: () => '.',
        attachmentDirectory: () => '.',
      },
    );
    // A call that, like a retain keeping its input, tries the embedder again after a failure.
    const work = settle(
      engine.track('test', async () => {
        await engine.embed(['first'], 'test').catch(() => undefined);
        return engine.embed(['second'], 'test');
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    const started = performance.now();
    await engine.close();
    expect(performance.now() - started).toBeLessThan(MARGIN_MS);
    const outcome = await work;
    expect(outcome.ok).toBe(false);
    expect(ProviderError.isInstance(!outcome.ok && outcome.error)).toBe(true);
    expect(embedder.signals).toHaveLength(1);
  });
});

describe('providerTimeoutMs bounds each provider call', () => {
  it('keeps a retain whose embedder never answers, within providerTimeoutMs, and reports the timed-out embedding', async () => {
    const embedder = hangingEmbedder();
    const memory = client({ embedder, providerTimeoutMs: 300 });
    const deferred: { ids: string[]; reason: string }[] = [];
    memory.on('embedding:deferred', (event) => deferred.push(event));
    const started = performance.now();
    // A hung embedder is not a reason to lose the text: retain stores it and embeds it later.
    const result = await memory.retain({ content: 'The hallway NAS holds the backups.' });
    expect(performance.now() - started).toBeLessThan(300 + MARGIN_MS);

    expect(result.ids).toHaveLength(1);
    const id = result.ids[0]!;
    expect((await memory.get(id)).content).toBe('The hallway NAS holds the backups.');
    // The embedder was told its call is over, and the deferral names the memory and the deadline.
    expect(embedder.signals[0]?.aborted).toBe(true);
    expect(deferred).toHaveLength(1);
    expect(deferred[0]?.ids).toEqual([id]);
    expect(deferred[0]?.reason).toContain('providerTimeoutMs');
    expect((await memory.stats()).pendingEmbeddings).toBe(1);
  });

  it('keeps a conversation whose model never answers, within providerTimeoutMs per model call', async () => {
    const model = hangingModel();
    const memory = client({ languageModel: model, providerTimeoutMs: 300 });
    const started = performance.now();
    const result = await memory.retain(conversation);
    // A model call that rejects is not asked again: one bounded call.
    expect(performance.now() - started).toBeLessThan(300 + MARGIN_MS);
    expect(result.episodeId).not.toBeNull();
    expect((await memory.get(result.episodeId!)).content).toContain('hallway NAS');
    // Each turn is kept too, as said.
    expect(result.turnIds).toHaveLength(4);
    expect((await memory.get(result.turnIds[0]!)).content).toBe('user: I moved the backups to the NAS in the hallway.');
    expect(model.signals.every((signal) => signal?.aborted)).toBe(true);
  });
});

describe('options', () => {
  it.each([
    ['closeTimeoutMs', -1],
    ['closeTimeoutMs', 1.5],
    ['providerTimeoutMs', 0],
    ['providerTimeoutMs', 'soon'],
  ])('refuses %s: %s with a ConfigError naming the field', (field, value) => {
    let error: unknown;
    try {
      createMemory({ store: createInMemoryStore(), [field]: value } as MemoryOptions);
    } catch (thrown) {
      error = thrown;
    }
    expect(ConfigError.isInstance(error)).toBe(true);
    expect((error as ConfigError).field).toBe(field);
  });
});
