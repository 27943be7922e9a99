import { z } from 'zod';
import { scopeSchema, timeInputSchema } from '../spec/memory.js';

const MAX_MESSAGE_CHARS = 1_000_000;
const text = z.string().max(MAX_MESSAGE_CHARS);

// A part of a message's content, as the OpenAI SDK sends it: text, an image, audio, a file or
// a refusal. Parts of other types are kept as a marker naming the type.
const contentPartSchema = z.object({
  /** The part's type: `text`, `image_url`, `input_audio`, `file`, `refusal`, or another (kept as `[type]`). */
  type: z.string().min(1).max(64),
  /** The text of a `text` part. */
  text: text.optional(),
  /** The text of a `refusal` part. */
  refusal: text.optional(),
  /** The image of an `image_url` part. */
  image_url: z
    .object({
      /** A web address (kept without its query) or a data URL (not kept). */
      url: z.string(),
    })
    .optional(),
  /** The file of a `file` part. */
  file: z
    .object({
      /** Its name, shown in the marker `[file: name]`. */
      filename: z.string().optional(),
    })
    .optional(),
});

// A tool call an assistant message asks for: a function call (`function: { name, arguments }`)
// or a custom tool call (`custom: { name, input }`).
const toolCallSchema = z.object({
  /** The call's id, which the answering `tool` message names in `tool_call_id`. */
  id: z.string().max(256).optional(),
  /** `function` or `custom`. */
  type: z.string().max(64).optional(),
  /** A function call. */
  function: z
    .object({
      /** The function's name. */
      name: z.string().max(256),
      /** Its arguments, as the model wrote them (usually JSON). */
      arguments: text.optional(),
    })
    .optional(),
  /** A custom tool call. */
  custom: z
    .object({
      /** The tool's name. */
      name: z.string().max(256),
      /** Its input, as the model wrote it. */
      input: text.optional(),
    })
    .optional(),
});

/** One message of a conversation handed to `retain`, as written or as the OpenAI SDK builds it. */
const messageFields = z
  .object({
    /** Who spoke; `developer` counts as `system`, the legacy `function` as `tool`. */
    role: z.enum(['user', 'assistant', 'system', 'tool', 'developer', 'function']),
    /**
     * What was said: text, an array of content parts (text; images, audio and files become a
     * marker such as `[image]`), or null for an assistant message that only calls tools.
     */
    content: z.union([text, z.array(contentPartSchema).max(1000), z.null()]).optional(),
    /** The message's id in the host, recorded on the memories it produced. */
    id: z.string().min(1).max(256).optional(),
    /** A display name for the speaker, e.g. the user's name. */
    name: z.string().min(1).max(256).optional(),
    /** Tools the assistant called; each becomes a line `→ name(arguments)` of the transcript. */
    tool_calls: z.array(toolCallSchema).max(1000).nullish(),
    /** The call a `tool` message answers; its result is shown under the tool's name. */
    tool_call_id: z.string().max(256).nullish(),
    /** A refusal in place of content. */
    refusal: text.nullish(),
    /** An audio reply (kept as a marker). */
    audio: z
      .object({
        /** The audio's id at the provider. */
        id: z.string().optional(),
      })
      .nullish(),
    /** The legacy single function call. */
    function_call: z
      .object({
        /** The function's name. */
        name: z.string().max(256),
        /** Its arguments, as the model wrote them (usually JSON). */
        arguments: text.optional(),
      })
      .nullish(),
    /** URL citations of a model reply; not part of what was said. */
    annotations: z.array(z.unknown()).nullish(),
  })
  .strict();

type MessageFields = z.output<typeof messageFields>;

function partText(part: z.output<typeof contentPartSchema>): string {
  switch (part.type) {
    case 'text':
      return part.text ?? '';
    case 'refusal':
      return `(refused: ${part.refusal ?? part.text ?? ''})`;
    case 'image_url': {
      // A web address is kept (without its query, which may carry a signature); inline data is not.
      const url = part.image_url?.url ?? '';
      return /^https?:\/\//i.test(url) ? `[image: ${url.split(/[?#]/)[0]!.slice(0, 300)}]` : '[image]';
    }
    case 'input_audio':
      return '[audio]';
    case 'file':
      return part.file?.filename ? `[file: ${part.file.filename}]` : '[file]';
    default:
      return part.text ?? `[${part.type}]`;
  }
}

