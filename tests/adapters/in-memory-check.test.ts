import { describe, expect, it } from 'vitest';
import type { Bm25Index } from '../../src/core/text/bm25-index.js';
import { createInMemoryStore, createMemory } from '../../src/index.js';
import { quiet, tempDir } from '../helpers/stores.js';

// doctor() reports the in-memory store's check() as an integrity check (method "check"), so
// check() must look: a healthy store is ok, and each way its maps can fall out of step with
// one another is a problem named in the report.

/** The store's private maps, reached into only to damage them the way a bug in a write path would. */
interface Internals {
  memories: Map<string, { id: string; content: string }>;
  embeddings: Map<string, Float32Array>;
  lexicalIndex: Bm25Index;
}

const backupDirectory = tempDir('memoir-in-memory-check-');

/** A client over an in-memory store holding three memories with their embeddings. */
async function filled() {
  const store = createInMemoryStore();
  const memory = createMemory({ store, logger: quiet, backupDirectory });
  await memory.retain([
    { content: 'The hallway NAS holds the backups.', entities: ['NAS'], sessionId: 'session-1' },
    { content: 'Peter prefers tea to coffee.', entities: ['Peter'], sessionId: 'session-1' },
    { content: 'The deploy runs from the release branch.' },
  ]);
  const internals = store as unknown as Internals;
  const [first, second] = [...internals.memories.keys()];
  return { store, memory, internals, first: first!, second: second! };
}

describe('in-memory store check()', () => {
  it('answers ok for a healthy store, and doctor() reports it as the store’s own check', async () => {
    const { store, memory, internals } = await filled();
    expect(internals.embeddings.size).toBe(3);
    const checked = await store.check!();
    expect(checked).toMatchObject({ ok: true, problems: [] });
    expect(checked.details).toMatchObject({ memories: 3, embeddings: 3 });
    const report = await memory.doctor();
    expect(report).toMatchObject({ store: 'in-memory', method: 'check', ok: true, problems: [] });
    await memory.close();
  });

  it.each<[string, (state: Internals, ids: { first: string; second: string }) => void, RegExp]>([
    [
      'an embedding of a memory that is not stored',
      (state) => state.embeddings.set('ghost', new Float32Array(state.embeddings.values().next().value!.length)),
      /embedding is held for "ghost", which is not stored/,
    ],
    [
      'an embedding of another dimension',
      (state, { first }) => state.embeddings.set(first, new Float32Array(3)),
      /has 3 dimensions, the store's have \d+/,
    ],
    [
      'an embedding holding NaN',
      (state, { first }) => state.embeddings.get(first)!.fill(Number.NaN),
      /not a finite number/,
    ],
    [
      'a memory missing from the lexical index',
      (state, { first }) => state.lexicalIndex.remove(first),
      /is missing from the lexical index/,
    ],
    [
      'a lexical index entry of a memory no longer stored',
      (state) => state.lexicalIndex.add('gone', 'a memory deleted without its index entry'),
      /holds "gone", which is not stored/,
    ],
    [
      'a memory whose text changed without reindexing',
      (state, { first }) => {
        state.memories.get(first)!.content = 'Something else entirely.';
      },
      /indexed with terms other than its text's/,
    ],
    [
      'a memory held under another id',
      (state, { first, second }) => state.memories.set(first, state.memories.get(second)!),
      /is held under the id/,
    ],
  ])('finds %s, and doctor() reports it', async (_name, damage, problem) => {
    const { store, memory, internals, first, second } = await filled();
    damage(internals, { first, second });
    const checked = await store.check!();
    expect(checked.ok).toBe(false);
    expect(checked.problems.join('\n')).toMatch(problem);
    const report = await memory.doctor();
    expect(report.method).toBe('check');
    expect(report.ok).toBe(false);
    expect(report.problems.join('\n')).toMatch(problem);
    await memory.close();
  });
});
