/**
 * The agent tools: one table of memory tools (the seed's Context Persistence tools, search,
 * procedures and reflection), each a name, a description for a model, a zod input schema and
 * a handler over a {@link MemoryClient}. The MCP server lists them as they are; other hosts
 * (the OpenClaw plugin) map their own parameter names onto the same tools with
 * {@link callAgentTool}, so results and errors stay identical everywhere.
 *
 * @example
 * ```ts
 * const result = await callAgentTool(memoryRecallTool, memory, { query: 'deploy steps', k: 5 });
 * console.log(result.text); // what the model reads; result.structured is the same as data
 * ```
 *
 * @module
 */

import { z } from 'zod';
import { AGENT_TOOL_SETS, type AgentToolSet } from '../config/mcp-tool-sets.js';
import { parseInput } from '../core/utils/validate.js';
import {
  memoryCoreAppendTool,
  memoryCoreInsertTool,
  memoryCoreReadTool,
  memoryCoreReplaceTool,
} from './agent-tools/core-block-tools.js';
import {
  memoryBackupTool,
  memoryClearAllTool,
  memoryExportTool,
  memoryRestoreTool,
  memoryStatsTool,
} from './agent-tools/data-tools.js';
import type { AgentTool } from './agent-tools/define-agent-tool.js';
import { memoryCleanupTool, memoryConsolidateTool } from './agent-tools/maintenance-tools.js';
import {
  memoryForgetTool,
  memoryGetTool,
  memoryInvalidateTool,
  memoryListTool,
  memoryRecallTool,
  memoryRetainTool,
} from './agent-tools/memory-tools.js';
import {
  memoryFindProceduresTool,
  memoryGetProcedureTool,
  memoryLearnProcedureTool,
  memoryListProceduresTool,
  memoryRecordProcedureUseTool,
  memoryReflectTool,
} from './agent-tools/procedure-tools.js';
import { memoryProceduresFromRecordingTool } from './agent-tools/recording-tools.js';
import {
  memoryDeleteSessionTool,
  memoryListSessionsTool,
  memoryResumeSessionTool,
  memoryStartSessionTool,
} from './agent-tools/session-tools.js';
import { memoryCorrectTool, memoryHistoryTool } from './agent-tools/version-tools.js';
import {
  memoryAnalyzePatternsTool,
  memoryCreateWorkflowTool,
  memoryDetectWorkflowsTool,
  memorySuggestTool,
  memoryWarnTool,
} from './agent-tools/workflow-tools.js';

export * from './agent-tools/core-block-tools.js';
export * from './agent-tools/data-tools.js';
export * from './agent-tools/define-agent-tool.js';
export * from './agent-tools/maintenance-tools.js';
export * from './agent-tools/memory-tools.js';
export * from './agent-tools/procedure-tools.js';
export * from './agent-tools/recording-tools.js';
export * from './agent-tools/renamed-tools.js';
export * from './agent-tools/session-tools.js';
export * from './agent-tools/tool-hints.js';
export * from './agent-tools/version-tools.js';
export * from './agent-tools/workflow-tools.js';

/**
 * Every memory tool, in the order hosts list them: storing and finding first, then sessions,
 * workflows, data control, procedures (steps from screen recordings among them) and reflection,
 * then the core block.
 *
 * @group Agent tools
 */
export const agentTools: readonly AgentTool[] = [
  memoryRetainTool,
  memoryRecallTool,
  memoryGetTool,
  memoryListTool,
  memoryForgetTool,
  memoryInvalidateTool,
  memoryHistoryTool,
  memoryCorrectTool,
  memoryResumeSessionTool,
  memoryStartSessionTool,
  memoryListSessionsTool,
  memoryDeleteSessionTool,
  memoryCreateWorkflowTool,
  memoryDetectWorkflowsTool,
  memorySuggestTool,
  memoryWarnTool,
  memoryAnalyzePatternsTool,
  memoryExportTool,
  memoryBackupTool,
  memoryRestoreTool,
  memoryClearAllTool,
  memoryStatsTool,
  memoryCleanupTool,
  memoryConsolidateTool,
  memoryFindProceduresTool,
  memoryGetProcedureTool,
  memoryListProceduresTool,
  memoryRecordProcedureUseTool,
  memoryLearnProcedureTool,
  memoryProceduresFromRecordingTool,
  memoryReflectTool,
  memoryCoreReadTool,
  memoryCoreAppendTool,
  memoryCoreReplaceTool,
  memoryCoreInsertTool,
];

// The sets of the tools above (a tool may instead declare its own `set`); any other tool is in
// admin. Core is what the design documents' everyday scenarios call on every turn: store,
// find, read, forget, and sessions (seed 001); the rest costs every turn's context only on request.
const setsSchema = z.array(z.enum(AGENT_TOOL_SETS)).max(AGENT_TOOL_SETS.length * 4);

const SET_OF: Readonly<Record<string, AgentToolSet>> = {
  memory_retain: 'core',
  memory_recall: 'core',
  memory_get: 'core',
  memory_forget: 'core',
  memory_start_session: 'core',
  memory_end_session: 'core',
  memory_resume_session: 'core',
  memory_list_sessions: 'core',
  memory_core_read: 'workspace',
  memory_core_append: 'workspace',
  memory_core_replace: 'workspace',
  memory_core_insert: 'workspace',
  memory_reflect: 'workspace',
  memory_find_procedures: 'procedures',
  memory_list_procedures: 'procedures',
  memory_record_procedure_use: 'procedures',
  memory_learn_procedure: 'procedures',
  memory_procedures_from_recording: 'procedures',
  memory_create_workflow_from_session: 'procedures',
  memory_detect_workflows: 'procedures',
  memory_suggest: 'procedures',
  memory_warn: 'procedures',
  memory_analyze_patterns: 'procedures',
};

/**
 * The set a tool is served in: its own `set`, else the one the tool table gives it, else `admin`.
 *
 * @param tool - A tool.
 * @returns Its set.
 * @group Agent tools
 */
export function agentToolSet(tool: AgentTool): AgentToolSet {
  return tool.set ?? SET_OF[tool.name] ?? 'admin';
}

/**
 * The tools of the given sets, in table order (what `memoir mcp --tools` serves).
 *
 * @param sets - Tool sets; `['core']` is what `memoir mcp` serves by default.
 * @param tools - The tools to choose from. Default: {@link agentTools}.
 * @returns The tools in those sets.
 * @group Agent tools
 */
export function agentToolsInSets(
  sets: readonly AgentToolSet[],
  tools: readonly AgentTool[] = agentTools,
): readonly AgentTool[] {
  const chosen = parseInput(setsSchema, sets, 'agent-tools', 'sets');
  return tools.filter((tool) => chosen.includes(agentToolSet(tool)));
}

/**
 * The tool of that name, or undefined.
 *
 * @param name - A tool name, e.g. `memory_retain`.
 * @returns The tool.
 * @group Agent tools
 */
export function agentToolByName(name: string): AgentTool | undefined {
  return agentTools.find((tool) => tool.name === name);
}
