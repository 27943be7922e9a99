/**
 * memoir as an MCP server: the agent tools (the Context Persistence tools, search,
 * procedures and reflect) served over stdio or Streamable HTTP with the official SDK, and a
 * capture proxy that wraps another MCP server and records its tool calls as memories. The
 * `memoir mcp` command runs all of it; these are the parts, for hosts that embed it.
 *
 * @example
 * ```ts
 * import { createMemory } from 'memoir';
 * import { createMcpServer, serveMcpStdio } from 'memoir/mcp';
 *
 * const memory = createMemory({ sessionId: 'auto' });
 * const endpoint = serveMcpStdio(createMcpServer({ client: memory }));
 * await endpoint.closed;
 * await memory.close();
 * ```
 *
 * @module memoir/mcp
 */

export { AGENT_TOOL_SETS, type AgentToolSet } from '../../config/mcp-tool-sets.js';
export {
  type AgentTool,
  type AgentToolContext,
  type AgentToolErrorTextOptions,
  type AgentToolResult,
  agentToolByName,
  agentToolErrorText,
  agentToolInputJsonSchema,
  agentToolSet,
  agentTools,
  agentToolsInSets,
  callAgentTool,
  defineAgentTool,
  type ToolHintTerms,
} from '../agent-tools.js';
export { type McpHttpEndpoint, type ServeMcpHttpOptions, serveMcpHttp } from './mcp-http.js';
export { createMcpServer, type McpServerOptions } from './mcp-server.js';
export {
  DEFAULT_MAX_MESSAGE_BYTES,
  type McpStdioEndpoint,
  type ServeMcpStdioOptions,
  serveMcpStdio,
} from './mcp-stdio.js';
export type { McpToolSource } from './mcp-tool-source.js';
export { type WrapMcpServerOptions, type WrappedMcpServer, wrapMcpServer } from './mcp-wrap.js';
