import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/adapters/sqlite/index.js';
import { negationCount } from '../../src/core/text/negation.js';
import { numbersAlike, statedNumbers } from '../../src/core/text/stated-numbers.js';
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
    // The two wordings were retained in the same millisecond, so which one stays is a tie broken
    // by id (random); one of them stays, the other goes, and both negations stay.
    expect(result).toMatchObject({ clusters: 1, deleted: 1 });
    const [kept] = result.kept;
    expect([morning, theMorning]).toContain(kept);
    expect(result.ids).toEqual([kept === morning ? theMorning : morning]);
    const left = (await memory.list()).map((item) => item.id).sort();
    expect(left).toEqual([kept!, notMorning, spicy, notSpicy].sort());
    await memory.close();
  });

  it('keeps facts that state other numbers, months or weekdays; captured repeats of a screen still merge', async () => {
    const memory = createMemory({ store: createSqliteStore({ path: join(dir, 'numbers.sqlite') }), logger: quiet });
    const { ids } = await memory.retain([
      { content: 'User has two siblings.', category: 'profile' },
      { content: 'User has three siblings.', category: 'profile' },
      { content: 'The fiscal year starts in April.', category: 'facts' },
      { content: 'The fiscal year starts in January.', category: 'facts' },
      { content: 'Screen: the inbox shows 12 unread at 09:14', category: 'screen', metadata: { captured: true } },
      { content: 'Screen: the inbox shows 12 unread at 09:15', category: 'screen', metadata: { captured: true } },
    ]);
    const result = await memory.consolidate({ threshold: 0.7 });
    // One of the two screens goes (which one is a tie broken by id); every stated fact stays.
    expect(result.ids).toHaveLength(1);
    expect(ids.slice(4)).toContain(result.ids[0]);
    await memory.close();
  });

  it('reads numbers in digits and words, months and weekdays', () => {
    expect(statedNumbers('Two kids, 1,200 dollars, 3.5 km, on Friday the 3rd of May')).toEqual(
      ['1200', '2', '3', '3.5', 'day:friday'].sort(),
    );
    expect(numbersAlike('The meeting is on the 12th.', 'The meeting is on the 21st.')).toBe(false);
    expect(numbersAlike('Lunch at 12:30 on Monday', 'lunch on Monday at 12:30')).toBe(true);
    expect(numbersAlike('User has a dozen plants.', 'User has 12 plants.')).toBe(true);
  });

  it('counts not, never, no and every n’t', () => {
    expect(negationCount('User is a morning person.')).toBe(0);
    expect(negationCount("I don't want the kids in the photo, and never on Sundays.")).toBe(2);
    expect(negationCount('She isn’t coming; no dessert.')).toBe(2);
    expect(negationCount('Nothing changed.')).toBe(1);
  });
});
