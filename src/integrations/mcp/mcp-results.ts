/** Agent tool results and errors as MCP `CallToolResult`s. */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { type AgentToolResult, agentToolErrorText } from '../agent-tools.js';

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
 * which field for bad input, and can call again. The server keeps serving.
 */
export function toErrorResult(error: unknown): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: agentToolErrorText(error) }] };
}
