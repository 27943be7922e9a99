/**
 * Tools renamed by the vocabulary (docs/vocabulary.md, "Verbs"): each door names a tool after the
 * library's verb. An old name is no longer listed (a host sends every listed definition to its
 * model on every turn) but still answers: the call runs the new tool, with the arguments that
 * make it answer as the old one did, and the result's text names the new tool.
 */

/**
 * A tool's old name and what it is now.
 *
 * @group Agent tools
 */
export interface RenamedAgentTool {
  /** The old name, e.g. `memory_store`. */
  readonly from: string;
  /** The tool that answers it now, e.g. `memory_retain`. */
  readonly to: string;
  /** Arguments that make the new tool answer as the old one did (`memory_search` → `format: 'list'`). */
  readonly args?: Readonly<Record<string, unknown>>;
}

/**
 * Every old tool name that still answers.
 *
 * @group Agent tools
 */
export const RENAMED_AGENT_TOOLS: readonly RenamedAgentTool[] = [
  { from: 'memory_store', to: 'memory_retain' },
  { from: 'memory_search', to: 'memory_recall', args: { format: 'list' } },
  { from: 'memory_recall_steps', to: 'memory_procedures_from_recording' },
];

/**
 * The renaming of an old tool name, or undefined for a name that was never renamed.
 *
 * @param name - A tool name as a host called it.
 * @returns What it is now.
 * @group Agent tools
 */
export function renamedAgentTool(name: string): RenamedAgentTool | undefined {
  return RENAMED_AGENT_TOOLS.find((rename) => rename.from === name);
}

/**
 * The note a result of an old name ends with, for the model that called it.
 *
 * @param rename - The renaming the call went through.
 * @returns One sentence.
 * @group Agent tools
 */
export function renamedToolNote(rename: RenamedAgentTool): string {
  return `Note: ${rename.from} is now ${rename.to} (${rename.from} still works for now).`;
}
