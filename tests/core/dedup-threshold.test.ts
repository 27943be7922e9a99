import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/adapters/sqlite/index.js';
import {
  dedupSimilarity,
  LEXICAL_DEDUP_SIMILARITY,
  SEMANTIC_DEDUP_SIMILARITY,
} from '../../src/core/retain/conversation/dedup-threshold.js';
import { createMemory, type MemoryClient, type MemoryOptions, type MemorySkippedEvent } from '../../src/index.js';
import { createScriptedLanguageModel } from '../../src/testing/index.js';
import { samConversation } from '../helpers/conversations.js';
import { quiet, tempDir } from '../helpers/stores.js';

// The similarity from which the conversation pipeline shows a stored memory to the model's
// dedup decision, per embedder kind. With the local hashing embedder, a reworded duplicate
// ("Sam likes to get short answers." / "Sam prefers answers that are short.", cosine 0.57)
// used to stay below the seed's 0.7: the model never saw the stored memory and the fact was
// stored twice. On a real SQLite file; the model is scripted.

const SCOPE = { userId: 'sam' };
const STORED = 'Sam likes to get short answers.';
const REWORDED = 'Sam prefers answers that are short.';
const dir = tempDir('memoir-dedup-threshold-');
const open: MemoryClient[] = [];
afterEach(async () => {
  for (const memory of open.splice(0)) await memory.close();
});

const extraction = JSON.stringify({
  memories: [
    { category: 'preferences', abstract: REWORDED, overview: `- ${REWORDED}`, content: REWORDED, entities: [] },
  ],
});
const skip = (targetId: string) => JSON.stringify({ decision: 'SKIP', targetId, reason: 'says the same' });

async function client(file: string, options: MemoryOptions = {}) {
  const model = createScriptedLanguageModel((_request, index) => (index === 0 ? extraction : skip('mem_stored')));
  const memory = createMemory({
    store: createSqliteStore({ path: join(dir, file) }),
    languageModel: model,
    scope: SCOPE,
    logger: quiet,
    ...options,
  });
  open.push(memory);
  await memory.retain({ id: 'mem_stored', content: STORED, category: 'preferences' } as never);
  return { memory, model };
}

describe('dedup threshold per embedder kind', () => {
  it('with the local embedder, a reworded duplicate reaches the dedup decision and is stored once', async () => {
    const { memory, model } = await client('lexical.sqlite');
    expect(memory.embedder.semantic).toBe(false);
    const skipped: MemorySkippedEvent[] = [];
    memory.on('memory:skipped', (event) => skipped.push(event));
    const result = await memory.retain(samConversation());
    // Extraction, then the dedup decision that was shown the stored memory.
    expect(model.calls).toHaveLength(2);
    expect(model.calls[1]!.messages.map((message) => message.content).join('\n')).toContain(STORED);
    expect(result.memories).toHaveLength(0);
    expect(skipped.map((event) => event.reason)).toEqual(['duplicate']);
    expect((await memory.list({ categories: ['preferences'] })).map((item) => item.content)).toEqual([STORED]);
  });

  it('a configured extraction.similarityThreshold wins over the kind’s default', async () => {
    const { memory, model } = await client('configured.sqlite', { extraction: { similarityThreshold: 0.7 } });
    const result = await memory.retain(samConversation());
    expect(model.calls).toHaveLength(1);
    expect(result.memories.map((item) => item.content)).toEqual([REWORDED]);
  });

  it('is 0.7 for a semantic embedder (or one that does not say), 0.4 for a lexical one', () => {
    expect(SEMANTIC_DEDUP_SIMILARITY).toBe(0.7);
    expect(LEXICAL_DEDUP_SIMILARITY).toBe(0.4);
    expect(dedupSimilarity({ semantic: true })).toBe(0.7);
    expect(dedupSimilarity({})).toBe(0.7);
    expect(dedupSimilarity({ semantic: false })).toBe(0.4);
    expect(dedupSimilarity({ semantic: false }, 0.55)).toBe(0.55);
  });
});
