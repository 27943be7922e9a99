/** stdio serving: the official SDK's `serveStdio` over this process's stdin and stdout. */
import type { Server } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { Logger } from '../../index.js';

/**
 * A server answering on stdin and stdout.
 *
 * @group MCP
 */
export interface McpStdioEndpoint {
  /** Resolves when the host closes stdin (it stopped the server) or {@link McpStdioEndpoint.close} ran. */
  readonly closed: Promise<void>;
  /** Stop serving. */
  close(): Promise<void>;
}

/**
 * Serve MCP on this process's stdin and stdout, as hosts such as Claude Desktop and Cursor
 * start servers. Both protocol eras are served (the 2025 `initialize` handshake and
 * 2026-07-28). stdout then carries only protocol messages: log to stderr.
 *
 * @param server - The server factory, from {@link createMcpServer}.
 * @param options - Where serving errors are reported.
 * @returns The endpoint; `closed` resolves when the host goes away.
 * @group MCP
 */
export function serveMcpStdio(server: () => Server, options: { logger?: Logger } = {}): McpStdioEndpoint {
  let finish: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const handle = serveStdio(server, {
    onerror: (error) => options.logger?.log('warn', `mcp stdio: ${error.message}`),
  });
  // The SDK's transport closes itself when stdin ends; this is how the caller learns of it.
  process.stdin.once('end', () => finish());
  process.stdin.once('close', () => finish());
  return {
    closed,
    async close() {
      await handle.close();
      finish();
    },
  };
}
