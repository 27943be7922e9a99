import { describe, expect, it } from 'vitest';
import { createMemory } from '../../src/index.js';
import { createTestStore } from '../../src/testing/index.js';

// A note that opens with "she" stands for the one person the latest retain named; after a
// retain naming several people, or in a transcript line, it stands for no one.

describe('a pronoun that names no one in its memory', () => {
  it('stands for the person the previous retain named, and ends her earlier home', async () => {
    const memory = createMemory({ store: createTestStore(), logger: { log() {} } });
    const [istanbul] = (await memory.retain({ content: 'Elif lives in Istanbul.', occurredAt: '2021-09-01' })).ids;
    const [montreal] = (
      await memory.retain({ content: 'She moved again, to Montreal, for a postdoc.', occurredAt: '2024-03-01' })
    ).ids;
    expect((await memory.get(istanbul!))?.supersededBy).toBe(montreal);
    expect((await memory.get(montreal!))?.metadata.claims).toEqual([
      expect.objectContaining({ subject: 'elif', family: 'residence', value: 'montreal' }),
    ]);
    await memory.close();
  });

  it('after a retain naming two people, or in a transcript line, it stands for no one', async () => {
    const memory = createMemory({ store: createTestStore(), logger: { log() {} } });
    const [oslo] = (await memory.retain({ content: 'Ana lives in Oslo.', occurredAt: '2021-01-01' })).ids;
    await memory.retain([
      { content: 'Ben lives in Rome.', occurredAt: '2021-02-01' },
      { content: 'Ana works at Spotify.', occurredAt: '2021-02-01' },
    ]);
    const [bergen] = (await memory.retain({ content: 'She moved to Bergen.', occurredAt: '2024-01-01' })).ids;
    expect((await memory.get(oslo!))?.supersededBy).toBeNull();
    expect((await memory.get(bergen!))?.metadata.claims).toBeUndefined();
    await memory.retain({ content: 'Ana moved to Oslo again.', occurredAt: '2024-02-01' });
    const [line] = (
      await memory.retain({
        content: 'She moved to Tromsø.',
        occurredAt: '2024-03-01',
        source: { speaker: 'Caroline' },
      })
    ).ids;
    expect((await memory.get(line!))?.metadata.claims).toBeUndefined();
    await memory.close();
  });
});
