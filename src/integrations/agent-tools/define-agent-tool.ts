/**
 * The shape every agent tool shares, and the one way to run one: the MCP server and the
 * OpenClaw plugin both call {@link callAgentTool}, so validation, results and error text
 * are the same in every host.
 */
import { z } from 'zod';
import type { AgentToolSet } from '../../config/mcp-tool-sets.js';
import { MemoirError, ValidationError } from '../../core/spec/errors.js';
import { applyRenames, type RenamedOption, renamedNote } from '../../core/utils/renamed-options.js';
import { parseInput } from '../../core/utils/validate.js';
import type { MemoryClient } from '../../index.js';
import { findProtoKey, protoKeyError, protoKeyIssue } from './argument-keys.js';
import { GENERIC_TOOL_TERMS, type ToolHintTerms, toolHintText } from './tool-hints.js';

/**
 * What a tool returns: text a model reads, and the same facts as data.
 *
 * @group Agent tools
 */
export interface AgentToolResult {
  /** Short lines a model reads well, with the ids it may pass back to other tools. */
  text: string;
  /** The same as JSON data (MCP `structuredContent`); always an object. */
  structured: Record<string, unknown>;
}

/**
 * What the host running the tools knows beyond the client: where the tools that write or
 * read files may do so. A door a model drives confines every file a tool touches to the
 * memoir home's own folders; without a home, those tools refuse.
 *
 * @group Agent tools
 */
export interface AgentToolContext {
  /**
   * The memoir home (absolute). `memory_export` writes only into `<home>/exports`, by a plain
   * file name; `memory_restore` reads only backups in `<home>/backups`, by name.
   */
  readonly home?: string;
}

/**
 * One tool an agent can call: a name, a description written for a model, a zod input
 * schema and a handler over a memory client.
 *
 * @group Agent tools
 */
export interface AgentTool<Schema extends z.ZodObject = z.ZodObject> {
  /** The tool's name, e.g. `memory_retain`; snake_case, as hosts list it. */
  readonly name: string;
  /** A short human-readable title. */
  readonly title: string;
  /** What the tool does and when to use it, written for a model. */
  readonly description: string;
  /** The arguments, as a zod object; field descriptions become the JSON Schema's. */
  readonly inputSchema: Schema;
  /**
   * The tool set it is served in (`memoir mcp --tools`): `core` is served by default, the others
   * on request. Without one, the tool is in `admin`, so a new tool never grows the default unseen.
   */
  readonly set?: AgentToolSet;
  /** True when the tool only reads. */
  readonly readOnly: boolean;
  /** True when the tool deletes or overwrites data (it then takes a `confirm` argument). */
  readonly destructive: boolean;
  /**
   * Old names of arguments, still accepted (docs/vocabulary.md): moved to the new name before
   * the schema sees them, the result's text says the new name, and both with different values
   * is refused. Not listed in the schema hosts see.
   */
  readonly renamed?: readonly RenamedOption[];
  /**
   * Run the tool on arguments already parsed by `inputSchema`. Throws a MemoirError for bad
   * input or a failure; {@link callAgentTool} turns it into text a model can act on.
   * `context` says where files may be written; tools that need none ignore it.
   */
  run(client: MemoryClient, input: z.output<Schema>, context: AgentToolContext): Promise<AgentToolResult>;
}

/**
 * Declare a tool; the identity function, there so TypeScript infers the handler's input
 * from the schema.
 *
 * @param tool - The tool's name, description, schema and handler.
 * @returns The same tool.
 * @group Agent tools
 */
export function defineAgentTool<Schema extends z.ZodObject>(tool: AgentTool<Schema>): AgentTool<Schema> {
  return tool;
}

// The old names docs/vocabulary.md promises at every tool that takes the new one: `top_k` was
// the size of a ranked answer before `k`. A tool lists its own others in `renamed`.
const VOCABULARY_RENAMES: readonly RenamedOption[] = [{ from: 'top_k', to: 'k' }];

function renamesOf(tool: AgentTool): readonly RenamedOption[] {
  const shape = tool.inputSchema.shape as Record<string, unknown>;
  const own = tool.renamed ?? [];
  const shared = VOCABULARY_RENAMES.filter(
    (rename) =>
      Object.hasOwn(shape, rename.to) &&
      !Object.hasOwn(shape, rename.from) &&
      !own.some((mine) => mine.from === rename.from),
  );
  return shared.length === 0 ? own : [...own, ...shared];
}

