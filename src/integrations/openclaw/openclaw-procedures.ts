import { z } from 'zod';
import type { MemoryClient, Scope, TaskToolCall, TaskTrace } from '../../index.js';
import { memoryFindProceduresTool, memoryGetProcedureTool, memoryLearnProcedureTool } from '../agent-tools.js';
import type { ParsedOpenClawConfig } from './openclaw-config.js';
import type { OpenClawLogger, OpenClawPromptBuildEvent, OpenClawPromptBuildResult } from './openclaw-host-types.js';
import {
  EXPERIENCE_OPEN,
  EXPERIENCE_TAG,
  roleOf,
  splitBundledHistory,
  stripInjectedContext,
  textOf,
} from './openclaw-messages.js';
import { MIN_QUERY_CHARS, recallQuery } from './openclaw-recall-hook.js';
import { type Mapping, mapping } from './openclaw-tool-mapping.js';

// Procedures at the OpenClaw door (seed 003): after a run that used enough tools, the plugin
// hands the run (request, tool calls with their results, the agent's narration, its answer) to
// memoir, which reflects on it in the background and writes or updates a procedure file; before
// each prompt the best one or two matching procedures go before it, as the "Relevant
// Procedures" section inside memoir's nonce-marked block (so capture never stores them as the
// user's words). Everything happens inside the sender's scope. The tools let the agent find,
// read and hand over procedures itself.

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** A tool call as a transcript writes it: pi's `toolCall` part, or Anthropic's `tool_use`. */
function toolCallOf(part: unknown): { id: string | undefined; name: string; input: unknown } | undefined {
  if (!isRecord(part) || typeof part.name !== 'string' || part.name.trim() === '') return undefined;
  if (part.type === 'toolCall') return { id: text(part.id), name: part.name, input: part.arguments };
  if (part.type === 'tool_use') return { id: text(part.id), name: part.name, input: part.input };
  return undefined;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * The task a finished run did, from its transcript: the last user message is the request, the
 * tool calls after it (with the results the `toolResult` messages carry, `isError` as the
 * error) are the calls, the assistant's text beside its tool calls is the narration and its last
 * text the response. Undefined when the transcript has no user request.
 */
export function taskOfRun(messages: readonly unknown[]): TaskTrace | undefined {
  let start = -1;
  let request = '';
  for (let index = messages.length - 1; index >= 0; index--) {
    if (roleOf(messages[index]) !== 'user') continue;
    request = splitBundledHistory(stripInjectedContext(textOf(messages[index]))).own;
    if (request !== '') {
      start = index;
      break;
    }
  }
  if (start < 0) return undefined;
  const calls: Array<{ id: string | undefined; name: string; input: unknown; output?: string; error?: string }> = [];
  const narration: string[] = [];
  let response = '';
  for (const message of messages.slice(start + 1)) {
    const role = roleOf(message);
    if (role === 'assistant') {
      const content = isRecord(message) && Array.isArray(message.content) ? message.content : [];
      const found = content.flatMap((part) => toolCallOf(part) ?? []);
      const said = stripInjectedContext(textOf(message));
      calls.push(...found);
      // Text beside tool calls is narration (why this tool, what did not work); the last text is the answer.
      if (said !== '') {
        if (found.length > 0) narration.push(said);
        else {
          if (response !== '') narration.push(response);
          response = said;
        }
      }
    } else if (role === 'toolResult' || role === 'tool') {
      const result = message as Record<string, unknown>;
      const id = text(result.toolCallId) ?? text(result.tool_call_id);
      const call =
        (id && calls.find((each) => each.id === id)) ||
        calls.find((each) => each.output === undefined && each.error === undefined);
      if (!call) continue;
      const output = textOf(message);
      if (result.isError === true) call.error = output || 'the tool failed';
      else call.output = output;
    }
  }
  const toolCalls: TaskToolCall[] = calls.map(({ id: _id, ...call }) => call);
  return {
    request,
    toolCalls,
    ...(narration.length > 0 ? { narration } : {}),
    ...(response === '' ? {} : { response }),
  };
}

/**
 * After a run (agent_end): learn from it when it succeeded and called at least `minToolCalls`
 * tools. The reflection runs in the background; its failures are the client's events, which the
 * plugin logs. Never throws.
 */
export function learnFromRun(
  client: MemoryClient,
  messages: readonly unknown[],
  scope: Scope,
  settings: ParsedOpenClawConfig['procedures'],
  logger: OpenClawLogger,
): void {
  const task = taskOfRun(messages);
  if (!task || task.toolCalls.length < settings.minToolCalls) return;
  client.procedures.learn(task, { scope }).then(
    (result) => {
      if (result.scheduled)
        logger.info(`memoir: learning a procedure from a run of ${task.toolCalls.length} tool calls`);
      else logger.debug?.(`memoir: no procedure learned: ${result.reason}`);
    },
    (error: unknown) =>
      logger.warn(`memoir: procedure learning skipped: ${error instanceof Error ? error.message : String(error)}`),
  );
}

/** Settle with `undefined` when `work` takes longer than `ms`; the work is left to finish on its own. */
async function withinDeadline<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Before a prompt: the sender's procedures that match the request (at most `maxPerPrompt`, above
 * the library's similarity threshold), as the "Relevant Procedures" section in memoir's block.
 */
export async function proceduresForPrompt(
  event: OpenClawPromptBuildEvent,
  scope: Scope,
  options: { client: () => MemoryClient; config: ParsedOpenClawConfig; logger: OpenClawLogger },
): Promise<(OpenClawPromptBuildResult & { ids: string[] }) | undefined> {
  const query = recallQuery(event);
  if (query.length < MIN_QUERY_CHARS) return undefined;
  const client = options.client();
  const found = await withinDeadline(
    client.procedures.findRelevant(query, { scope, k: options.config.procedures.maxPerPrompt }),
    options.config.recallTimeoutMs,
  );
  if (found === undefined) {
    options.logger.warn(`memoir: procedures skipped: finding them took over ${options.config.recallTimeoutMs} ms`);
    return undefined;
  }
  if (found.length === 0) return undefined;
  options.logger.info(
    `memoir: injecting ${found.length} procedure(s): ${found.map((each) => each.procedure.id).join(', ')}`,
  );
  return {
    prependContext: `${EXPERIENCE_OPEN}\n${client.procedures.formatProcedures(found)}\n</${EXPERIENCE_TAG}>`,
    ids: found.map((each) => each.procedure.id),
  };
}

/**
 * After a run that had procedures put before its prompt: count it as a use of each (the seed's
 * usage tracking: `success_count` or `failure_count`, and `last_used`). The ids were found in
 * the sender's scope. Never throws; a failure is a log line.
 */
export function recordRunUse(
  client: MemoryClient,
  ids: readonly string[],
  success: boolean,
  logger: OpenClawLogger,
): void {
  for (const id of ids) {
    client.procedures
      .recordUse(id, { success })
      .catch((error: unknown) =>
        logger.warn(
          `memoir: use of procedure ${id} not recorded: ${error instanceof Error ? error.message : String(error)}`,
        ),
      );
  }
}

const toolCallParam = z.union([
  z.string().trim().min(1).max(200),
  z
    .object({
      name: z.string().trim().min(1).max(200).describe('The tool called.'),
      input: z.unknown().optional().describe('What it was called with.'),
      output: z.unknown().optional().describe('What it returned.'),
      error: z.unknown().optional().describe('Its error, when it failed (a failed call is never made a step).'),
    })
    .strict(),
]);

const findProcedures = mapping({
  name: memoryFindProceduresTool.name,
  label: 'Memory Find Procedures',
  description: memoryFindProceduresTool.description,
  params: z
    .object({
      request: z.string().trim().min(1, 'expected the task, in words').max(20_000).describe('The task to do.'),
      limit: z.number().int().min(1).max(20).optional().describe('Most procedures (default: 2).'),
    })
    .strict(),
  tool: memoryFindProceduresTool,
  toArgs: (params) => ({ request: params.request, ...(params.limit === undefined ? {} : { k: params.limit }) }),
});

const getProcedure = mapping({
  name: memoryGetProcedureTool.name,
  label: 'Memory Get Procedure',
  description: memoryGetProcedureTool.description,
  params: z
    .object({
      procedureId: z.string().trim().min(1, 'expected a procedure id').max(200).describe('The procedure to read.'),
    })
    .strict(),
  tool: memoryGetProcedureTool,
  toArgs: (params) => ({ procedure_id: params.procedureId }),
});

const learnProcedure = mapping({
  name: memoryLearnProcedureTool.name,
  label: 'Memory Learn Procedure',
  description: memoryLearnProcedureTool.description,
  params: z
    .object({
      request: z.string().trim().min(1, 'expected the task, in words').max(20_000).describe('What the user asked for.'),
      toolCalls: z
        .array(toolCallParam)
        .max(1000)
        .describe('The tools called, in order: names, or {name, input, output, error}.'),
      narration: z
        .union([z.string().max(100_000), z.array(z.string().max(100_000)).max(1000)])
        .optional()
        .describe('What you said between the tool calls: why each, what did not work.'),
      response: z.string().max(100_000).optional().describe('The final answer given.'),
      success: z.boolean().optional().describe('Whether the task succeeded (default: true).'),
    })
    .strict(),
  tool: memoryLearnProcedureTool,
  toArgs: ({ toolCalls, ...rest }) => ({ ...rest, tool_calls: toolCalls }),
});

/** The procedure tools: find, get and learn, each held inside the caller's scope. */
export const PROCEDURE_MAPPINGS: readonly Mapping[] = [findProcedures, getProcedure, learnProcedure];
