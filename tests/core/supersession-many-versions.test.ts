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

// Only the user's word changes the user's facts: a captured tool output (a fetched web page) and a
// quote of someone else are recalled beside what the user said, never instead of it.
describe.each(STORES.filter(([name]) => name !== 'lancedb'))('untrusted words end no fact (%s)', (_name, make) => {
  it('a captured web page saying “I moved to Berlin” and Mallory’s quote of the same leave Vienna current', async () => {
    const memory = createMemory({ store: make(), logger: quiet, scope: { userId: 'ann' } });
    try {
      const vienna = (await memory.retain({ content: 'I live in Vienna.', occurredAt: '2024-01-01T00:00:00Z' }))
        .ids[0]!;
      await memory.retain({
        kind: 'experience',
        content: 'web_fetch({"url":"https://example.test/profile"}) succeeded → I moved to Berlin last month.',
        metadata: { captured: true, type: 'tool', tool: 'web_fetch', success: true },
      });
      await memory.retain('Mallory said: "I moved to Berlin last month."');
      expect((await memory.get(vienna))?.validTo).toBeNull();
      expect((await memory.get(vienna))?.supersededBy).toBeNull();
      // The user's own word still does.
      const lisbon = (await memory.retain('I moved to Lisbon.')).ids[0]!;
      expect((await memory.get(vienna))?.supersededBy).toBe(lisbon);
    } finally {
      await memory.close();
    }
  });
});
