/**
 * `memoir mcp`: the memory tools as an MCP server on stdio (or Streamable HTTP), optionally
 * wrapping another MCP server whose tool calls it forwards and captures. The SDK is loaded
 * only when this command runs.
 */
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import {
  type AgentToolSet,
  defaultToolSets,
  parseToolSetList,
  TOOL_SET_CHOICES_TEXT,
} from '../config/mcp-tool-sets.js';
import type { ReflectScheduleOptions } from '../core/schedule/reflect-schedule.js';
import type { CliContext } from './cli-context.js';
import { CliUsageError } from './cli-errors.js';
import { integer, nonEmpty, repeatable, settingFlag } from './cli-options.js';
import { scheduleOption } from './cli-schedule.js';
import { packageVersion } from './cli-version.js';
import { videoConfigured, videoOptionsFromEnv } from './cli-video.js';

/** The flags of `memoir mcp`, as commander parses them. */
interface McpFlags {
  http?: boolean;
  port?: number;
  host?: string;
  token?: string;
  allowRemote?: boolean;
  allowHost?: string[];
  wrap?: boolean;
  tools?: AgentToolSet[];
  memoryTools: boolean;
  capture?: boolean;
  captureInterval?: number;
  captureExclude?: string[];
  callTimeout?: number;
  workspace?: string;
  watch: boolean;
  watchDebounce?: number;
  reflectEvery?: ReflectScheduleOptions['every'];
  reflectMaxTokens?: number;
  reflectDeadline?: number;
  reflectCatchUp?: number;
}

/** `--tools`: tool sets separated by commas. */
function toolSets(value: string): AgentToolSet[] {
  const parsed = parseToolSetList(value);
  if ('unknown' in parsed) {
    throw new InvalidArgumentError(
      `unknown tool set "${parsed.unknown}": expected ${TOOL_SET_CHOICES_TEXT}, separated by commas (e.g. core,procedures).`,
    );
  }
  return parsed.sets;
}

/** The sets to serve: `--tools`, else the `mcpTools` setting, else core (and workspace with --workspace). */
function servedSets(context: CliContext, flags: McpFlags): AgentToolSet[] {
  if (flags.tools) return flags.tools;
  const configured = context.config.mcpTools;
  const parsed = configured === null ? undefined : parseToolSetList(configured);
  if (parsed && 'sets' in parsed) return parsed.sets;
  return defaultToolSets(flags.workspace !== undefined);
}

/** `--reflect-every`: `daily`, `off`, or hours between runs. */
function reflectEvery(value: string): NonNullable<ReflectScheduleOptions['every']> {
  const word = value.trim().toLowerCase();
  if (word === 'daily' || word === 'off') return word;
  const hours = /^\s*(\d+\.?\d*|\.\d+)\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!(hours >= 1 / 3600 && hours <= 576)) {
    throw new InvalidArgumentError('expected daily, off, or hours between runs (from 0.0003, a second, to 576).');
  }
  return hours;
}

function checkUsage(command: readonly string[], flags: McpFlags): void {
  if (flags.wrap && command.length === 0) {
    throw new CliUsageError(
      '--wrap needs the command of an MCP server',
      'Put it after --: `memoir mcp --wrap -- npx some-mcp-server`.',
    );
  }
  if (!flags.wrap && command.length > 0) {
    throw new CliUsageError(
      `unexpected argument "${command[0]}"`,
      'To wrap another MCP server, run `memoir mcp --wrap -- <command>`.',
    );
  }
  const wrapOnly =
    flags.capture || !flags.memoryTools || flags.callTimeout !== undefined || flags.captureInterval !== undefined;
  if (!flags.memoryTools && flags.tools) {
    throw new CliUsageError('--tools and --no-memory-tools contradict each other', 'Keep one of them.');
  }
  if (!flags.wrap && (wrapOnly || flags.captureExclude !== undefined)) {
    throw new CliUsageError(
      '--capture, --capture-interval, --capture-exclude, --no-memory-tools and --call-timeout apply to a wrapped server',
      'Add --wrap -- <command of the MCP server to wrap>.',
    );
  }
  const workspaceOnly =
    !flags.watch ||
    flags.watchDebounce !== undefined ||
    flags.reflectEvery !== undefined ||
    flags.reflectMaxTokens !== undefined ||
    flags.reflectDeadline !== undefined ||
    flags.reflectCatchUp !== undefined;
  if (flags.workspace === undefined && workspaceOnly) {
    throw new CliUsageError(
      '--no-watch, --watch-debounce and --reflect-* apply to a workspace',
      'Add --workspace <dir>.',
    );
  }
  if (!flags.http && (flags.port !== undefined || flags.host || flags.token || flags.allowRemote || flags.allowHost)) {
    throw new CliUsageError('--port, --host, --token and --allow-* apply to HTTP serving', 'Add --http.');
  }
}

