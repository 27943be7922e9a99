import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemoryClient } from '../../src/index.js';
import { fixtureCopy, workspaceClient } from '../helpers/workspace.js';

// The seed's recall kinds over the hand-written workspace; the client's clock is 2025-12-03 noon.

let memory: MemoryClient;
beforeAll(async () => {
  memory = workspaceClient(fixtureCopy());
  await memory.workspace.index();
});
afterAll(() => memory.close());

describe('recall kinds over a workspace', () => {
  it('entity: "tell me about Peter" gives his page, then facts that mention him, newest first', async () => {
    const response = await memory.recall('Tell me about Peter', { k: 6 });
    expect(response.intent).toMatchObject({ kind: 'entity', entity: 'Peter' });
    const citations = response.results.map((result) => result.citation);
    expect(citations[0]).toBe('bank/entities/Peter.md#L3');
    // Undated pages hold now, so they come before the day files (they are stored undated:
    // metadata.undated, at the earliest instant, so that time filters leave them out).
    expect(citations.slice(1).sort()).toEqual([
      'bank/opinions.md#L3',
      'memory.md#L5',
      'memory.md#L6',
      'memory/2025-11-24.md#L7',
      'memory/2025-12-01.md#L10',
    ]);
    const dates = response.results
      .slice(1)
      .map((result) => (result.memory.metadata.undated === true ? 'now' : result.memory.occurredAt));
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(response.results.every((result) => result.memory.entities.includes('Peter'))).toBe(true);
  });

  it('entity: a multi-word name finds its slug, an unknown name stays lexical', async () => {
    const castle = await memory.recall('who is The Castle?', { k: 3 });
    expect(castle.intent).toMatchObject({ kind: 'entity', entity: 'The-Castle' });
    expect(castle.results[0]!.citation).toBe('bank/entities/The-Castle.md#L3');
    const unknown = await memory.recall('who is Zed?');
    expect(unknown.intent?.kind).toBe('lexical');
  });

  it('opinion: "what does Peter prefer?" gives his opinions by confidence, with evidence', async () => {
    const response = await memory.recall('What does Peter prefer?', { k: 10 });
    expect(response.intent).toMatchObject({ kind: 'opinion', entity: 'Peter' });
    expect(response.results.every((result) => result.memory.kind === 'opinion')).toBe(true);
    expect(response.results.map((result) => [result.confidence, result.citation])).toEqual([
      [0.95, 'memory/2025-11-27.md#L10'],
      [0.9, 'memory.md#L6'],
      [0.8, 'memory/2025-11-20.md#L9'],
      [0.7, 'bank/opinions.md#L3'],
    ]);
    expect(response.results[0]!.evidence).toEqual(['memory/2025-11-27.md#L10']);
    const emoji = await memory.recall('how does Peter feel about emoji?');
    expect(emoji.intent?.kind).toBe('opinion');
    expect(emoji.results[0]!.citation).toBe('memory/2025-11-20.md#L9');
  });

  it('temporal: "what happened around Nov 27" lists that span; a stated range counts', async () => {
    const response = await memory.recall('what happened around Nov 27', { k: 20 });
    expect(response.intent).toMatchObject({
      kind: 'temporal',
      since: '2025-11-24T00:00:00.000Z',
      until: '2025-11-30T23:59:59.999Z',
    });
    const files = new Set(response.results.map((result) => result.memory.source?.file));
    expect([...files].sort()).toEqual(['memory/2025-11-24.md', 'memory/2025-11-27.md']);
  });

  it('temporal: a cue lifts memories in its span; since/until accept "last week"', async () => {
    const during = await memory.recall('warelay during Nov 2025', { k: 3 });
    expect(during.intent?.kind).toBe('temporal');
    expect(during.results.every((result) => result.memory.occurredAt.startsWith('2025-11'))).toBe(true);
    expect(during.results[0]!.breakdown.boosts.map((boost) => boost.name)).toContain('time');
    const lastWeek = await memory.recall('Peter', { since: 'last week', until: 'last week', k: 20 });
    const dates = lastWeek.results.map((result) => result.memory.occurredAt);
    expect(dates.length).toBeGreaterThan(0);
    expect(dates.every((date) => date >= '2025-11-24' && date < '2025-12-01')).toBe(true);
    const thirty = await memory.recall('Peter', { since: '7d', k: 20 });
    expect(thirty.results.every((result) => result.memory.occurredAt >= '2025-11-26')).toBe(true);
  });

  it('temporal: "last time we tried" puts the newest relevant memory first', async () => {
    const response = await memory.recall('last time we fixed the reconnect loop', { k: 3 });
    expect(response.intent).toMatchObject({ kind: 'temporal', newest: true });
    const dates = response.results.map((result) => result.memory.occurredAt);
    expect(dates[0]! >= dates[1]!).toBe(true);
  });

  it('lexical stays as it was, and intent can be forced', async () => {
    const plain = await memory.recall('Baileys reconnect loop', { k: 3 });
    expect(plain.intent?.kind).toBe('lexical');
    const forced = await memory.recall('Tell me about Peter', { k: 3, intent: 'lexical' });
    expect(forced.intent?.kind).toBe('lexical');
    const asEntity = await memory.recall('warelay', { k: 2, intent: 'entity' });
    expect(asEntity.results[0]!.citation).toBe('bank/entities/warelay.md#L3');
  });
});
