/**
 * stdio serving: the official SDK's `serveStdio` over this process's stdin and stdout, with
 * memoir's own line reader in front of the SDK's transport. The reader bounds a message's
 * size: one over the limit is discarded as it streams (never held whole) and answered with a
 * JSON-RPC error, and the server keeps serving the next message — the SDK's transport alone
 * closes the connection, and the server exits, on a line over its buffer.
 */
import { PassThrough } from 'node:stream';
import type { Server } from '@modelcontextprotocol/server';
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';
import { parseOptions } from '../../core/utils/parse-options.js';
import type { Logger } from '../../index.js';
import { BoundedLineSplitter, type OversizedLine } from './bounded-lines.js';
import { markProtoArguments } from './raw-arguments.js';

/** The default limit of one message on stdio: 16 MiB. */
export const DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

const MIB = 1024 * 1024;

const optionsSchema = z
  .object({
    logger: z.custom<Logger>((value) => typeof (value as Logger | undefined)?.log === 'function').optional(),
    maxMessageBytes: z
      .number()
      .int()
      .min(1024, 'expected at least 1024 bytes')
      .max(1024 * MIB, 'expected at most 1 GiB')
      .default(DEFAULT_MAX_MESSAGE_BYTES),
  })
  .strict();

/**
 * Options of {@link serveMcpStdio}.
 *
 * @group MCP
 */
export interface ServeMcpStdioOptions {
  /** Where serving errors and discarded messages are reported. */
  logger?: Logger;
  /**
   * The largest message accepted, in bytes (one JSON-RPC message is one line). A longer one
   * is discarded without being held in memory; a request among them is answered with a
   * JSON-RPC error `-32600` naming its id, anything else is reported to `logger`. Serving
   * goes on. Default 16 MiB ({@link DEFAULT_MAX_MESSAGE_BYTES}).
   */
  maxMessageBytes?: number;
}

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

function sizeText(bytes: number): string {
  return bytes % MIB === 0 ? `${bytes / MIB} MiB` : `${bytes} bytes`;
}

/**
 * Serve MCP on this process's stdin and stdout, as hosts such as Claude Desktop and Cursor
 * start servers. Both protocol eras are served (the 2025 `initialize` handshake and
 * 2026-07-28). stdout then carries only protocol messages: log to stderr. A message larger
 * than `maxMessageBytes` (16 MiB) is refused on its own, without ending the connection.
 *
 * @param server - The server factory, from {@link createMcpServer}.
 * @param options - Where serving errors are reported, and the message size limit.
 * @returns The endpoint; `closed` resolves when the host goes away.
 * @group MCP
 */
export function serveMcpStdio(server: () => Server, options: ServeMcpStdioOptions = {}): McpStdioEndpoint {
  const parsed = parseOptions(optionsSchema, options, 'mcp-stdio', 'Pass serveMcpStdio(server, { maxMessageBytes }).');
  const logger = options.logger;
  const stdin = process.stdin;
  const stdout = process.stdout;
  let finish: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    finish = resolve;
  });

  // What the SDK's transport reads: only whole lines within the limit, one chunk per line.
  const lines = new PassThrough();
  const refuse = ({ bytes, id, hasMethod }: OversizedLine) => {
    const message = `Message too large: ${bytes} bytes, over the limit of ${sizeText(parsed.maxMessageBytes)}; it was discarded and nothing was done`;
    if (hasMethod && id !== undefined && id !== null) {
      // One write of one whole line: the transport's own writes are whole lines too, so they never interleave.
      stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32600, message } })}\n`);
    }
    logger?.log('warn', `mcp stdio: discarded a message of ${bytes} bytes (limit ${parsed.maxMessageBytes})`);
  };
  const splitter = new BoundedLineSplitter(parsed.maxMessageBytes, {
    line: (line) => {
      if (!lines.write(Buffer.concat([markProtoArguments(line), Buffer.from('\n')]))) {
        stdin.pause();
        lines.once('drain', () => stdin.resume());
      }
    },
    oversized: refuse,
  });
  const onData = (chunk: Buffer | string) => splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  const onEnd = () => {
    splitter.end();
    lines.end();
    finish();
  };
  stdin.on('data', onData);
  stdin.once('end', onEnd);
  stdin.once('close', onEnd);

  // A rewritten message (see markProtoArguments) can grow a little; the reader enforces the limit.
  const transport = new StdioServerTransport(lines, stdout, { maxBufferSize: parsed.maxMessageBytes * 2 + 2 });
  const handle = serveStdio(server, {
    transport,
    onerror: (error) => logger?.log('warn', `mcp stdio: ${error.message}`),
  });
  return {
    closed,
    async close() {
      stdin.off('data', onData);
      stdin.off('end', onEnd);
      stdin.off('close', onEnd);
      await handle.close();
      lines.end();
      // Stop reading so the process can exit once the caller is done.
      stdin.pause();
      finish();
    },
  };
}