// Resolves on the first of: the host closing stdio, SIGINT, SIGTERM.
function stopped(closed?: Promise<void>): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
    closed?.then(done);
  });
}

async function runMcp(context: CliContext, command: readonly string[], flags: McpFlags): Promise<void> {
  checkUsage(command, flags);
  const captureEnabled = flags.capture === true || context.config.captureEnabled;
  // One session per server run, generated now, as the seed's servers do.
  context.clientOptions = {
    sessionId: 'auto',
    // A long-running server follows the seed's maintenance defaults (cleanup daily at 3 AM).
    ...scheduleOption(context),
    capture: {
      enabled: captureEnabled,
      ...(flags.captureInterval === undefined ? {} : { minIntervalSeconds: flags.captureInterval }),
      ...(flags.captureExclude === undefined ? {} : { exclude: flags.captureExclude }),
    },
    ...(flags.workspace === undefined ? {} : { workspace: resolve(flags.workspace) }),
    // memory_procedures_from_recording searches the recordings when a Memories AI key is set; otherwise it answers from the cache.
    ...(videoConfigured(context) ? { video: await videoOptionsFromEnv(context) } : {}),
    ...(flags.workspace === undefined
      ? {}
      : {
          reflect: {
            ...(flags.reflectEvery === undefined ? {} : { every: flags.reflectEvery }),
            ...(flags.reflectMaxTokens === undefined ? {} : { maxTokens: flags.reflectMaxTokens }),
            ...(flags.reflectDeadline === undefined ? {} : { deadlineMs: flags.reflectDeadline }),
            ...(flags.reflectCatchUp === undefined ? {} : { catchUpDelayMs: flags.reflectCatchUp }),
          },
        }),
  };
  const client = await context.client('vectors');
  // The workspace is a live source: watched first (so an edit made during the first index is
  // not missed), then indexed before the server answers its first call.
  if (flags.workspace !== undefined) {
    if (flags.watch) {
      client.workspace.watch(flags.watchDebounce === undefined ? {} : { debounceMs: flags.watchDebounce });
      client.on('error', (event) => {
        if (event.operation === 'workspace.watch' || event.operation === 'reflect.schedule')
          context.logger.log('warn', `${event.operation}: ${event.error.message}`);
      });
    }
    const report = await client.workspace.index();
    context.note(
      `memoir mcp: workspace ${client.workspace.root}: ${report.files} file(s), ${report.indexed} item(s) indexed${flags.watch ? ', watching for changes' : ''}`,
    );
  }
  const mcp = await import('../integrations/mcp/index.js');
  const tools = flags.memoryTools ? mcp.agentToolsInSets(servedSets(context, flags)) : [];
  const [executable, ...args] = command;
  const upstream =
    flags.wrap && executable !== undefined
      ? await mcp.wrapMcpServer({
          command: executable,
          args,
          capture: client.capturer,
          logger: context.logger,
          ...(flags.callTimeout === undefined ? {} : { timeoutMs: flags.callTimeout }),
        })
      : undefined;
  try {
    if (upstream && flags.memoryTools) {
      const ours = new Set(tools.map((tool) => tool.name));
      const hidden = (await upstream.listTools(AbortSignal.timeout(30_000))).filter((tool) => ours.has(tool.name));
      for (const tool of hidden) {
        context.logger.log(
          'warn',
          `the wrapped server's ${tool.name} is hidden by memoir's tool of that name; run with --no-memory-tools to serve it`,
        );
      }
    }
    const server = mcp.createMcpServer({
      client,
      version: packageVersion(),
      // The file tools (memory_export, memory_restore) stay inside this home's own folders.
      home: context.config.home,
      tools,
      ...(upstream ? { upstream } : {}),
    });
    const session = client.currentSession();
    const wrapped = upstream
      ? `, wrapping ${upstream.serverInfo.name}${captureEnabled ? ' (capturing its calls)' : ''}`
      : '';
    if (flags.http) {
      const generated = flags.token ?? context.config.mcpToken;
      const token = generated || randomBytes(24).toString('base64url');
      const endpoint = await mcp.serveMcpHttp({
        server,
        token,
        host: flags.host ?? '127.0.0.1',
        port: flags.port ?? 0,
        allowRemote: flags.allowRemote === true,
        allowedHosts: flags.allowHost ?? [],
        logger: context.logger,
      });
      context.note(`memoir mcp: session ${session} on ${endpoint.url}${wrapped}`);
      if (!generated) context.note(`memoir mcp: bearer token ${token}`);
      await stopped();
      await endpoint.close();
    } else {
      const endpoint = mcp.serveMcpStdio(server, { logger: context.logger });
      context.note(`memoir mcp: session ${session} on stdio${wrapped}`);
      await stopped(endpoint.closed);
      await endpoint.close();
    }
  } finally {
    await upstream?.close();
  }
}

