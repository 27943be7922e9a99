import { z } from 'zod';
import { scopeSchema, timeInputSchema } from '../../spec/memory.js';

/** One message of a conversation handed to `retain`. */
export const conversationMessageSchema = z
  .object({
    /** Who spoke. */
    role: z.enum(['user', 'assistant', 'system', 'tool']),
    /** What was said. */
    content: z.string().max(1_000_000),
    /** The message's id in the host, recorded on the memories it produced. */
    id: z.string().min(1).max(256).optional(),
    /** A display name for the speaker, e.g. the user's name. */
    name: z.string().min(1).max(256).optional(),
  })
  .strict();
/** One message of a conversation. */
export type ConversationMessage = z.input<typeof conversationMessageSchema>;

/** A finished conversation (an agent run) to learn from. */
export const conversationInputSchema = z
  .object({
    /** The messages, oldest first. */
    messages: z.array(conversationMessageSchema).min(1, 'expected at least one message').max(10_000),
    /** The run's session; memories record it as their source. Default: the client's session. */
    sessionId: z.string().min(1).max(256).optional(),
    /** Ownership of what is learned. Default: the client's scope. */
    scope: scopeSchema.optional(),
    /** Whether the run succeeded; failed runs are kept as episodes but not mined for facts. Default true. */
    success: z.boolean().default(true),
    /** When the conversation happened. Default: now. */
    occurredAt: timeInputSchema.optional(),
  })
  .strict();
/** A conversation to retain. */
export type ConversationInput = z.input<typeof conversationInputSchema>;
/** A validated conversation. */
export type ParsedConversation = z.output<typeof conversationInputSchema>;

/** True when `input` is shaped like a conversation rather than a memory. */
export function isConversationInput(input: unknown): boolean {
  return typeof input === 'object' && input !== null && !Array.isArray(input) && 'messages' in input;
}

const speaker = (message: ParsedConversation['messages'][number]) => message.name ?? message.role;

/** The whole conversation as text, one line per message: what an episode stores. */
export function fullTranscript(conversation: ParsedConversation): string {
  return conversation.messages.map((message) => `${speaker(message)}: ${message.content}`).join('\n');
}

/**
 * The newest messages whose transcript fits in `maxChars`, and their ids. Older messages
 * are dropped first: the end of a run holds its outcome.
 */
export function recentTranscript(conversation: ParsedConversation, maxChars: number) {
  const lines: string[] = [];
  const messageIds: string[] = [];
  let used = 0;
  for (let i = conversation.messages.length - 1; i >= 0; i--) {
    const message = conversation.messages[i]!;
    let line = `${speaker(message)}: ${message.content}`;
    if (used + line.length + 1 > maxChars) {
      if (lines.length > 0) break;
      // A single message longer than the cap keeps its end.
      line = line.slice(line.length - maxChars);
    }
    lines.unshift(line);
    if (message.id) messageIds.unshift(message.id);
    used += line.length + 1;
  }
  return { text: lines.join('\n'), messageIds };
}
