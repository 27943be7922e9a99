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
  memorySearchTool,
  memoryStoreTool,
} from './agent-tools/memory-tools.js';
import {
  memoryFindProceduresTool,
  memoryLearnProcedureTool,
  memoryListProceduresTool,
  memoryRecordProcedureUseTool,
  memoryReflectTool,
} from './agent-tools/procedure-tools.js';
import { memoryRecallStepsTool } from './agent-tools/recording-tools.js';
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
  memoryStoreTool,
  memorySearchTool,
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
  memoryListProceduresTool,
  memoryRecordProcedureUseTool,
  memoryLearnProcedureTool,
  memoryRecallStepsTool,
  memoryReflectTool,
  memoryCoreReadTool,
  memoryCoreAppendTool,
  memoryCoreReplaceTool,
  memoryCoreInsertTool,
];

/**
 * The tool of that name, or undefined.
 *
 * @param name - A tool name, e.g. `memory_store`.
 * @returns The tool.
 * @group Agent tools
 */
export function agentToolByName(name: string): AgentTool | undefined {
  return agentTools.find((tool) => tool.name === name);
}
