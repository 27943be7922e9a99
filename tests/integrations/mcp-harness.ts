/**
 * The real `memoir mcp` in a child process (the bin script: the build when there is one, else
 * the sources through tsx, as tests/cli/cli-process.test.ts runs it), reached with the
 * official MCP client over stdio, on a SQLite file under a temporary MEMOIR_HOME.
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { CallToolResult } from '@modelcontextprotocol/server';

/** The bin script users run. */
export const bin = resolve(import.meta.dirname, '../../bin/memoir.mjs');
/** The small MCP server the wrap tests wrap. */
export const handsServer = resolve(import.meta.dirname, '../fixtures/mcp-hands-server.mjs');

/** This process's environment without memoir's, OpenAI's, Memories AI's or the seed's settings, plus `extra`. */
export function childEnvironment(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (
      value === undefined ||
      key.startsWith('MEMOIR_') ||
      key.startsWith('OPENAI_') ||
      key.startsWith('MEMORIES_AI') ||
      key === 'MEMORY_STORAGE_PATH'
    ) {
      continue;
    }
    env[key] = value;
  }
  return { ...env, ...extra };
}

/** A connected official client and what the server wrote on stderr. */
export interface McpConnection {
  /** The official MCP client. */
  client: Client;
  /** Everything the server wrote on stderr so far. */
  stderr(): string;
  /** Call a tool; resolves to its result (tool errors included). */
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** Close the client, which ends the server. */
  close(): Promise<void>;
}

/** Options of {@link connectMemoirMcp}. */
export interface ConnectOptions {
  /** MEMOIR_HOME of the server. */
  home: string;
  /** Arguments after `memoir mcp`. */
  args?: string[];
  /** Speak protocol 2026-07-28 (pinned); default: the 2025 handshake hosts use today. */
  modern?: boolean;
  /**
   * `--tools`: the tool sets to serve, e.g. `all` for a test calling tools beyond the default
   * core set. Default: none passed, so the server serves its default.
   */
  tools?: string;
  /** More environment for the server, e.g. `{ MEMOIR_STORE: 'lancedb' }`. */
  env?: Record<string, string>;
}

/** Start `memoir mcp` and connect the official client to it over stdio. */
export async function connectMemoirMcp({
  home,
  args = [],
  modern = false,
  tools,
  env = {},
}: ConnectOptions): Promise<McpConnection> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'mcp', ...(tools === undefined ? [] : ['--tools', tools]), ...args],
    env: childEnvironment({ MEMOIR_HOME: home, ...env }),
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const client = new Client(
    { name: 'memoir-tests', version: '1' },
    modern ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  await client.connect(transport);
  return {
    client,
    stderr: () => stderr,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    close: () => client.close(),
  };
}

/** The text blocks of a result, joined. */
export function textOf(result: CallToolResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('\n');
}

/** The structured content of a successful result; throws with the text of a tool error. */
export function dataOf<T = Record<string, unknown>>(result: CallToolResult): T {
  if (result.isError) throw new Error(`tool error: ${textOf(result)}`);
  return result.structuredContent as T;
}

/** Poll `read` until `done` holds of its value (capture stores in the background); rejects after `timeoutMs`. */
export async function eventually<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`condition not met within ${timeoutMs} ms: ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** What a `memoir` child process printed, and its exit code. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

const runFile = promisify(execFile);

/**
 * Run `memoir <args>` as a child process over the home `home` (or `{ home, env }`, with more
 * environment), in {@link childEnvironment}; a failure is a result, not a rejection.
 */
export async function runMemoir(
  where: string | { home: string; env?: Record<string, string> },
  ...args: string[]
): Promise<CliRun> {
  const { home, env = {} } = typeof where === 'string' ? { home: where } : where;
  try {
    const { stdout, stderr } = await runFile(process.execPath, [bin, ...args], {
      env: childEnvironment({ MEMOIR_HOME: home, ...env }),
      encoding: 'utf8',
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
