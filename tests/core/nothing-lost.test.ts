import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createOpenAIEmbedder } from '../../src/adapters/openai/index.js';
import { createSqliteStore } from '../../src/adapters/sqlite/index.js';
import {
  type ConversationInput,
  createLocalEmbedder,
  createMemory,
  type Embedder,
  type LanguageModel,
  type MemoryClient,
  type MemoryOptions,
  type MemoryStore,
  ProviderError,
} from '../../src/index.js';
import { createCounterIds, createFixedClock, createScriptedLanguageModel } from '../../src/testing/index.js';
import { expectTurnsKept, samConversation } from '../helpers/conversations.js';
import { freshPaths, quiet, STORES, type StoreFactory } from '../helpers/stores.js';

// docs/guides/guarantees.md promises that nothing said is lost: a conversation retain always leaves the
// whole transcript recoverable (an episode, or chunks of it) unless extraction covered it;
// every drop is an event with a reason; and a failing embedder delays embeddings, never
// the text. Each test here was a way to lose a conversation before.

const T0 = Date.parse('2025-12-01T12:00:00Z');
const SAM = { userId: 'sam' };
const DIMENSIONS = 64;

/** How an embedder can fail: each is caught by the engine before anything is stored. */
const FAULTS = ['throws', 'wrong dimensions', 'NaN', 'wrong count'] as const;
type Fault = (typeof FAULTS)[number];

/**
 * The local embedder, with a switch: `fault` null embeds normally, anything else fails that
 * way; `refuses` fails any batch holding a text that contains it (a text the service
 * rejects). Every batch asked for is recorded.
 */
function switchableEmbedder() {
  const local = createLocalEmbedder({ dimensions: DIMENSIONS });
  const state = {
    fault: null as Fault | null,
    refuses: null as string | null,
    calls: [] as string[][],
  };
  const embedder: Embedder = {
    specificationVersion: 'v1',
    id: 'switchable',
    dimensions: DIMENSIONS,
    async embed(texts) {
      state.calls.push([...texts]);
      if (state.refuses !== null && texts.some((text) => text.includes(state.refuses!))) {
        throw new Error('input too long for this model');
      }
      const vectors = await local.embed(texts);
      switch (state.fault) {
        case 'throws':
          throw new Error('connection refused');
        case 'wrong dimensions':
          return vectors.map((vector) => vector.slice(0, DIMENSIONS / 2));
        case 'NaN':
          return vectors.map((vector) => vector.map((value, index) => (index === 0 ? Number.NaN : value)));
        case 'wrong count':
          return vectors.slice(1);
        default:
          return vectors;
      }
    },
  };
  return { embedder, state };
}

