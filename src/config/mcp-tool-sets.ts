/**
 * The tool sets `memoir mcp` serves (`--tools`, `mcpTools`, `MEMOIR_MCP_TOOLS`). A host sends
 * every listed tool's definition to its model on every turn, so the default is the small set
 * the everyday scenarios need; the others are opted into by name. The names live here, in the
 * composition layer, so the settings registry, the CLI and the tool table agree on them.
 *
 * @module
 */
import { z } from 'zod';

/**
 * The sets a memory tool belongs to: `core` (retain, recall, get, forget, sessions; the
 * default), `workspace` (the core block and reflect), `procedures` (learned procedures,
 * workflows, recorded steps) and `admin` (everything else: versions, listing, data control).
 *
 * @group Agent tools
 */
export const AGENT_TOOL_SETS = ['core', 'workspace', 'procedures', 'admin'] as const;

/**
 * One of {@link AGENT_TOOL_SETS}.
 *
 * @group Agent tools
 */
export type AgentToolSet = (typeof AGENT_TOOL_SETS)[number];

/** What a list of sets may name: a set, or `all`. */
const CHOICES: readonly string[] = [...AGENT_TOOL_SETS, 'all'];

/** The words a tool-set list may use, for error messages. */
export const TOOL_SET_CHOICES_TEXT = `${AGENT_TOOL_SETS.join(', ')} or all`;

/**
 * Read a comma-separated list of tool sets (`core,procedures`, `all`), case and spaces
 * ignored; `all` is every set.
 *
 * @param text - The list as typed.
 * @returns The sets, each once, in {@link AGENT_TOOL_SETS} order; or the first word that names no set.
 */
export function parseToolSetList(text: string): { sets: AgentToolSet[] } | { unknown: string } {
  const words = text
    .split(',')
    .map((word) => word.trim().toLowerCase())
    .filter((word) => word !== '');
  if (words.length === 0) return { unknown: text.trim() };
  const unknown = words.find((word) => !CHOICES.includes(word));
  if (unknown !== undefined) return { unknown };
  if (words.includes('all')) return { sets: [...AGENT_TOOL_SETS] };
  return { sets: AGENT_TOOL_SETS.filter((set) => words.includes(set)) };
}

/** The schema of the `mcpTools` setting: a list {@link parseToolSetList} reads, or null for the default. */
export const toolSetListSchema = z
  .string()
  .max(200)
  .refine((text) => 'sets' in parseToolSetList(text), { message: `expected tool sets: ${TOOL_SET_CHOICES_TEXT}` })
  .nullable();

/**
 * The sets served when neither `--tools` nor the setting names any: `core`, plus `workspace`
 * when the server has a workspace (its reflect and core block are what one is for).
 *
 * @param hasWorkspace - Whether the server runs with `--workspace`.
 * @returns The default sets.
 */
export function defaultToolSets(hasWorkspace: boolean): AgentToolSet[] {
  return hasWorkspace ? ['core', 'workspace'] : ['core'];
}
