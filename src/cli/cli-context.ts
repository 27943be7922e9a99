/** What every command shares: the streams, the global options, the config and the client. */
import { mkdirSync } from 'node:fs';
import type { MemoryClient } from '../core/client/memory-client.js';
import { type LoadedConfig, loadConfig, type MemoirConfig } from '../core/config/load-config.js';
import type { Scope } from '../core/spec/memory.js';
import type { Logger, LogLevel } from '../core/spec/runtime.js';
import { isLevelEnabled } from '../core/utils/runtime-defaults.js';
import { createMemory } from '../create-memory.js';
import { DEFAULT_WIDTH } from './cli-format.js';

/** A writable text stream (process.stdout, or a test's buffer). */
export interface CliOutput {
  /** Write text. */
  write(chunk: string): unknown;
  /** True for a terminal: enables the progress bar. */
  isTTY?: boolean;
  /** Terminal width, for tables. */
  columns?: number;
}

/** What the client factory gets. */
export interface ClientFactoryOptions {
  /** The memoir home directory (absolute; created before the factory runs). */
  home: string;
  /** The settings in effect (from `loadConfig`). */
  config: MemoirConfig;
  /** Writes memoir's diagnostics to the CLI's stderr. */
  logger: Logger;
  /** The scope every command acts in (`--user`, `--agent`, `--namespace` or their variables); absent: all scopes. */
  scope?: Scope;
}

/** The process around {@link runCli}; every member defaults to the real process's. */
export interface CliIo {
  /** Results. Default `process.stdout`. */
  stdout?: CliOutput;
  /** Errors, hints, summaries and the progress bar. Default `process.stderr`. */
  stderr?: CliOutput;
  /** Read by `import -`. Default `process.stdin`. */
  stdin?: NodeJS.ReadableStream;
  /** Environment (MEMOIR_HOME and the other settings). Default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Clock for relative times such as `30d`, epoch milliseconds. Default `Date.now`. */
  now?: () => number;
  /**
   * Builds the memory client. Default: `createMemory` over `<home>/memoir.sqlite`. Inject
   * one to run the CLI over another store or embedder.
   */
  createClient?: (options: ClientFactoryOptions) => MemoryClient | Promise<MemoryClient>;
}

/** The global options, as parsed. */
export interface GlobalOptions {
  /** `--home <dir>`. */
  home?: string;
  /** `--json`. */
  json?: boolean;
  /** `--debug`. */
  debug?: boolean;
  /** `--user <id>`. */
  user?: string;
  /** `--agent <id>`. */
  agent?: string;
  /** `--namespace <name>`. */
  namespace?: string;
}

/** The client the CLI uses by default: `createMemory` over `<home>/memoir.sqlite`. */
export function defaultClientFactory({ home, config, logger, scope }: ClientFactoryOptions): MemoryClient {
  return createMemory({ home, logger, recallK: config.recallK, ...(scope ? { scope } : {}) });
}

/** Per-run state of the CLI. */
export class CliContext {
  readonly stdout: CliOutput;
  readonly stderr: CliOutput;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly now: () => number;
  globals: GlobalOptions = {};
  private loaded: LoadedConfig | undefined;
  private clientPromise: Promise<MemoryClient> | undefined;

  constructor(private readonly io: CliIo) {
    this.stdout = io.stdout ?? process.stdout;
    this.stderr = io.stderr ?? process.stderr;
    this.env = io.env ?? process.env;
    this.now = io.now ?? Date.now;
  }

  /** `import -` reads this. */
  get stdin(): NodeJS.ReadableStream {
    return this.io.stdin ?? process.stdin;
  }

  /** True with `--json`: stdout carries one JSON document and nothing else. */
  get json(): boolean {
    return this.globals.json === true;
  }

  /** Width for tables. */
  get width(): number {
    return this.stdout.isTTY && this.stdout.columns ? this.stdout.columns : DEFAULT_WIDTH;
  }

  /** Settings: `--home` over the environment over the config file over the defaults. */
  get config(): MemoirConfig {
    this.loaded ??= loadConfig({
      env: this.env,
      overrides: this.globals.home === undefined ? undefined : { home: this.globals.home },
    });
    return this.loaded.config;
  }

  /** The scope of this run: flags over `MEMOIR_USER_ID` / `MEMOIR_AGENT_ID` / `MEMOIR_NAMESPACE`; undefined for all scopes. */
  get scope(): Scope | undefined {
    const pick = (flag: string | undefined, variable: string) => flag ?? (this.env[variable]?.trim() || undefined);
    const scope: Scope = {};
    const userId = pick(this.globals.user, 'MEMOIR_USER_ID');
    const agentId = pick(this.globals.agent, 'MEMOIR_AGENT_ID');
    const namespace = pick(this.globals.namespace, 'MEMOIR_NAMESPACE');
    if (userId !== undefined) scope.userId = userId;
    if (agentId !== undefined) scope.agentId = agentId;
    if (namespace !== undefined) scope.namespace = namespace;
    return Object.keys(scope).length > 0 ? scope : undefined;
  }

  /** Diagnostics to stderr: `--debug` shows everything, otherwise the configured level. */
  readonly logger: Logger = {
    log: (level, message, fields) => {
      const threshold: LogLevel = this.globals.debug ? 'debug' : (this.loaded?.config.logLevel ?? 'warn');
      if (!isLevelEnabled(level, threshold)) return;
      const suffix = fields && Object.keys(fields).length > 0 ? ` ${JSON.stringify(fields)}` : '';
      this.stderr.write(`[memoir] ${level}: ${message}${suffix}\n`);
    },
  };

  /** The memory client, created on first use. */
  client(): Promise<MemoryClient> {
    this.clientPromise ??= (async () => {
      const config = this.config;
      mkdirSync(config.home, { recursive: true });
      const factory = this.io.createClient ?? defaultClientFactory;
      const scope = this.scope;
      return factory({ home: config.home, config, logger: this.logger, ...(scope ? { scope } : {}) });
    })();
    return this.clientPromise;
  }

  /** Close the client if one was created. */
  async close(): Promise<void> {
    const pending = this.clientPromise;
    this.clientPromise = undefined;
    if (!pending) return;
    const client = await pending.catch(() => undefined);
    await client?.close();
  }

  /** A line of results on stdout. */
  print(text: string): void {
    this.stdout.write(`${text}\n`);
  }

  /** The one JSON document of a `--json` run. */
  printJson(value: unknown): void {
    this.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  }

  /** A summary or notice on stderr (kept off stdout so pipes get only results). */
  note(text: string): void {
    this.stderr.write(`${text}\n`);
  }
}
