/**
 * The capture proxy: another MCP server started as a child over stdio with the official
 * client, its tools forwarded unchanged, and each call recorded through memoir's capture
 * (interval filter, exclusions, redaction) after it settles, without delaying the answer.
 */
import { Client, ProtocolError } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { ProviderError } from '../../core/spec/errors.js';
import { childEnvironment } from '../../core/utils/environment.js';
import { parseOptions } from '../../core/utils/parse-options.js';
import type { Capture, CaptureEvent, Logger } from '../../index.js';
import type { McpToolSource } from './mcp-tool-source.js';

const optionsSchema = z
  .object({
    command: z.string().trim().min(1, 'expected the command of an MCP server'),
    args: z.array(z.string()).max(1000).default([]),
    env: z.record(z.string(), z.string()).optional(),
    cwd: z.string().min(1).optional(),
    capture: z.custom<Capture>((value) => typeof (value as Capture | undefined)?.tryCapture === 'function').optional(),
    timeoutMs: z.number().int().min(1).max(86_400_000).default(300_000),
    startTimeoutMs: z.number().int().min(1).max(600_000).default(30_000),
    logger: z.custom<Logger>((value) => typeof (value as Logger | undefined)?.log === 'function').optional(),
  })
  .strict();

/**
 * Options of {@link wrapMcpServer}.
 *
 * @group MCP
 */
export interface WrapMcpServerOptions {
  /** The wrapped server's executable, e.g. `npx` or `node`. */
  command: string;
  /** Its arguments. */
  args?: string[];
  /** Its environment. Default: this process's whole environment, so its keys and display reach it. */
  env?: Record<string, string>;
  /** Its working directory. Default: this process's. */
  cwd?: string;
  /** The capture to record calls with (`memory.capturer`); omitted or disabled: calls are only forwarded. */
  capture?: Capture;
  /** Longest a forwarded call may take before it fails, ms (progress notifications restart the clock). Default 300000. */
  timeoutMs?: number;
  /** Longest the wrapped server may take to start and list its tools, ms. Default 30000. */
  startTimeoutMs?: number;
  /** Where the wrapped server's exit and capture trouble are reported. */
  logger?: Logger;
}

/**
 * A running wrapped server: its tools as an {@link McpToolSource}, and how to stop it.
 *
 * @group MCP
 */
export interface WrappedMcpServer extends McpToolSource {
  /** The wrapped server's name and version from its handshake. */
  readonly serverInfo: {
    /** Its name, e.g. `hands-mcp`; the command when it gave none. */
    name: string;
    /** Its version, or `unknown`. */
    version: string;
  };
  /** Stop the child process. */
  close(): Promise<void>;
}