/**
 * Validate raw arguments against the tool's schema and run it. Bad arguments reject with a
 * ValidationError naming the field (`memory_retain: content: expected a non-empty string`);
 * nothing is written then. A `__proto__` key anywhere in the arguments is refused before
 * parsing, which would otherwise drop it without a word.
 *
 * @param tool - The tool to run.
 * @param client - The memory client it works on.
 * @param args - The arguments as the host received them (an object, or undefined for none).
 * @param context - Where file tools may read and write (the memoir home); default none.
 * @returns The tool's text and structured result.
 * @group Agent tools
 */
export async function callAgentTool(
  tool: AgentTool,
  client: MemoryClient,
  args: unknown,
  context: AgentToolContext = {},
): Promise<AgentToolResult> {
  const protoKey = findProtoKey(args);
  if (protoKey) throw protoKeyError(tool.name, protoKeyIssue(args, protoKey));
  const renamed = applyRenames(args ?? {}, renamesOf(tool), { component: tool.name });
  let input: z.output<AgentTool['inputSchema']>;
  try {
    input = parseInput(tool.inputSchema, renamed.input, tool.name);
  } catch (error) {
    // The generic hint speaks of the API reference; a model needs to know it can simply retry.
    if (!ValidationError.isInstance(error)) throw error;
    throw new ValidationError(error.issues, {
      component: tool.name,
      suggestion: `Fix the argument named above and call ${tool.name} again.`,
    });
  }
  const result = await tool.run(client, input, context);
  if (renamed.used.length === 0) return result;
  // The model learns the new name from the answer it reads; the call itself ran as asked.
  return { ...result, text: `${result.text}\n\nNote: ${renamedNote(renamed.used)}.` };
}

/**
 * The tool's arguments as a JSON Schema object (draft 2020-12), what hosts list.
 *
 * @param tool - The tool.
 * @returns A JSON Schema with `type: 'object'`.
 * @group Agent tools
 */
export function agentToolInputJsonSchema(tool: AgentTool): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(tool.inputSchema, { io: 'input', unrepresentable: 'any' });
  return schema as Record<string, unknown>;
}

/**
 * Options of {@link agentToolErrorText}.
 *
 * @group Agent tools
 */
export interface AgentToolErrorTextOptions {
  /** The tool that failed, named in "call … again". */
  tool?: string;
  /** The host's words for what its operator sets (a workspace, the scope). Default: generic ones. */
  terms?: ToolHintTerms;
}

/**
 * The text a model gets for a failed call: the message (which names the field for bad
 * input) and what to do about it, in a tool caller's terms: an error's structured hint
 * becomes the argument to change or what the host's operator must set, never a library call.
 * Errors that are not memoir's are described by their message.
 *
 * @param error - What the tool threw.
 * @param options - The tool and the host's terms.
 * @returns One or two lines.
 * @group Agent tools
 */
export function agentToolErrorText(error: unknown, options: AgentToolErrorTextOptions = {}): string {
  if (MemoirError.isInstance(error)) {
    const message = error.message.replace(/^\[memoir\] /, '');
    const fields = ValidationError.isInstance(error) && error.issues.length > 1 ? listIssues(error) : '';
    const hint = error.hint
      ? toolHintText(error.hint, options.tool, options.terms ?? GENERIC_TOOL_TERMS)
      : error.suggestion;
    return [message, fields, hint ? `Hint: ${hint}` : ''].filter(Boolean).join('\n');
  }
  return error instanceof Error ? error.message : String(error);
}

function listIssues(error: ValidationError): string {
  return error.issues.map((issue) => `- ${issue.field || 'input'}: ${issue.message}`).join('\n');
}

/**
 * Throw the ValidationError a destructive tool gives without `confirm: true`.
 *
 * @param tool - The tool's name.
 * @param confirm - The call's `confirm` argument.
 * @param what - What would be deleted or overwritten, in words.
 * @group Agent tools
 */
export function requireConfirm(tool: string, confirm: boolean | undefined, what: string): void {
  if (confirm === true) return;
  throw new ValidationError([{ field: 'confirm', message: `expected true: this ${what}` }], {
    component: tool,
    suggestion: 'Ask the user first; call again with confirm: true once they agree.',
    hint: { code: 'confirm' },
  });
}