const callLine = (name: string, input: string | undefined) => `→ ${name}(${input ?? ''})`;

/** The message as one text, tool calls and all: what a transcript line shows after the speaker. */
function renderContent(message: MessageFields): string {
  const lines: string[] = [];
  const { content } = message;
  if (typeof content === 'string') lines.push(content);
  else if (Array.isArray(content)) {
    const parts = content.map(partText).filter((part) => part.length > 0);
    if (parts.length > 0) lines.push(parts.join('\n'));
  }
  if (message.refusal) lines.push(`(refused: ${message.refusal})`);
  if (message.audio) lines.push('[audio reply]');
  if (message.function_call) lines.push(callLine(message.function_call.name, message.function_call.arguments));
  for (const call of message.tool_calls ?? []) {
    if (call.function) lines.push(callLine(call.function.name, call.function.arguments));
    else if (call.custom) lines.push(callLine(call.custom.name, call.custom.input));
    else lines.push(callLine(call.type ?? 'tool', undefined));
  }
  return lines.join('\n');
}

const ROLES = { developer: 'system', function: 'tool' } as const;

/**
 * One message of a conversation handed to `retain`: `{ role, content }` with optional `id`
 * and `name`, or a message of an OpenAI-SDK chat history as it is — content parts, `content:
 * null` with `tool_calls`, `role: 'tool'` with `tool_call_id`. Parsed into one text per
 * message: tool calls and their results are part of what happened, so they are kept.
 */
export const conversationMessageSchema = messageFields.transform((message, ctx) => {
  const hasCalls = (message.tool_calls?.length ?? 0) > 0 || Boolean(message.function_call);
  if (message.content === undefined && !hasCalls && !message.refusal && !message.audio) {
    ctx.addIssue({
      code: 'custom',
      path: ['content'],
      message: 'expected a string, an array of content parts, or null beside tool_calls',
    });
    return z.NEVER;
  }
  const content = renderContent(message);
  if (content.length > MAX_MESSAGE_CHARS) {
    ctx.addIssue({ code: 'custom', message: `expected at most ${MAX_MESSAGE_CHARS} characters of content` });
    return z.NEVER;
  }
  const role = message.role === 'developer' || message.role === 'function' ? ROLES[message.role] : message.role;
  return {
    role,
    content,
    ...(message.id !== undefined ? { id: message.id } : {}),
    ...(message.name !== undefined ? { name: message.name } : {}),
    ...(message.tool_call_id ? { toolCallId: message.tool_call_id } : {}),
    ...(message.tool_calls?.length
      ? {
          toolCalls: message.tool_calls.flatMap((call) => {
            const name = call.function?.name ?? call.custom?.name;
            return call.id && name ? [{ id: call.id, name }] : [];
          }),
        }
      : {}),
  };
});
/**
 * One message of a conversation.
 *
 * @group Retain
 */
export type ConversationMessage = z.input<typeof conversationMessageSchema>;

/** A tool message shows as `tool <name>` when an earlier message called it by that id. */
function nameToolResults<M extends z.output<typeof conversationMessageSchema>>(messages: M[]): M[] {
  const toolNames = new Map<string, string>();
  return messages.map((message) => {
    for (const call of message.toolCalls ?? []) toolNames.set(call.id, call.name);
    if (message.role !== 'tool' || message.name !== undefined) return message;
    const tool = message.toolCallId === undefined ? undefined : toolNames.get(message.toolCallId);
    return tool ? { ...message, name: `tool ${tool}` } : message;
  });
}

/** A finished conversation (an agent run) to learn from. */
export const conversationInputSchema = z
  .object({
    /** The messages, oldest first. */
    messages: z
      .array(conversationMessageSchema)
      .min(1, 'expected at least one message')
      .max(10_000)
      .transform(nameToolResults),
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

/**
 * Category of the memories that keep, word for word, the turns a model extracted from. Recall
 * leaves them out unless `categories` names this category: what they say is already in the
 * memories extracted from them, and repeating it would crowd the results.
 */
export const TRANSCRIPT_CATEGORY = 'transcript';

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
