import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/adapters/sqlite/index.js';
import { negationCount } from '../../src/core/text/negation.js';
import { createMemory } from '../../src/index.js';
import { quiet, tempDir } from '../helpers/stores.js';

// consolidate merges by cosine alone, with no model to read the words. The local hashing
// embedder drops "not" with the other stop words, so "User is a morning person." and "User is
// not a morning person." embed to cosine 1.0 and consolidate deleted one of two opposite
// facts. A memory that negates otherwise is never a duplicate. On a real SQLite file.

const dir = tempDir('memoir-consolidate-negations-');

describe('consolidate never merges a fact with its negation', () => {
  it('keeps "not X" beside "X" and still merges a rewording of X', async () => {
    const memory = createMemory({ store: createSqliteStore({ path: join(dir, 'memoir.sqlite') }), logger: quiet });
    const { ids } = await memory.retain([
      { content: 'User is a morning person.', category: 'profile' },
      { content: 'User is not a morning person.', category: 'profile' },
      { content: 'The user is a morning person.', category: 'profile' },
      { content: 'User enjoys spicy food.', category: 'preferences' },
      { content: 'User does not enjoy spicy food.', category: 'preferences' },
    ]);
    const [morning, notMorning, theMorning, spicy, notSpicy] = ids as [string, string, string, string, string];
    const planned = await memory.consolidate({ dryRun: true });
    expect(planned.ids).not.toContain(notMorning);
    expect(planned.ids).not.toContain(notSpicy);

    const result = await memory.consolidate();
    expect(result).toMatchObject({ clusters: 1, deleted: 1, kept: [morning], ids: [theMorning] });
    const left = (await memory.list()).map((item) => item.id).sort();
    expect(left).toEqual([morning, notMorning, spicy, notSpicy].sort());
    await memory.close();
  });

  it('counts not, never, no and every n’t', () => {
    expect(negationCount('User is a morning person.')).toBe(0);
    expect(negationCount("I don't want the kids in the photo, and never on Sundays.")).toBe(2);
    expect(negationCount('She isn’t coming; no dessert.')).toBe(2);
    expect(negationCount('Nothing changed.')).toBe(1);
  });
});
