import type { ParsedConversation } from '../../conversation/conversation-input.js';
import type { MemoryInput, Scope } from '../../spec/memory.js';

/**
 * Category of the memories that keep one turn of a conversation each, as said: what recall
 * returns for a conversation (the whole conversation is kept too, as a transcript recall
 * leaves out).
 */
export const TURN_CATEGORY = 'conversation';

/** How a transcript line shows a tool call (`→ name(arguments)`). */
const CALL_MARK = '→ ';

/** Where a conversation's memories land. */
export interface TurnPlacement {
  scope: Scope;
  sessionId?: string;
  occurredAt: string;
}

/**
 * One memory per turn a person or the agent said (system prompts and tool output stay in the
 * transcript): `Speaker: words`, the speaker's name as an entity, the message id as its source,
 * and the speaker's "I" read as the speaker — a user's words may update what is current, the
 * agent's are its own. The turns are windowed with their neighbours across calls of a session.
 */
export function conversationTurns(conversation: ParsedConversation, placed: TurnPlacement): MemoryInput[] {
  return conversation.messages.flatMap((message): MemoryInput[] => {
    if (message.role !== 'user' && message.role !== 'assistant') return [];
    const words = message.content.trim();
    // A reply that only calls tools said nothing: its calls stay in the transcript.
    if (words.length === 0 || words.split('\n').every((line) => line.startsWith(CALL_MARK))) return [];
    const speaker = message.name ?? (message.role === 'assistant' ? 'assistant' : undefined);
    return [
      {
        content: `${message.name ?? message.role}: ${words}`,
        kind: 'experience',
        category: TURN_CATEGORY,
        ...(message.name ? { entities: [message.name] } : {}),
        ...placed,
        source: {
          ...(message.id ? { messageId: message.id } : {}),
          ...(speaker ? { speaker } : {}),
          origin: message.role === 'user' ? 'user' : 'agent',
        },
        metadata: { role: message.role },
      },
    ];
  });
}
