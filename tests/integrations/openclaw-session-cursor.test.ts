import { describe, expect, it } from 'vitest';
import { SessionCursors } from '../../src/integrations/openclaw/openclaw-session-cursor.js';

// The capture cursor alone: what counts as new in a transcript the host hands over whole.

const scope = { agentId: 'main', userId: 'sender:alice' };
const options = {
  scope,
  pool: { agentId: 'main', userId: 'group:x' },
  sessionId: 's1',
  captureAssistant: true,
  minMessages: 2,
};
const at = (role: 'user' | 'assistant', text: string, timestamp: number) => ({ role, content: text, timestamp });
const texts = (batches: ReturnType<SessionCursors['read']>) =>
  batches.flatMap((batch) => batch.messages.map((m) => m.content));

describe('SessionCursors', () => {
  it('finds where it stopped after the host compacts the transcript, and captures only what is new', () => {
    const cursors = new SessionCursors(0);
    const first = [at('user', 'one', 1), at('assistant', 'two', 2)];
    expect(texts(cursors.read('k', first, options))).toEqual(['one', 'two']);
    // Compaction: the old messages become a summary; the last one read is still there.
    const compacted = [
      at('assistant', 'summary of earlier turns', 3),
      at('assistant', 'two', 2),
      at('user', 'three', 4),
      at('assistant', 'four', 5),
    ];
    expect(texts(cursors.read('k', compacted, options))).toEqual(['three', 'four']);
    // Rewritten so that the last message read is gone: newer timestamps decide.
    const rewritten = [at('assistant', 'another summary', 6), at('user', 'five', 7), at('assistant', 'six', 8)];
    expect(texts(cursors.read('k', rewritten, options))).toEqual(['another summary', 'five', 'six']);
  });

  it('does not capture messages written before the plugin started (a restarted gateway)', () => {
    const cursors = new SessionCursors(100);
    const transcript = [
      at('user', 'old', 50),
      at('assistant', 'old reply', 60),
      at('user', 'new', 150),
      at('assistant', 'new reply', 160),
    ];
    expect(texts(cursors.read('k', transcript, options))).toEqual(['new', 'new reply']);
  });

  it('holds messages below minMessages until flushed, and flushes the oldest session when the table is full', () => {
    const cursors = new SessionCursors(0, 2);
    expect(cursors.read('a', [at('user', 'a1', 1)], options)).toEqual([]);
    expect(cursors.read('b', [at('user', 'b1', 2)], options)).toEqual([]);
    const pushedOut = cursors.read('c', [at('user', 'c1', 3)], options);
    expect(pushedOut.map((batch) => [batch.sessionKey, batch.messages.map((m) => m.content)])).toEqual([['a', ['a1']]]);
    expect(cursors.flush('b').map((batch) => batch.messages.map((m) => m.content))).toEqual([['b1']]);
    expect(cursors.flush('b')).toEqual([]);
    expect(cursors.flushAll().map((batch) => batch.sessionKey)).toEqual(['c']);
  });
});
