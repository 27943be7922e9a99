import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemory, formatContext, type MemoryClient } from '../../src/index.js';

// A conversation is recalled turn by turn, whether it was retained whole or as it was spoken;
// a turn can come back with the turns said around it. On a real SQLite file.

const homes: string[] = [];
const clients: MemoryClient[] = [];
function client(scope?: { userId: string }): MemoryClient {
  const home = mkdtempSync(join(tmpdir(), 'memoir-turns-'));
  homes.push(home);
  const memory = createMemory({ home, logger: { log() {} }, ...(scope ? { scope } : {}) });
  clients.push(memory);
  return memory;
}
afterEach(async () => {
  for (const memory of clients.splice(0)) await memory.close();
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

const talk = [
  { role: 'user' as const, name: 'Sam', content: 'We finally tried the new place on Rua Augusta.', id: 'm1' },
  { role: 'assistant' as const, content: 'How was it?', id: 'm2' },
  { role: 'user' as const, name: 'Sam', content: 'The ramen was incredible, a big bowl with extra egg.', id: 'm3' },
  { role: 'assistant' as const, content: 'I will remember that.', id: 'm4' },
  { role: 'user' as const, name: 'Sam', content: 'Next week I fly to Tokyo for the conference.', id: 'm5' },
];

describe('retain({ messages }) keeps the conversation turn by turn', () => {
  it('one memory per turn, numbered in order, with speaker, message id and date; the whole as a transcript', async () => {
    const memory = client();
    const result = await memory.retain({ messages: talk, sessionId: 'chat-1', occurredAt: '2025-03-02' });
    expect(result.turnIds).toHaveLength(5);
    const turns = await memory.list({ categories: ['conversation'], limit: 10 });
    const ordered = turns.sort((a, b) => Number(a.metadata.turn) - Number(b.metadata.turn));
    expect(ordered.map((turn) => turn.content)).toEqual([
      'Sam: We finally tried the new place on Rua Augusta.',
      'assistant: How was it?',
      'Sam: The ramen was incredible, a big bowl with extra egg.',
      'assistant: I will remember that.',
      'Sam: Next week I fly to Tokyo for the conference.',
    ]);
    expect(ordered.map((turn) => turn.metadata.turn)).toEqual([0, 1, 2, 3, 4]);
    expect(ordered[2]).toMatchObject({
      entities: ['Sam'],
      sessionId: 'chat-1',
      occurredAt: '2025-03-02T00:00:00.000Z',
      source: { messageId: 'm3', speaker: 'Sam', origin: 'user' },
    });
    expect(ordered[1]?.source).toMatchObject({ messageId: 'm2', origin: 'agent' });
    // Its neighbours, two on either side, are indexed with it.
    expect(ordered[2]?.context).toBe(
      [ordered[0], ordered[1], ordered[3], ordered[4]].map((turn) => turn?.content).join('\n'),
    );
    const [transcript] = await memory.list({ categories: ['transcript'] });
    expect(transcript?.content).toContain('The ramen was incredible');
    expect(result.episodeId).toBe(transcript?.id);
    // Recall returns the turn, not the whole conversation.
    const recalled = await memory.recall('ramen with extra egg', { k: 3 });
    expect(recalled.results[0]?.memory.source?.messageId).toBe('m3');
    expect(recalled.results.some((hit) => hit.memory.category === 'transcript')).toBe(false);
  });

  it('turns retained one call at a time get the same windows as the whole conversation at once', async () => {
    const whole = client();
    await whole.retain({ messages: talk, sessionId: 'chat-1', occurredAt: '2025-03-02' });
    const spoken = client();
    for (const message of talk) {
      await spoken.retain({ messages: [message], sessionId: 'chat-1', occurredAt: '2025-03-02' });
    }
    const view = async (memory: MemoryClient) =>
      (await memory.list({ categories: ['conversation'], limit: 10 }))
        .map((turn) => [turn.metadata.turn, turn.content, turn.context])
        .sort((a, b) => Number(a[0]) - Number(b[0]));
    expect(await view(spoken)).toEqual(await view(whole));
    // The first turn is found by what was said after it, in a later call.
    const hits = await spoken.recall('Rua Augusta ramen', { k: 1 });
    expect(hits.results[0]?.memory.source?.messageId).toBe('m1');
  });

  it('a window does not cross sessions or scopes', async () => {
    const memory = client();
    await memory.retain({ messages: talk.slice(0, 2), sessionId: 'chat-1' });
    await memory.retain({ messages: talk.slice(2, 3), sessionId: 'chat-2' });
    await memory.retain({ messages: talk.slice(3, 4), sessionId: 'chat-1', scope: { userId: 'other' } });
    const [third] = await memory.list({ sessionId: 'chat-2', categories: ['conversation'] });
    expect(third?.metadata.turn).toBe(0);
    expect(third?.context ?? null).toBeNull();
    const [otherUser] = await memory.list({ scope: { userId: 'other' }, categories: ['conversation'] });
    expect(otherUser?.metadata.turn).toBe(0);
  });

  it('content retained with contextWindow in a session is windowed across calls too', async () => {
    const memory = client();
    for (const line of ['Ana: the boat leaves at nine', 'Ben: bring the blue tent', 'Ana: and sunscreen']) {
      await memory.retain({ content: line, sessionId: 'trip' }, { contextWindow: 1 });
    }
    const rows = (await memory.list({ sessionId: 'trip' })).sort(
      (a, b) => Number(a.metadata.turn) - Number(b.metadata.turn),
    );
    expect(rows.map((row) => row.context)).toEqual([
      'Ben: bring the blue tent',
      'Ana: the boat leaves at nine\nAna: and sunscreen',
      'Ben: bring the blue tent',
    ]);
  });
});

describe("recall's expand", () => {
  it("'window' folds the turns around a hit into one result; formatContext shows them in order", async () => {
    const memory = client();
    await memory.retain({ messages: talk, sessionId: 'chat-1', occurredAt: '2025-03-02' });
    const response = await memory.recall('ramen with extra egg', { k: 5, expand: 'window' });
    const [top] = response.results;
    expect(top?.memory.source?.messageId).toBe('m3');
    expect(top?.turns?.map((turn) => turn.source?.messageId)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
    // Every other turn was folded into the first result.
    expect(response.results).toHaveLength(1);
    const block = formatContext(response);
    expect(block.indexOf('Rua Augusta')).toBeLessThan(block.indexOf('ramen'));
    expect(block.indexOf('ramen')).toBeLessThan(block.indexOf('Tokyo'));
  });

  it("'session' brings the whole session; a budget too small for it keeps the turn alone", async () => {
    const memory = client();
    const long = Array.from({ length: 12 }, (_, index) => ({
      role: 'user' as const,
      content: index === 6 ? 'My locker code is 4471.' : `Small talk number ${index} about the weather and traffic.`,
    }));
    await memory.retain({ messages: long, sessionId: 's' });
    const whole = await memory.recall('locker code', { k: 1, expand: 'session' });
    expect(whole.results[0]?.turns).toHaveLength(12);
    const tight = await memory.recall('locker code', { k: 1, expand: 'session', tokenBudget: 80 });
    expect(tight.results[0]?.memory.content).toBe('user: My locker code is 4471.');
    expect(tight.results[0]?.turns).toBeUndefined();
    expect(tight.totalTokens).toBeLessThanOrEqual(80);
  });

  it('refuses an unknown mode, naming the field', async () => {
    const memory = client();
    await expect(memory.recall('x', { expand: 'paragraph' as never })).rejects.toMatchObject({
      issues: [expect.objectContaining({ field: 'options.expand' })],
    });
  });
});

describe('numbering after a large batch', () => {
  it('a batch larger than the tail read keeps counting on from its last turn', async () => {
    const memory = client();
    const lines = Array.from({ length: 120 }, (_, index) => `line ${index} of the long log`);
    await memory.retain(
      lines.map((content) => ({ content, sessionId: 'log' })),
      { contextWindow: 1 },
    );
    await memory.retain({ content: 'the line after the batch', sessionId: 'log' }, { contextWindow: 1 });
    const [after] = await memory.list({ sessionId: 'log', limit: 1, orderBy: 'createdAt' });
    expect(after?.content).toBe('the line after the batch');
    expect(after?.metadata.turn).toBe(120);
    expect(after?.context).toBe('line 119 of the long log');
  });
});
