import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/index.js';
import { clientsClosedAfterEach } from '../helpers/clients.js';

const client = clientsClosedAfterEach();

describe('ranking: entity cue', () => {
  const notes = [
    { content: 'Melanie went hiking in the mountains last weekend.', entities: ['Melanie'] },
    { content: 'Caroline went hiking near the lake on Saturday.', entities: ['Caroline'] },
  ];

  it('brings up the memories of the entity the query names, and says so in the breakdown', async () => {
    const plain = client({ ranking: { entityWeight: 0 } });
    await plain.retain(notes);
    const cued = client({ ranking: { entityWeight: 0.5 } });
    await cued.retain(notes);
    const query = 'Where did caroline go hiking?';
    const first = async (memory: ReturnType<typeof client>) => (await memory.recall(query, { explain: true })).results;
    const results = await first(cued);
    expect(results[0]!.memory.entities).toEqual(['Caroline']);
    expect(results[0]!.breakdown.boosts.map((boost) => boost.name)).toContain('entity');
    expect(results[0]!.explanation).toMatch(/entity ×1\.5/);
    expect(results[1]!.breakdown.boosts.map((boost) => boost.name)).not.toContain('entity');
    // Turned off, neither memory is boosted for it.
    for (const result of await first(plain)) expect(result.breakdown.boosts.map((b) => b.name)).not.toContain('entity');
    expect(results.every((result) => result.score <= 1)).toBe(true);
  });

  it('is on by default, at ×1.1', async () => {
    const memory = client();
    await memory.retain(notes);
    const [result] = (await memory.recall('Where did Caroline go hiking?')).results;
    expect(result!.breakdown.boosts).toContainEqual({ name: 'entity', factor: 1.1 });
  });

  it('matches whole names only: "Ann" is not named by "Annual report"', async () => {
    const memory = client({ ranking: { entityWeight: 0.5 } });
    await memory.retain([{ content: 'The annual report is due in March.', entities: ['Ann'] }]);
    const [result] = (await memory.recall('Annual report deadline')).results;
    expect(result!.breakdown.boosts.map((boost) => boost.name)).not.toContain('entity');
    // A later whole-word mention counts even when an earlier one sits inside a longer word.
    const [named] = (await memory.recall('Annual report: what did Ann say?')).results;
    expect(named!.breakdown.boosts.map((boost) => boost.name)).toContain('entity');
  });
});

describe('ranking: pseudo-relevance feedback', () => {
  it('finds a memory that shares no word with the query but shares the best matches’ topic', async () => {
    const texts = [
      'We planned the garden: tomatoes, basil and peppers along the fence.',
      'The garden fence needs tomatoes staked before the basil flowers.',
      'Basil and tomatoes grow best beside the fence in full sun.',
      'Peppers and basil were planted in raised beds by the fence.',
      'The quarterly tax filing is due in April.',
      'Our cat sleeps on the windowsill all afternoon.',
    ];
    const off = client();
    await off.retain(texts);
    const on = client({ ranking: { feedback: { documents: 3, terms: 5, weight: 0.5 } } });
    await on.retain(texts);
    const query = 'What is in the garden?';
    const withoutFeedback = (await off.recall(query, { k: 10 })).results.map((r) => r.memory.content);
    const withFeedback = (await on.recall(query, { k: 10, explain: true })).results;
    const contents = withFeedback.map((result) => result.memory.content);
    // Memories 3 and 4 do not say "garden": only the expansion (basil, tomatoes, fence…) finds them.
    expect(withoutFeedback).not.toContain(texts[3]);
    expect(contents).toContain(texts[3]);
    const found = withFeedback.find((result) => result.memory.content === texts[3])!;
    expect(found.breakdown.lexical).toBeNull();
    expect(found.breakdown.feedback?.rank).toBeGreaterThan(0);
    expect(found.explanation).toMatch(/feedback #\d/);
    // Unrelated memories stay out.
    expect(contents).not.toContain(texts[4]);
    expect(contents).not.toContain(texts[5]);
  });

  it('is off by default: no feedback evidence in the breakdown', async () => {
    const memory = client();
    await memory.retain(['Basil and tomatoes by the fence.', 'Tomatoes and basil in the garden.']);
    const [result] = (await memory.recall('garden')).results;
    expect(result!.breakdown.feedback).toBeUndefined();
  });

  it('rejects settings out of range, naming the field', async () => {
    expect(() => client({ ranking: { feedback: { documents: 0 } } })).toThrow(ConfigError);
    expect(() => client({ ranking: { feedback: { documents: 0 } } })).toThrow(/ranking\.feedback\.documents/);
    expect(() => client({ ranking: { entityWeight: 2 } })).toThrow(/entityWeight/);
  });
});
