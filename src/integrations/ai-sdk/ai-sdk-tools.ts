import { z } from 'zod';
import { ConfigError, ValidationError } from '../../core/spec/errors.js';
import { tenantScopeSchema } from '../../core/spec/memory.js';
import { parseOptions } from '../../core/utils/parse-options.js';
import type { MemoryClient, Scope } from '../../index.js';
import {
  type AgentTool,
  type AgentToolResult,
  agentToolErrorText,
  callAgentTool,
  memoryCorrectTool,
  memoryForgetTool,
  memoryGetTool,
  memoryHistoryTool,
  memoryListTool,
  memoryRecallTool,
  memoryRetainTool,
  renamedAgentTool,
} from '../agent-tools.js';

// The shared agent tools (the MCP server serves the same ones, under the same names and with
// the same arguments), as AI SDK tools. Each runs through callAgentTool, so validation, results
// and error text are the ones every other door gives.

/** Every tool memoryTools can give, by the name an agent sees. */
const TOOLS = {
  memory_recall: memoryRecallTool,
  memory_retain: memoryRetainTool,
  memory_forget: memoryForgetTool,
  memory_history: memoryHistoryTool,
  memory_correct: memoryCorrectTool,
  memory_get: memoryGetTool,
  memory_list: memoryListTool,
} as const;

type ToolTable = typeof TOOLS;

/**
 * The name of a memory tool an agent sees.
 *
 * @group AI SDK
 */
export type MemoryToolName = keyof ToolTable;

/**
 * The tools memoryTools gives when `tools` names none: recall, retain, forget, history, correct.
 *
 * @group AI SDK
 */
export const DEFAULT_MEMORY_TOOLS = [
  'memory_recall',
  'memory_retain',
  'memory_forget',
  'memory_history',
  'memory_correct',
] as const satisfies readonly MemoryToolName[];

/**
 * What a memory tool returns: the text the model reads (`toModelOutput` sends it), and the
 * same facts as JSON data for your code (`result.toolResults[i].output.structured`).
 *
 * @group AI SDK
 */
export interface MemoryToolOutput {
  /** What the model reads: short lines with the ids it may pass to other tools. */
  text: string;
  /** The same as JSON data. */
  structured: Record<string, unknown>;
}

/**
 * One memory tool in the AI SDK's shape (what `tool()` returns): pass it in `tools` of
 * `generateText`, `streamText` or an `Agent`.
 *
 * @group AI SDK
 */
export interface MemoryAiTool<Input> {
  /** A function tool. */
  readonly type: 'function';
  /** A short human-readable title. */
  readonly title: string;
  /** What the tool does and when to use it, written for the model. */
  readonly description: string;
  /** The arguments, as the zod schema the model sees (as JSON Schema) and its call is checked against. */
  readonly inputSchema: z.ZodType<Input>;
  /**
   * Run the tool. Bad arguments or a failure reject with an Error whose message is the text the
   * model reads (the field, and what to do about it); its `cause` is memoir's error.
   */
  execute(input: Input, options: { abortSignal?: AbortSignal }): Promise<MemoryToolOutput>;
  /** What the model reads of a result: its text. */
  toModelOutput(options: { output: MemoryToolOutput }): MemoryToolModelOutput;
}

/**
 * A tool result as the model is given it (the AI SDK's text tool output).
 *
 * @group AI SDK
 */
export interface MemoryToolModelOutput {
  /** Always `text`: memory tools answer the model in short lines. */
  type: 'text';
  /** The lines the model reads. */
  value: string;
}

/**
 * The tools memoryTools gives, by name.
 *
 * @group AI SDK
 */
export type MemoryTools<Name extends MemoryToolName = (typeof DEFAULT_MEMORY_TOOLS)[number]> = {
  [Key in Name]: MemoryAiTool<z.output<ToolTable[Key]['inputSchema']>>;
};

const optionsSchema = z
  .object({
    /**
     * Whose memories the tools read and change: every call is held inside it (reads narrow to
     * it, writes are stamped with it, another scope's memory is "not found"). Default: the
     * client's scope.
     */
    scope: tenantScopeSchema.optional(),
    /** See {@link MemoryToolsOptions.requireScope}. */
    requireScope: z.boolean().optional(),
    /** Which tools, by name. Default: memory_recall, memory_retain, memory_forget, memory_history, memory_correct. */
    tools: z
      .array(z.enum(Object.keys(TOOLS) as [MemoryToolName, ...MemoryToolName[]]))
      .min(1, 'expected at least one tool name')
      .optional(),
  })
  .strict();

/**
 * Options of {@link memoryTools}.
 *
 * @group AI SDK
 */
export interface MemoryToolsOptions<Name extends MemoryToolName = MemoryToolName> {
  /**
   * Whose memories the tools read and change: every call is held inside it (reads narrow to it,
   * writes are stamped with it, another scope's memory is "not found"). Make the tools per
   * request with the user's scope; it must name a user, agent or namespace. Default: the
   * client's scope.
   */
  scope?: Scope;
  /**
   * On an unscoped client with no `scope`, the tools would read and change every user's
   * memories, so they are refused (a ConfigError naming `scope`) unless this is `false`: admin
   * tools, on purpose. Default true.
   */
  requireScope?: boolean;
  /**
   * Which tools, by name: `memory_recall`, `memory_retain`, `memory_forget`, `memory_history`,
   * `memory_correct` (the default set), `memory_get`, `memory_list`.
   */
  tools?: readonly Name[];
}