/** Add `mcp`. */
export function registerMcpCommands(program: Command, context: CliContext): void {
  program
    .command('mcp')
    .description(
      'Serve the memory tools over MCP on stdio (Claude Desktop, Cursor, …) or Streamable HTTP; with --wrap, serve another MCP server’s tools too and capture their calls.',
    )
    .argument('[command...]', 'with --wrap: the MCP server to start and its arguments, after --')
    .option(
      '--workspace <dir>',
      'a Markdown workspace: indexed before serving, re-indexed as its files change, reflected on daily; memory_reflect writes its entity pages and proposals',
      nonEmpty,
    )
    .option('--no-watch', 'with --workspace: index it once at start, not as files change')
    .option(
      '--watch-debounce <ms>',
      'with --workspace: quiet time after a file change before re-indexing (default 300)',
      integer(0, 600_000),
    )
    .option(
      '--reflect-every <when>',
      'with --workspace: scheduled reflect, daily (default), off, or hours between runs',
      reflectEvery,
    )
    .option(
      '--reflect-max-tokens <n>',
      'with --workspace: most model tokens one scheduled reflect may use (default 50000)',
      integer(1, 100_000_000),
    )
    .option(
      '--reflect-deadline <ms>',
      'with --workspace: longest one scheduled reflect may take (default 600000)',
      integer(1, 86_400_000),
    )
    .option(
      '--reflect-catch-up <ms>',
      'with --workspace: how long after start a reflect that is due runs (its last run is kept in <dir>/.memory/schedule.json; default 60000)',
      integer(0, 86_400_000),
    )
    .option(
      '--tools <sets>',
      'tool sets to serve, separated by commas: core (retain, recall, get, forget, sessions), workspace (core block, reflect), procedures, admin, or all (default: $MEMOIR_MCP_TOOLS, else core, plus workspace with --workspace)',
      toolSets,
    )
    .option('--http', 'serve Streamable HTTP on 127.0.0.1 instead of stdio')
    .option('--port <n>', 'HTTP port (default: a free one, printed on stderr)', integer(0, 65_535))
    .option('--host <address>', 'HTTP listen address (default 127.0.0.1; another needs --allow-remote)', nonEmpty)
    .option(
      '--token <token>',
      'bearer token HTTP clients must send, at least 16 characters (default: $MEMOIR_MCP_TOKEN, else a new one printed on stderr)',
      settingFlag('mcpToken'),
    )
    .option('--allow-remote', 'allow a non-loopback --host, and requests addressed to it')
    .option(
      '--allow-host <name>',
      'with --allow-remote: another host name requests may be addressed to (repeatable)',
      repeatable(nonEmpty),
    )
    .option('--wrap', 'start the MCP server given after -- and serve its tools unchanged beside memoir’s')
    .option('--no-memory-tools', 'with --wrap: serve only the wrapped server’s tools')
    .option(
      '--capture',
      'with --wrap: store each wrapped tool call as an action memory (also on with captureEnabled in config.json)',
    )
    .option(
      '--capture-interval <seconds>',
      'skip a repeat of the same call within this many seconds (default 5)',
      integer(0, 86_400),
    )
    .option(
      '--capture-exclude <glob>',
      'sessions matching this glob store nothing, e.g. "banking_*" (repeatable)',
      repeatable(nonEmpty),
    )
    .option(
      '--call-timeout <ms>',
      'with --wrap: longest a forwarded call may take (default 300000)',
      integer(1, 86_400_000),
    )
    .addHelpText(
      'after',
      `
Every memory stored in one run goes to one session, session_YYYYMMDD_HHMMSS_xxxx, shown on stderr.
Examples:
  memoir mcp                                   # stdio, for Claude Desktop or Cursor
  memoir mcp --tools core,procedures           # also the procedure and workflow tools (--tools all: every tool)
  memoir mcp --http --port 8765 --token "$T"   # http://127.0.0.1:8765/mcp, Authorization: Bearer $T
  memoir mcp --wrap --capture -- npx -y some-mcp-server
  memoir mcp --workspace ~/agent-workspace     # recall reads the workspace, kept current as files change`,
    )
    .action((command: string[], flags: McpFlags) => runMcp(context, command, flags));
}
