/** Tools served next to memoir's own: the tools of a wrapped MCP server, forwarded as they are. */
import type { CallToolResult, Tool } from '@modelcontextprotocol/server';

/**
 * Tools another party implements (a wrapped MCP server); the memoir MCP server lists them
 * and forwards their calls without changing names, schemas, results or errors.
 *
 * @group MCP
 */
export interface McpToolSource {
  /** Every tool, as its server lists it. */
  listTools(signal: AbortSignal): Promise<Tool[]>;
  /**
   * Call one. Resolves to the result as its server returned it (a tool error included, as
   * `isError: true`); rejects with the server's protocol error unchanged.
   */
  callTool(name: string, args: Record<string, unknown> | undefined, signal: AbortSignal): Promise<CallToolResult>;
}
