import type { CapturedMessage, CaptureRole } from './ai-sdk-options.js';
import type { AiSdkPromptMessage, AiSdkPromptPart, AiSdkResponsePart } from './ai-sdk-types.js';

// Between the AI SDK's prompt (messages of typed parts) and memoir's conversation input (one
// text per message): what recall searches for, where the memory block goes, and what of a
// turn is retained.

/** The longest query recall takes. */
const MAX_QUERY_CHARS = 10_000;
/** The longest message the conversation pipeline takes. */
const MAX_MESSAGE_CHARS = 1_000_000;
/** The most messages one conversation may have. */
const MAX_MESSAGES = 10_000;

/** A message of an exchange, ready for `retain({ messages })`. */
export interface ExchangeMessage extends CapturedMessage {
  /** For a tool result: `tool <name>`, the speaker the transcript shows. */
  readonly name?: string;
}

function lastUserIndex(prompt: readonly AiSdkPromptMessage[]): number {
  for (let index = prompt.length - 1; index >= 0; index--) if (prompt[index]!.role === 'user') return index;
  return -1;
}

function textOf(parts: ReadonlyArray<AiSdkPromptPart>): string {
  return parts
    .filter((part) => part.type === 'text' && typeof part.text === 'string')
    .map((part) => part.text)
    .join('\n');
}

/**
 * What recall searches for: the text of the last user message (its end, when it is longer
 * than a query may be), or undefined when the prompt has none.
 */
export function recallQuery(prompt: readonly AiSdkPromptMessage[]): string | undefined {
  const index = lastUserIndex(prompt);
  if (index < 0) return undefined;
  const message = prompt[index]!;
  const text = (typeof message.content === 'string' ? message.content : textOf(message.content)).trim();
  if (text === '') return undefined;
  return text.length > MAX_QUERY_CHARS ? text.slice(text.length - MAX_QUERY_CHARS) : text;
}

/**
 * The prompt with the memory block in its system prompt: appended to a leading system message,
 * or as a new first system message. The caller's messages are not changed.
 */
export function withMemoryBlock<Message extends AiSdkPromptMessage>(
  prompt: readonly Message[],
  block: string,
): Message[] {
  const first = prompt[0];
  if (first?.role === 'system') {
    const content = first.content.trim() === '' ? block : `${first.content}\n\n${block}`;
    return [{ ...first, content }, ...prompt.slice(1)];
  }
  // A system message is a member of every prompt's message union.
  return [{ role: 'system', content: block } as Message, ...prompt];
}

function json(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(value);
  }
}

function fileMarker(part: { filename?: string; mediaType?: string }): string {
  if (part.filename) return `[file: ${part.filename}]`;
  return part.mediaType?.startsWith('image/') ? '[image]' : '[file]';
}

const callLine = (name: string | undefined, input: unknown) => `→ ${name ?? 'tool'}(${json(input)})`;

/** The text a tool result's output reads as. */
function outputText(output: unknown): string {
  if (typeof output !== 'object' || output === null) return json(output);
  const { type, value, reason } = output as { type?: string; value?: unknown; reason?: string };
  switch (type) {
    case 'text':
    case 'error-text':
      return typeof value === 'string' ? value : json(value);
    case 'execution-denied':
      return `(denied${reason ? `: ${reason}` : ''})`;
    case 'content':
      return Array.isArray(value)
        ? value
            .map((item: { type?: string; text?: string }) =>
              item.type === 'text' ? (item.text ?? '') : `[${item.type ?? 'part'}]`,
            )
            .join('\n')
        : json(value);
    default:
      return json(value);
  }
}

/** The lines an assistant's parts read as: text, files, tool calls (reasoning is left out). */
function assistantLines(parts: ReadonlyArray<AiSdkPromptPart | AiSdkResponsePart>): string[] {
  const lines: string[] = [];
  for (const part of parts) {
    if (part.type === 'text' && typeof part.text === 'string' && part.text !== '') lines.push(part.text);
    else if (part.type === 'file') lines.push(fileMarker(part as AiSdkPromptPart));
    else if (part.type === 'tool-call') lines.push(callLine(part.toolName, part.input));
  }
  return lines;
}

function cut(text: string): string {
  if (text.length <= MAX_MESSAGE_CHARS) return text;
  const marker = '\n[… cut: the message was longer than memoir keeps]';
  return text.slice(0, MAX_MESSAGE_CHARS - marker.length) + marker;
}

function message(role: CaptureRole, content: string, name?: string): ExchangeMessage[] {
  if (content.trim() === '') return [];
  return [{ role, content: cut(content), ...(name === undefined ? {} : { name }) }];
}

function promptMessages(prompt: AiSdkPromptMessage): ExchangeMessage[] {
  if (prompt.role === 'system') return [];
  if (prompt.role === 'user') {
    const lines = prompt.content.map((part) =>
      part.type === 'text' ? (part.text ?? '') : part.type === 'file' ? fileMarker(part) : '',
    );
    return message('user', lines.filter(Boolean).join('\n'));
  }
  if (prompt.role === 'assistant') return message('assistant', assistantLines(prompt.content).join('\n'));
  return prompt.content
    .filter((part) => part.type === 'tool-result')
    .flatMap((part) => message('tool', outputText(part.output), `tool ${part.toolName ?? 'result'}`));
}

/**
 * The turn a call belongs to, as messages to retain: the prompt from its last user message on
 * (the user's words, then any tool calls and results of earlier steps of the same turn), then
 * what the model answered. System messages are never part of it: memoir's own block is there.
 */
export function exchangeMessages(
  prompt: readonly AiSdkPromptMessage[],
  response: ReadonlyArray<AiSdkResponsePart>,
  interrupted = false,
): ExchangeMessage[] {
  const from = Math.max(0, lastUserIndex(prompt));
  const turn = prompt.slice(from).flatMap(promptMessages);
  const answer = assistantLines(response);
  if (interrupted) answer.push('[interrupted: the reply was stopped before it finished]');
  const all = [...turn, ...message('assistant', answer.join('\n'))];
  return all.length > MAX_MESSAGES ? all.slice(all.length - MAX_MESSAGES) : all;
}

/**
 * True when the model stopped to have tools run: the AI SDK's loop (or the app) calls it again
 * with the results, and that later call carries the whole turn.
 */
export function stoppedForTools(finishReason: unknown): boolean {
  if (finishReason === 'tool-calls') return true;
  return (
    typeof finishReason === 'object' &&
    finishReason !== null &&
    (finishReason as { unified?: unknown }).unified === 'tool-calls'
  );
}
