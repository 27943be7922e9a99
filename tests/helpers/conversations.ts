import { expect } from 'vitest';
import type { ConversationInput, ConversationMessage, Memory, MemoryClient } from '../../src/index.js';

/** Sam's four-turn conversation: a preference (dark mode) and an event (a failed deploy, fixed). */
export const samConversation = (extra: Partial<ConversationInput> = {}): ConversationInput => ({
  sessionId: 'session_1',
  messages: [
    { role: 'user', content: 'Hi, I am Sam. I switched all my editors to dark mode.', id: 'm1' },
    { role: 'assistant', content: 'Noted! Dark mode everywhere.', id: 'm2' },
    { role: 'user', content: 'Also the deploy failed yesterday because the disk was full.', id: 'm3' },
    { role: 'assistant', content: 'I cleared the logs and redeployed; it worked.', id: 'm4' },
  ],
  ...extra,
});

/**
 * Check the turns a `retain({ messages })` stored, as its result's `turnIds` names them: one
 * memory per user or assistant message with words, in message order — category
 * `conversation`, kind `experience`, `Speaker: words`, the speaker's name as entity, the message
 * id as source — numbered in the session (`metadata.turn`) from `firstTurn` on, or not numbered
 * when `firstTurn` is null (a conversation without a session). Returns the stored turns.
 */
export async function expectTurnsKept(
  memory: MemoryClient,
  turnIds: readonly string[],
  messages: readonly ConversationMessage[],
  firstTurn: number | null = 0,
): Promise<Memory[]> {
  const said = messages.flatMap((message) => {
    if (typeof message.content !== 'string') throw new Error('expectTurnsKept reads messages written as text');
    const content = message.content.trim();
    return (message.role === 'user' || message.role === 'assistant') && content.length > 0
      ? [{ ...message, content }]
      : [];
  });
  expect(turnIds).toHaveLength(said.length);
  const turns = await Promise.all(turnIds.map((id) => memory.get(id)));
  turns.forEach((turn, index) => {
    const message = said[index]!;
    expect(turn).toMatchObject({
      content: `${message.name ?? message.role}: ${message.content}`,
      category: 'conversation',
      kind: 'experience',
      entities: message.name ? [message.name] : [],
      source: expect.objectContaining({
        ...(message.id ? { messageId: message.id } : {}),
        origin: message.role === 'user' ? 'user' : 'agent',
      }),
      metadata: expect.objectContaining({ role: message.role }),
    });
    expect(turn.metadata.turn).toBe(firstTurn === null ? undefined : firstTurn + index);
    expect(turn.metadata.episode).toBeUndefined();
  });
  return turns;
}