function textOf(result: CallToolResult): string {
  const parts = result.content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`));
  return parts.join('\n');
}

/**
 * Keys of a structured result that hold text read from the screen (OCR, an accessibility or
 * ARIA tree), as vision and browser servers name them: what `withCapture`'s `screenText` reads
 * in a server that captures itself.
 */
const SCREEN_TEXT_KEYS = [
  'screen_text',
  'screenText',
  'ocr',
  'ocr_text',
  'ocrText',
  'text_on_screen',
  'aria',
  'aria_tree',
  'ariaTree',
  'accessibility_tree',
  'accessibilityTree',
];

/** The screen text of a structured result, and the result without it (kept once, on its own line). */
function splitScreenText(structured: Record<string, unknown>): { screenText?: string; rest: Record<string, unknown> } {
  const key = SCREEN_TEXT_KEYS.find((name) => typeof structured[name] === 'string' && structured[name] !== '');
  if (key === undefined) return { rest: structured };
  const { [key]: text, ...rest } = structured;
  return { screenText: text as string, rest };
}

/**
 * A call that runs a multi-step workflow (a browser server's named steps) is one `workflow`
 * memory, as a server capturing itself declares with `type: 'workflow'`: its steps are an
 * array argument, or its name says workflow.
 */
function isWorkflow(name: string, args: Record<string, unknown> | undefined): boolean {
  return /workflow/i.test(name) || Array.isArray(args?.steps);
}

/** What a settled call is remembered as: its result text, and the screen text and kind a direct capture gives. */
function outcomeOf(name: string, args: Record<string, unknown> | undefined, result: CallToolResult): CaptureEvent {
  const text = textOf(result);
  const structured = result.structuredContent;
  const { screenText, rest } =
    typeof structured === 'object' && structured !== null
      ? splitScreenText(structured as Record<string, unknown>)
      : { rest: undefined };
  return {
    tool: name,
    success: result.isError !== true,
    result: rest === undefined ? text : { text, structured: rest },
    ...(screenText === undefined ? {} : { screenText }),
    ...(isWorkflow(name, args) ? { type: 'workflow' as const } : {}),
  };
}

/**
 * Start an MCP server as a child process over stdio and connect to it with the official
 * client; resolves once it has answered the handshake and listed its tools. Serve the result
 * as `upstream` of {@link createMcpServer}: its tools are listed as they are, and each call is
 * forwarded as it is, its result or error returned as it came, and recorded (tool, arguments,
 * result text, success, duration) through `capture` after it settles — with the screen text a
 * structured result carries (`screen_text`, `ocr`, `aria_tree`, …) on its own line as a
 * `screen` memory, and a call running steps (a `steps` array, or "workflow" in its name) as
 * one `workflow` memory, as a server capturing itself with `withCapture` records them.
 *
 * @example
 * ```ts
 * const memory = createMemory({ sessionId: 'auto', capture: { enabled: true } });
 * const hands = await wrapMcpServer({ command: 'npx', args: ['hands-mcp'], capture: memory.capturer });
 * serveStdio(createMcpServer({ client: memory, upstream: hands }));
 * ```
 *
 * @param options - The command and how calls are captured.
 * @returns The running wrapped server.
 * @group MCP
 */
export async function wrapMcpServer(options: WrapMcpServerOptions): Promise<WrappedMcpServer> {
  const parsed = parseOptions(optionsSchema, options, 'mcp-wrap', 'Pass wrapMcpServer({ command, args }).');
  const { capture, logger } = options;
  const transport = new StdioClientTransport({
    command: parsed.command,
    args: parsed.args,
    env: parsed.env ?? childEnvironment(),
    // The wrapped server's own diagnostics go where memoir's go: the host's log of this process.
    stderr: 'inherit',
    ...(parsed.cwd === undefined ? {} : { cwd: parsed.cwd }),
  });
  // The 2025 handshake (the client's default): every server speaks it, and the 2026 probe would
  // start a second copy of the wrapped server, which for a browser or screen server is not harmless.
  const client = new Client({ name: 'memoir-mcp-wrap', version: '1' });
  let closing = false;
  client.onclose = () => {
    if (!closing) logger?.log('warn', `the wrapped MCP server (${parsed.command}) exited; its tools now fail`);
  };
  const described = [parsed.command, ...parsed.args].join(' ');
  try {
    await client.connect(transport, { timeout: parsed.startTimeoutMs });
    await client.listTools(undefined, { timeout: parsed.startTimeoutMs });
  } catch (error) {
    await client.close().catch(() => undefined);
    throw new ProviderError(`the wrapped MCP server \`${described}\` did not start: ${(error as Error).message}`, {
      component: 'mcp-wrap',
      cause: error,
      suggestion: 'Run the command alone to see its error; it must speak MCP over stdio.',
    });
  }
  const info = client.getServerVersion();

  function record(name: string, args: Record<string, unknown> | undefined, started: number, outcome: CaptureEvent) {
    if (!capture?.enabled) return;
    try {
      capture.tryCapture({
        ...outcome,
        tool: name,
        ...(args === undefined ? {} : { parameters: args }),
        durationMs: Math.max(0, performance.now() - started),
      });
    } catch (error) {
      // Capture never changes a forwarded call; tryCapture logs its own failures.
      logger?.log('warn', `capturing ${name} failed: ${(error as Error).message}`);
    }
  }

  return {
    serverInfo: { name: info?.name ?? parsed.command, version: info?.version ?? 'unknown' },
    async listTools(signal): Promise<Tool[]> {
      const { tools } = await client.listTools(undefined, { signal, timeout: parsed.startTimeoutMs });
      return tools;
    },
    async callTool(name, args, signal): Promise<CallToolResult> {
      const started = performance.now();
      try {
        const result = await client.callTool(
          { name, ...(args === undefined ? {} : { arguments: args }) },
          { signal, timeout: parsed.timeoutMs, resetTimeoutOnProgress: true },
        );
        record(name, args, started, outcomeOf(name, args, result as CallToolResult));
        return result;
      } catch (error) {
        // A protocol error (unknown tool, arguments its schema refused) means the tool never ran:
        // there is no action to remember. A timeout or a dead server is a failed action.
        if (!ProtocolError.isInstance(error)) {
          record(name, args, started, { tool: name, success: false, result: (error as Error).message });
        }
        throw error;
      }
    },
    async close() {
      closing = true;
      await client.close();
    },
  };
}
