import type { MemoryClient, Scope, TaskToolCall, TaskTrace } from '../../index.js';
import type { AiSdkPromptMessage, AiSdkPromptPart, AiSdkResponsePart } from './ai-sdk-types.js';

// Procedures at the AI SDK door (seed 003): a turn's tool calls are in the prompt of the call
// that ends it (the AI SDK's loop sends every earlier step back), so when a turn ends the
// middleware reads the task off that prompt — the user's request, each tool call with its
// result (an error result is the call's error), the text the model said beside its calls — and
// hands it to `procedures.learn`, which reflects in the background. Before a call, the best
// matching procedures join the memory block in the system prompt.

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function json(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(value);
  }
}

/** A tool result's output, as what came out or as the error it reports. */
function resultOf(output: unknown): { output: string } | { error: string } {
  if (!isRecord(output)) return { output: json(output) };
  const { type, value, reason } = output as { type?: string; value?: unknown; reason?: string };
  if (type === 'error-text' || type === 'error-json') return { error: json(value) || 'the tool failed' };
  if (type === 'execution-denied') return { error: `denied${reason ? `: ${reason}` : ''}` };
  if (type === 'content' && Array.isArray(value)) {
    return {
      output: value
        .map((item: { type?: string; text?: string }) => (item.type === 'text' ? (item.text ?? '') : ''))
        .join('\n'),
    };
  }
  return { output: json(value) };
}

const textOf = (parts: ReadonlyArray<AiSdkPromptPart | AiSdkResponsePart>): string =>
  parts
    .flatMap((part) => (part.type === 'text' && typeof part.text === 'string' ? [part.text] : []))
    .join('\n')
    .trim();

/** A tool call's input as the prompt carries it: an object, or its JSON text. */
function inputOf(input: unknown): unknown {
  if (typeof input !== 'string') return input;
  try {
    return JSON.parse(input) as unknown;
  } catch {
    return input;
  }
}

/**
 * The task of the turn a call ends: the last user message is the request, the tool calls of
 * the earlier steps (prompt) and of this answer are the calls, with the results the tool
 * messages carry, the text the model said beside tool calls is the narration, and the text of
 * this answer the response. Undefined when there is no user request.
 */
export function turnTask(
  prompt: readonly AiSdkPromptMessage[],
  response: ReadonlyArray<AiSdkResponsePart>,
): TaskTrace | undefined {
  let start = -1;
  for (let index = prompt.length - 1; index >= 0; index--) {
    if (prompt[index]!.role === 'user') {
      start = index;
      break;
    }
  }
  if (start < 0) return undefined;
  const first = prompt[start]!;
  const request = typeof first.content === 'string' ? first.content.trim() : textOf(first.content);
  if (request === '') return undefined;
  const calls: Array<{ id: string | undefined; name: string; input: unknown; output?: string; error?: string }> = [];
  const narration: string[] = [];
  for (const message of prompt.slice(start + 1)) {
    if (message.role === 'assistant') {
      const found = message.content.filter((part) => part.type === 'tool-call' && typeof part.toolName === 'string');
      for (const part of found) calls.push({ id: part.toolCallId, name: part.toolName!, input: inputOf(part.input) });
      const said = textOf(message.content);
      if (said !== '') narration.push(said);
    } else if (message.role === 'tool') {
      for (const part of message.content) {
        if (part.type !== 'tool-result') continue;
        const call = calls.find((each) => each.id !== undefined && each.id === part.toolCallId);
        if (call) Object.assign(call, resultOf(part.output));
      }
    }
  }
  const toolCalls: TaskToolCall[] = calls.map(({ id: _id, ...call }) => call);
  const answer = textOf(response);
  return {
    request,
    toolCalls,
    ...(narration.length > 0 ? { narration } : {}),
    ...(answer === '' ? {} : { response: answer }),
  };
}

/** True when the client keeps procedure files (a home or `procedures.directory`): without them there is nothing to learn into or find. */
export function keepsProcedures(memory: MemoryClient): boolean {
  try {
    memory.procedures.directory();
    return true;
  } catch {
    return false;
  }
}

/** The "Relevant Procedures" section for a request and the ids of its procedures, or undefined when none matches. */
export async function procedureSection(
  memory: MemoryClient,
  query: string,
  options: { scope: Scope | undefined; k: number | undefined },
): Promise<{ text: string; ids: string[] } | undefined> {
  const found = await memory.procedures.findRelevant(query, {
    ...(options.k === undefined ? {} : { k: options.k }),
    ...(options.scope === undefined ? {} : { scope: options.scope }),
  });
  if (found.length === 0) return undefined;
  return { text: memory.procedures.formatProcedures(found), ids: found.map((each) => each.procedure.id) };
}
