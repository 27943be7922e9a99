/** Agent tool results and errors as MCP `CallToolResult`s. */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { type AgentToolResult, agentToolErrorText, type ToolHintTerms } from '../agent-tools.js';

/**
 * What the operator of an MCP server sets that a model cannot: said in `memoir mcp`'s flags,
 * the way most servers are started (an embedder of createMcpServer sets the same on its client).
 */
export const MCP_TOOL_TERMS: ToolHintTerms = {
  workspace: 'start the server with a Markdown workspace (`memoir mcp --workspace <dir>`)',
  unscoped:
    'start the server without a scope (`memoir mcp` without --user, --agent and --namespace, and without MEMOIR_USER_ID, MEMOIR_AGENT_ID and MEMOIR_NAMESPACE)',
  languageModel: 'serve a client that has a language model (`memoir mcp` starts one without)',
  video:
    'start the server with MEMORIES_AI_API_KEY set (a Memories AI key, so the screen recordings can be searched; MEMOIR_VISION_MODEL for a vision model)',
};

/** A tool's result: the text for the model, the data as `structuredContent`. */
export function toCallToolResult(result: AgentToolResult): CallToolResult {
  return {
    content: [{ type: 'text', text: result.text }],
    // Through JSON, so a host gets exactly what a JSON-RPC peer would (no undefined members).
    structuredContent: JSON.parse(JSON.stringify(result.structured)) as Record<string, unknown>,
  };
}

/**
 * A failed call as a tool error result (`isError: true`): the model reads what went wrong,
 * which field for bad input, and what to do in MCP terms (the argument to change, or what the
 * server's operator must set), and can call again. The server keeps serving.
 *
 * @param error - What the call threw.
 * @param tool - The tool that was called, named in "call … again".
 */
export function toErrorResult(error: unknown, tool?: string): CallToolResult {
  const text = agentToolErrorText(error, { terms: MCP_TOOL_TERMS, ...(tool === undefined ? {} : { tool }) });
  return { isError: true, content: [{ type: 'text', text }] };
}