/** The store, except that a client closing it leaves it open for the next client. */
function keepOpen(store: MemoryStore): MemoryStore {
  return new Proxy(store, {
    get(target, property) {
      if (property === 'close') return async () => {};
      const value: unknown = Reflect.get(target, property, target);
      // Bound, so that a store with private fields sees itself as the receiver.
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

const turn = (index: number) => ({
  role: index % 2 === 0 ? ('user' as const) : ('assistant' as const),
  content: `turn ${String(index).padStart(2, '0')}: ${'we talked about the staging deploy. '.repeat(2).trim()}`,
  id: `m${index}`,
});
const longConversation = (turns = 40): ConversationInput => ({
  sessionId: 'session_1',
  messages: Array.from({ length: turns }, (_, index) => turn(index)),
});
const shortConversation = (): ConversationInput => samConversation();
const candidate = (category: string, content: string) => ({
  category,
  abstract: content,
  overview: `- ${content}`,
  content,
  entities: ['Sam'],
});
const extraction = (...memories: ReturnType<typeof candidate>[]) => JSON.stringify({ memories });

describe.each(STORES)('nothing said is lost (%s)', (_name, make: StoreFactory) => {
  const opened: MemoryClient[] = [];
  const stores: MemoryStore[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((memory) => memory.close()));
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });

  /** A client over `store` (default: a new one) in Sam's scope, with a fixed clock and counter ids. */
  function client(options: MemoryOptions & { model?: LanguageModel } = {}, store?: MemoryStore) {
    const { model, ...rest } = options;
    const target = store ?? make();
    if (!store) stores.push(target);
    const memory = createMemory({
      store: keepOpen(target),
      clock: createFixedClock(T0),
      ids: createCounterIds(),
      scope: SAM,
      logger: quiet,
      ...(model ? { languageModel: model } : {}),
      ...rest,
    });
    opened.push(memory);
    return { memory, store: target };
  }

  /** Every turn either reached the model whole or sits in a stored episode of Sam's session. */
  async function expectEveryTurnKept(memory: MemoryClient, sent: string, turns: number) {
    const episodes = (await memory.list({ sessionId: 'session_1' })).filter((item) => item.metadata.episode === true);
    const kept = episodes.map((item) => item.content).join('\n');
    const lost = Array.from({ length: turns }, (_, index) => turn(index).content).filter(
      (text) => !sent.includes(text) && !kept.includes(text),
    );
    expect(lost).toEqual([]);
    return episodes;
  }

  it('an empty extraction ({"memories": []}) keeps the whole conversation as an episode and says why', async () => {
    const model = createScriptedLanguageModel([extraction()]);
    const { memory } = client({ model, extraction: { maxChars: 1000 } });
    const failed = vi.fn();
    memory.on('extraction:failed', failed);
    const result = await memory.retain(longConversation());
    expect(result.episodeId).not.toBeNull();
    expect(failed).toHaveBeenCalledWith(
      expect.objectContaining({ episodeId: result.episodeId, reason: expect.stringMatching(/no memories/) }),
    );
    const episodes = await expectEveryTurnKept(memory, '', 40);
    expect(episodes.map((item) => item.id)).toEqual(result.episodeIds);
  });

  it('a transcript longer than maxChars: the turns the model never saw are kept as an episode, and announced', async () => {
    const model = createScriptedLanguageModel([extraction(candidate('events', 'The staging deploy was discussed.'))]);
    const { memory } = client({ model, extraction: { maxChars: 1000 } });
    const skipped = vi.fn();
    memory.on('memory:skipped', skipped);
    const result = await memory.retain(longConversation());
    const sent = model.calls[0]!.messages.map((message) => message.content).join('\n');
    expect(sent).toContain(turn(39).content);
    expect(sent).not.toContain(turn(0).content);
    expect(result.memories.filter((item) => item.category === 'events' && !item.metadata.episode)).toHaveLength(1);
    const episodes = await expectEveryTurnKept(memory, sent, 40);
    // The turns the model read are kept too, as the transcript the extracted memory names.
    expect(episodes.map((item) => item.id).sort()).toEqual([...result.transcriptIds, ...result.episodeIds].sort());
    const older = episodes.find((item) => item.id === result.episodeId)!;
    expect(older).toMatchObject({
      scope: SAM,
      sessionId: 'session_1',
      kind: 'experience',
      category: 'transcript',
      metadata: expect.objectContaining({ transcript: true }),
    });
    expect(older.metadata.messageIds).toContain('m0');
    // Every turn, the ones the model never saw included, is also kept as a memory of its own.
    await expectTurnsKept(memory, result.turnIds, longConversation().messages);
    const notTurns = new Set([...result.ids, ...result.memories.map((item) => item.id)]);
    expect(result.turnIds.filter((id) => notTurns.has(id))).toEqual([]);
    expect(skipped).toHaveBeenCalledWith(
      expect.objectContaining({ reason: 'guard', detail: expect.stringMatching(/older message/) }),
    );
  });

  it('a newest message longer than maxChars: the model sees its end, and the whole conversation is kept', async () => {
    const model = createScriptedLanguageModel([extraction(candidate('events', 'A long report was pasted.'))]);
    const { memory } = client({ model, extraction: { maxChars: 200 } });
    const conversation = longConversation(4);
    conversation.messages.push({ role: 'user', content: `START ${'x'.repeat(500)} END`, id: 'm4' });
    const result = await memory.retain(conversation);
    const sent = model.calls[0]!.messages.map((message) => message.content).join('\n');
    expect(sent).toContain('END');
    expect(sent).not.toContain('START');
    const episode = await memory.get(result.episodeId!);
    expect(episode.content).toContain('START');
    expect(episode.content).toContain(turn(0).content);
  });

  it.each(['SKIP', 'MERGE'] as const)(
    'a %s naming a memory of another scope is not followed: the candidate is kept, the other memory untouched',
    async (verdict) => {
      const model = createScriptedLanguageModel([
        extraction(candidate('preferences', 'Sam prefers dark mode in all editors.')),
        JSON.stringify({ decision: verdict, targetId: 'mem_bob', reason: 'same preference' }),
      ]);
      const { memory, store } = client({ model });
      const bob = client({ scope: { userId: 'bob' } }, store).memory;
      await bob.retain({ id: 'mem_bob', content: 'Bob prefers dark mode in editors.', category: 'preferences' });
      await memory.retain({ content: 'Sam prefers dark mode in editors.', category: 'preferences' });
      const skipped = vi.fn();
      memory.on('memory:skipped', skipped);
      const result = await memory.retain(shortConversation());
      expect(model.calls).toHaveLength(2); // extraction and the decision; no merge call
      expect(skipped).not.toHaveBeenCalled();
      expect(result.skipped).toEqual([]);
      expect(result.merged).toEqual([]);
      expect(result.memories).toHaveLength(1);
      expect(result.memories[0]).toMatchObject({
        content: 'Sam prefers dark mode in all editors.',
        scope: SAM,
        metadata: expect.objectContaining({ decision: expect.stringContaining('mem_bob') }),
      });
      const bobs = await bob.get('mem_bob');
      expect(bobs.content).toBe('Bob prefers dark mode in editors.');
      expect(bobs.metadata.history).toBeUndefined();
    },
  );

  describe.each(FAULTS)('an embedder whose output is wrong (%s)', (fault) => {
    it('retain({ messages }) with a model keeps what was learned, unembedded, and announces it', async () => {
      const { embedder, state } = switchableEmbedder();
      const model = createScriptedLanguageModel([extraction(candidate('events', 'The deploy failed: disk full.'))]);
      const { memory, store } = client({ model, embedder });
      const deferred = vi.fn();
      memory.on('embedding:deferred', deferred);
      state.fault = fault;
      const result = await memory.retain(shortConversation());
      expect(result.failure).toBeNull();
      expect(result.memories.map((item) => item.content)).toEqual(['The deploy failed: disk full.']);
      // What was learned and the transcript it came from both wait for an embedding; so do the
      // turns, written by a second retain once what was learned is committed.
      expect(result.turnIds).toHaveLength(4);
      expect(deferred).toHaveBeenCalledTimes(2);
      expect(deferred).toHaveBeenNthCalledWith(1, {
        ids: [...result.ids, ...result.transcriptIds],
        reason: expect.stringContaining('switchable'),
      });
      expect(deferred).toHaveBeenNthCalledWith(2, {
        ids: result.turnIds,
        reason: expect.stringContaining('switchable'),
      });
      expect((await store.getEmbeddings([...result.ids, ...result.turnIds])).size).toBe(0);
      expect((await memory.stats()).pendingEmbeddings).toBe(2 + 4);
      await expectTurnsKept(memory, result.turnIds, shortConversation().messages);
    });

    it('retain({ messages }) without a model keeps the episode, unembedded, and announces it', async () => {
      const { embedder, state } = switchableEmbedder();
      const { memory } = client({ embedder });
      const deferred = vi.fn();
      memory.on('embedding:deferred', deferred);
      state.fault = fault;
      const result = await memory.retain(shortConversation());
      const episode = await memory.get(result.episodeId!);
      expect(episode.content).toContain('the disk was full');
      // One retain keeps the turns (first), the episode and any facts: one deferral names them all.
      expect(result.turnIds).toHaveLength(4);
      expect(result.ids).toContain(result.episodeId);
      expect(deferred).toHaveBeenCalledTimes(1);
      expect(deferred).toHaveBeenCalledWith({ ids: [...result.turnIds, ...result.ids], reason: expect.any(String) });
      expect((await memory.stats()).pendingEmbeddings).toBe(result.turnIds.length + result.ids.length);
      await expectTurnsKept(memory, result.turnIds, shortConversation().messages);
    });

    it('retain(memories) stores the batch unembedded and announces it, instead of rejecting', async () => {
      const { embedder, state } = switchableEmbedder();
      const { memory } = client({ embedder });
      const deferred = vi.fn();
      memory.on('embedding:deferred', deferred);
      state.fault = fault;
      const result = await memory.retain(['Deploys run at 9am.', 'The staging database listens on port 5433.']);
      expect(result.memories).toHaveLength(2);
      expect(deferred).toHaveBeenCalledWith({ ids: result.ids, reason: expect.any(String) });
      expect((await memory.stats()).pendingEmbeddings).toBe(2);
    });
  });

  it('a memory stored while the embedder was down is found by lexical search before it is embedded', async () => {
    const { embedder, state } = switchableEmbedder();
    const { memory } = client({ embedder });
    state.fault = 'throws';
    const { ids } = await memory.retain('The staging database listens on port 5433.');
    await memory.flush();
    state.fault = null;
    const { results } = await memory.recall('staging database port');
    expect(results.map((hit) => hit.memory.id)).toEqual(ids);
    expect((await memory.stats()).pendingEmbeddings).toBe(1);
  });

  it('once the embedder answers again, what it missed is embedded in the background', async () => {
    const { embedder, state } = switchableEmbedder();
    const { memory, store } = client({ embedder });
    const errors = vi.fn();
    memory.on('error', errors);
    state.fault = 'throws';
    const missed = await memory.retain('The staging database listens on port 5433.');
    await memory.flush();
    state.fault = null;
    await memory.retain('Deploys run at 9am.');
    await memory.flush();
    expect((await store.getEmbeddings(missed.ids)).size).toBe(1);
    expect((await memory.stats()).pendingEmbeddings).toBe(0);
    // A background pass that met the embedder down says so as an event, never as a rejection.
    for (const [event] of errors.mock.calls) expect(event).toMatchObject({ operation: 'embedPending' });
  });

  it('the next client to open the store embeds what an earlier one could not', async () => {
    const { embedder, state } = switchableEmbedder();
    const first = client({ embedder });
    state.fault = 'NaN';
    const missed = await first.memory.retain(['The staging database listens on port 5433.', 'Deploys run at 9am.']);
    await first.memory.close();
    const later = client({ embedder: switchableEmbedder().embedder }, first.store).memory;
    await later.list();
    await later.flush();
    expect((await first.store.getEmbeddings(missed.ids)).size).toBe(2);
    expect((await later.stats()).pendingEmbeddings).toBe(0);
  });

  it('reindex({ onlyMissing: true }) embeds just the missing memories, and rejects while the embedder is down', async () => {
    const { embedder, state } = switchableEmbedder();
    const { memory, store } = client({ embedder });
    const kept = await memory.retain('Deploys run at 9am.');
    state.fault = 'throws';
    const missed = await memory.retain('The staging database listens on port 5433.');
    await memory.flush();
    await expect(memory.reindex({ onlyMissing: true })).rejects.toSatisfy(ProviderError.isInstance);
    state.fault = null;
    state.calls.length = 0;
    const progress = vi.fn();
    expect(await memory.reindex({ onlyMissing: true, onProgress: progress })).toEqual({ reembedded: 1 });
    expect(state.calls).toEqual([['The staging database listens on port 5433.']]);
    expect(progress).toHaveBeenLastCalledWith(2, 2);
    expect((await store.getEmbeddings([...kept.ids, ...missed.ids])).size).toBe(2);
  });

  it('one text the embedder refuses holds up no other, and is not retried on every retain', async () => {
    const { embedder, state } = switchableEmbedder();
    const { memory, store } = client({ embedder });
    state.fault = 'throws';
    const refused = await memory.retain('REFUSED: a pasted log far too long for the model.');
    const other = await memory.retain('The staging database listens on port 5433.');
    await memory.flush();
    state.fault = null;
    state.refuses = 'REFUSED';
    await memory.retain('Deploys run at 9am.');
    await memory.flush();
    expect((await store.getEmbeddings(other.ids)).size).toBe(1);
    expect((await store.getEmbeddings(refused.ids)).size).toBe(0);
    state.calls.length = 0;
    await memory.retain('Backups run at midnight.');
    await memory.flush();
    expect(state.calls.flat().some((text) => text.includes('REFUSED'))).toBe(false);
    expect((await memory.stats()).pendingEmbeddings).toBe(1);
  });

  it('a transcript larger than one memory may hold is kept in chunks, none lost', async () => {
    const { memory } = client();
    const big = (tag: string) => `${tag} ${'word '.repeat(199_990)}${tag}`;
    const messages = Array.from({ length: 6 }, (_, index) => ({
      role: 'user' as const,
      content: big(`part${index}`),
    }));
    const result = await memory.retain({ sessionId: 'session_1', messages });
    expect(result.episodeIds.length).toBeGreaterThan(1);
    const episodes = await Promise.all(result.episodeIds.map((id) => memory.get(id)));
    const text = episodes.map((item) => item.content).join('\n');
    for (let index = 0; index < 6; index++) expect(text.split(`part${index}`)).toHaveLength(3);
    expect(episodes.map((item) => item.metadata.part)).toEqual(episodes.map((_, index) => index + 1));
  }, 60_000);
});

describe('an embeddings server answering HTTP 500', () => {
  let server: Server;
  let baseURL = '';
  let failing = true;
  const paths = freshPaths('nothing-lost');

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        if (failing) {
          res.writeHead(500);
          res.end(JSON.stringify({ error: { message: 'upstream exploded', type: 'server_error' } }));
          return;
        }
        const input = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { input: string[] }).input;
        res.end(
          JSON.stringify({
            object: 'list',
            data: input.map((text, index) => ({ object: 'embedding', index, embedding: [text.length, 1, 1, 1] })),
            model: 'fake-embed',
            usage: { prompt_tokens: input.length, total_tokens: input.length },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it.each(STORES)(
    'retain({ messages }) keeps the conversation, and a later client embeds it once the server recovers (%s)',
    async (_name, make) => {
      const store = make();
      const embedder = () =>
        createOpenAIEmbedder({ baseURL, apiKey: 'sk-test', model: 'fake-embed', dimensions: 4, maxRetries: 0 });
      const model = createScriptedLanguageModel([extraction(candidate('events', 'The deploy failed: disk full.'))]);
      failing = true;
      const memory = createMemory({
        store: keepOpen(store),
        embedder: embedder(),
        languageModel: model,
        logger: quiet,
      });
      const deferred = vi.fn();
      memory.on('embedding:deferred', deferred);
      const result = await memory.retain(shortConversation());
      expect(result.memories.map((item) => item.content)).toEqual(['The deploy failed: disk full.']);
      expect(deferred).toHaveBeenCalledWith(
        expect.objectContaining({
          ids: [...result.ids, ...result.transcriptIds],
          reason: expect.stringMatching(/500|exploded/),
        }),
      );
      expect(result.turnIds).toHaveLength(4);
      expect(deferred).toHaveBeenCalledWith(
        expect.objectContaining({ ids: result.turnIds, reason: expect.stringMatching(/500|exploded/) }),
      );
      await memory.close();

      failing = false;
      const later = createMemory({ store: keepOpen(store), embedder: embedder(), logger: quiet });
      await later.list();
      await later.flush();
      expect((await store.getEmbeddings(result.ids)).size).toBe(1);
      expect((await store.getEmbeddings(result.turnIds)).size).toBe(4);
      await later.close();
      await store.close();
    },
  );

  it('a real restart: a SQLite file holding unembedded memories is completed on the next open', async () => {
    const path = paths();
    const embedder = () =>
      createOpenAIEmbedder({ baseURL, apiKey: 'sk-test', model: 'fake-embed', dimensions: 4, maxRetries: 0 });
    failing = true;
    const before = createMemory({ store: createSqliteStore({ path }), embedder: embedder(), logger: quiet });
    const { ids } = await before.retain({ messages: shortConversation().messages });
    await before.close();

    failing = false;
    const store = createSqliteStore({ path });
    const after = createMemory({ store, embedder: embedder(), logger: quiet });
    expect((await after.stats()).memories).toBeGreaterThan(0);
    await after.flush();
    expect((await after.stats()).pendingEmbeddings).toBe(0);
    expect((await store.getEmbeddings(ids)).size).toBe(ids.length);
    await after.close();
  });
});