function aiTool(tool: AgentTool, client: MemoryClient): MemoryAiTool<unknown> {
  return {
    type: 'function',
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema,
    async execute(input) {
      try {
        const result: AgentToolResult = await callAgentTool(tool, client, input);
        return { text: result.text, structured: result.structured };
      } catch (error) {
        // The AI SDK hands a tool's error message to the model: make it the text every door gives.
        throw new Error(agentToolErrorText(error, { tool: tool.name }), { cause: error });
      }
    },
    toModelOutput: ({ output }) => ({ type: 'text', value: output.text }),
  };
}

/**
 * memoir's memory tools for the AI SDK, under the names and with the arguments the MCP server
 * and the OpenClaw plugin use: `memory_recall` (query, k, filters, token_budget, as_of),
 * `memory_retain` (content, category, kind, metadata, importance, entities), `memory_forget` (memory_id or
 * query), `memory_history` (memory_id), `memory_correct` (memory_id, content, …), and on request
 * `memory_get` and `memory_list`. docs/guides/ai-sdk.md lists every argument.
 *
 * @example
 * ```ts
 * import { generateText, stepCountIs } from 'ai';
 * import { memoryTools } from 'memoir/ai-sdk';
 *
 * const { text } = await generateText({
 *   model,
 *   tools: memoryTools(memory, { scope: { userId: 'sam' } }),
 *   stopWhen: stepCountIs(5),
 *   prompt: 'Remember that I moved to Lisbon.',
 * });
 * ```
 *
 * @param memory - The memory client the tools work on.
 * @param options - The scope the tools are held in, and which tools.
 * @returns The tools by name, for `tools` of generateText / streamText.
 * @throws ConfigError naming the option when an option is invalid.
 * @group AI SDK
 */
export function memoryTools<Name extends MemoryToolName = (typeof DEFAULT_MEMORY_TOOLS)[number]>(
  memory: MemoryClient,
  options: MemoryToolsOptions<Name> = {},
): MemoryTools<Name> {
  const parsed = parseOptions(
    z.object({ memory: z.custom<MemoryClient>(isClient, { message: 'expected a memory client (createMemory())' }) }),
    { memory },
    'ai-sdk',
    'Pass memoryTools(memory), memory from createMemory().',
  );
  refuseOldToolNames(options);
  const settings = parseOptions(optionsSchema, options, 'ai-sdk', (field) => `Check memoryTools' option ${field}.`);
  if (settings.scope === undefined && parsed.memory.scope === undefined && settings.requireScope !== false) {
    throw new ConfigError(
      "memoryTools on an unscoped client need a scope: they would read and change every user's memories",
      {
        component: 'ai-sdk',
        field: 'scope',
        suggestion:
          'Make the tools per request with memoryTools(memory, { scope: { userId } }), or pass requireScope: false for admin tools on purpose.',
      },
    );
  }
  // The core holds a view inside its scope (reads narrow, writes are stamped, another scope's
  // memory is "not found"); on a scoped client the scope may only narrow the client's.
  const client = settings.scope === undefined ? parsed.memory : viewOf(parsed.memory, settings.scope);
  const names = settings.tools ?? DEFAULT_MEMORY_TOOLS;
  return Object.fromEntries(names.map((name) => [name, aiTool(TOOLS[name], client)])) as MemoryTools<Name>;
}

// An old tool name (`memory_store`) in code: said at once, with the new name. The keys are what
// the model sees, so the tools are given under the vocabulary's names only (docs/vocabulary.md).
function refuseOldToolNames(options: unknown): void {
  const names = (options as { tools?: unknown } | undefined)?.tools;
  if (!Array.isArray(names)) return;
  for (const [index, name] of names.entries()) {
    const rename = typeof name === 'string' ? renamedAgentTool(name) : undefined;
    if (rename === undefined) continue;
    throw new ConfigError(`tools[${index}]: ${rename.from} is now ${rename.to}`, {
      component: 'ai-sdk',
      field: `tools[${index}]`,
      suggestion: `Name it ${rename.to}${rename.args ? ` (with ${JSON.stringify(rename.args)} in the call)` : ''}.`,
    });
  }
}

// A scope that would widen a scoped client is an option of memoryTools gone wrong: said as the
// ConfigError every bad option is, naming the field.
function viewOf(memory: MemoryClient, scope: Scope): MemoryClient {
  try {
    return memory.withScope(scope);
  } catch (error) {
    if (!ValidationError.isInstance(error)) throw error;
    throw new ConfigError(error.message.replace(/^\[memoir\] [^:]+: /, ''), {
      component: 'ai-sdk',
      field: error.issues[0]?.field ?? 'scope',
      suggestion: "Pass a scope inside the client's own, or make the tools over the unscoped client.",
      cause: error,
    });
  }
}

function isClient(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    ['recall', 'retain', 'forget', 'history', 'correct', 'withScope'].every(
      (method) => typeof (value as Record<string, unknown>)[method] === 'function',
    )
  );
}
