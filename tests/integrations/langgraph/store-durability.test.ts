import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemory } from '../../../src/index.js';
import { MemoirStore } from '../../../src/integrations/langgraph/index.js';
import { collect, quiet, STORES, tempDir } from '../../helpers/stores.js';

// Items are memoir memories, so what keeps memories keeps them: the SQLite home across
// processes' worth of reopening, backups and restore, export and import — values exactly as put.

const VALUE = {
  text: 'Alice is allergic to peanuts.',
  severity: 3,
  confirmed: true,
  note: null,
  tags: ['health', 'food'],
  nested: { deeper: { list: [1.5, -2, 'é ✓ 𝄞'] } },
};

describe.each(STORES)('MemoirStore items survive on %s', (_name, makeStore) => {
  it('a backup restored into an emptied store gives back every item, value and createdAt exactly', async () => {
    const backups = tempDir('memoir-langgraph-backups-');
    const memory = createMemory({ store: makeStore(), logger: quiet, backupDirectory: backups });
    const store = new MemoirStore({ memory });
    await store.put(['users', 'alice', 'facts'], 'allergy', VALUE);
    await store.put(['shared'], 'motd', { text: 'Hello' });
    const before = await store.get(['users', 'alice', 'facts'], 'allergy');
    const backup = await memory.backup('langgraph');
    await memory.clearAll({ confirm: true });
    expect(await store.get(['users', 'alice', 'facts'], 'allergy')).toBeNull();
    await memory.restore(backup.path, { confirm: true });
    const after = await store.get(['users', 'alice', 'facts'], 'allergy');
    expect(after).toEqual(before);
    expect(after!.value).toStrictEqual(VALUE);
    expect(await store.listNamespaces()).toEqual([['shared'], ['users', 'alice', 'facts']]);
    const ranked = await store.search(['users', 'alice'], { query: 'peanut allergy' });
    expect(ranked[0]!.key).toBe('allergy');
    await memory.close();
  });

  it('an export imported into another store gives back every item', async () => {
    const source = createMemory({ store: makeStore(), logger: quiet });
    const target = createMemory({ store: makeStore(), logger: quiet });
    await new MemoirStore({ memory: source }).put(['users', 'alice', 'facts'], 'allergy', VALUE);
    await target.import(await collect(source.export()));
    const item = await new MemoirStore({ memory: target }).get(['users', 'alice', 'facts'], 'allergy');
    expect(item!.value).toStrictEqual(VALUE);
    await source.close();
    await target.close();
  });
});

describe('MemoirStore({ home })', () => {
  it('opens <home>/memoir.sqlite as the memoir command does; a second store over the home reads what the first put', async () => {
    const home = tempDir('memoir-langgraph-home-');
    const first = new MemoirStore({ home });
    await first.put(['users', 'alice', 'facts'], 'allergy', VALUE);
    await first.stop();
    const memory = createMemory({ home, logger: quiet });
    const memories = await memory.list({ scope: { userId: 'alice' } });
    expect(memories.map((m) => m.content)).toEqual([
      [
        'text: Alice is allergic to peanuts.',
        'severity: 3',
        'confirmed: true',
        'tags[0]: health',
        'tags[1]: food',
        'nested.deeper.list[0]: 1.5',
        'nested.deeper.list[1]: -2',
        'nested.deeper.list[2]: é ✓ 𝄞',
      ].join('\n'),
    ]);
    await memory.close();
    const second = new MemoirStore({ home });
    expect((await second.get(['users', 'alice', 'facts'], 'allergy'))!.value).toStrictEqual(VALUE);
    await second.stop();
    expect(join(home, 'memoir.sqlite')).toMatch(/memoir\.sqlite$/);
  });

  it('stop() closes only a client the store opened, never one it was given', async () => {
    const memory = createMemory({ store: STORES[0]![1](), logger: quiet });
    const store = new MemoirStore({ memory });
    await store.put(['a'], 'k', { n: 1 });
    await store.stop();
    expect((await memory.list()).length).toBe(1);
    await memory.close();
  });
});
