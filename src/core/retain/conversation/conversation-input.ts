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
/**
 * One message of a conversation.
 *
 * @group Retain
 */
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
/**
 * A conversation to retain.
 *
 * @group Retain
 */
export type ConversationInput = z.input<typeof conversationInputSchema>;
/** A validated conversation. */
export type ParsedConversation = z.output<typeof conversationInputSchema>;

/** True when `input` is shaped like a conversation rather than a memory. */
export function isConversationInput(input: unknown): boolean {
  return typeof input === 'object' && input !== null && !Array.isArray(input) && 'messages' in input;
}

const speaker = (message: ParsedConversation['messages'][number]) => message.name ?? message.role;
const lineOf = (message: ParsedConversation['messages'][number]) => `${speaker(message)}: ${message.content}`;

/** Characters per stored episode chunk: a message (at most 1,000,000 characters) always fits whole. */
export const EPISODE_CHUNK_CHARS = 1_100_000;

/** A run of whole messages kept as one episode memory. */
export interface TranscriptChunk {
  /** The messages as text, one line each. */
  text: string;
  /** Ids of its messages that have one. */
  messageIds: string[];
  /** Index of its first message in the conversation. */
  from: number;
  /** Index after its last message. */
  to: number;
}

/**
 * Messages `from` to `to` as transcript chunks of at most `maxChars` characters, split
 * between messages: the text an episode keeps, in as many memories as it takes (a memory's
 * content has a size limit, a conversation does not).
 */
export function transcriptChunks(
  conversation: ParsedConversation,
  from = 0,
  to = conversation.messages.length,
  maxChars = EPISODE_CHUNK_CHARS,
): TranscriptChunk[] {
  const chunks: TranscriptChunk[] = [];
  let current: TranscriptChunk | null = null;
  for (let index = from; index < to; index++) {
    const message = conversation.messages[index]!;
    const line = lineOf(message);
    if (current && current.text.length + 1 + line.length > maxChars) {
      chunks.push(current);
      current = null;
    }
    if (current) {
      current.text += `\n${line}`;
      current.to = index + 1;
    } else current = { text: line, messageIds: [], from: index, to: index + 1 };
    if (message.id) current.messageIds.push(message.id);
  }
  if (current) chunks.push(current);
  return chunks;
}

/**
 * The newest messages whose transcript fits in `maxChars`, their ids, and how many of the
 * oldest messages were left out (`unsent`: the model saw none of them whole, so the
 * pipeline keeps them as an episode). Older messages are dropped first: the end of a run
 * holds its outcome.
 */
export function recentTranscript(conversation: ParsedConversation, maxChars: number) {
  const lines: string[] = [];
  const messageIds: string[] = [];
  let used = 0;
  let unsent = 0;
  for (let i = conversation.messages.length - 1; i >= 0; i--) {
    const message = conversation.messages[i]!;
    const line = lineOf(message);
    if (lines.length > 0 && used + line.length + 1 > maxChars) {
      unsent = i + 1;
      break;
    }
    if (line.length > maxChars) {
      // The newest message alone is longer than the cap: the model sees its end, and the
      // whole conversation counts as unsent.
      return {
        text: line.slice(line.length - maxChars),
        messageIds: message.id ? [message.id] : [],
        unsent: conversation.messages.length,
      };
    }
    lines.unshift(line);
    if (message.id) messageIds.unshift(message.id);
    used += line.length + 1;
  }
  return { text: lines.join('\n'), messageIds, unsent };
}
