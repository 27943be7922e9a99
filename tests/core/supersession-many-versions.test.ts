import { describe, expect, it } from 'vitest';
import { createMemory } from '../../src/index.js';
import { quiet, STORES } from '../helpers/stores.js';

// Anyone who can store near-duplicates could freeze a fact: the lookup for the facts a new one
// may end was capped at 60 by word score, superseded versions scored like the current one, and
// past about 60 versions the current one fell out of the list and stayed current beside each new
// one (300 versions left 240 current). A fact retained as it happens now looks up the facts true
// now on their own. (Late arrivals, dated in the past, still use the word-score lookup: see
// find-supersessions.ts.)

describe.each(STORES.filter(([name]) => name !== 'lancedb'))('300 versions of one fact (%s)', (_name, make) => {
  it('retained as they happen, leave exactly one current, the last', async () => {
    const memory = createMemory({ store: make(), logger: quiet, scope: { userId: 'ann' } });
    try {
      let last = '';
      for (let version = 1; version <= 300; version++) {
        last = (await memory.retain(`My monthly rent is ${1000 + version} euros.`)).ids[0]!;
      }
      const current = (await memory.list({ limit: 1000 })).filter((item) => item.validTo === null);
      expect(current.map((item) => item.id)).toEqual([last]);
      expect((await memory.get(last))?.content).toBe('My monthly rent is 1300 euros.');
    } finally {
      await memory.close();
    }
  }, 120_000);
});
