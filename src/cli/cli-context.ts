/** What every command shares: the streams, the global options, the config and the client. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInMemoryStore } from '../adapters/in-memory/index.js';
import { createLanceStore } from '../adapters/lancedb/index.js';
import { createSqliteStore } from '../adapters/sqlite/index.js';
import { withConfiguredOptions } from '../config/config-options.js';
import { type LoadedConfig, loadConfig, type SettingInEffect, settingsInEffect } from '../config/load-config.js';
import type { MemoirConfig } from '../config/memoir-config.js';
import { type Environment, processEnvironment, STORE_LOCATIONS, type StoreKind } from '../config/setting-registry.js';
import type { MemoryClient } from '../core/client/memory-client.js';
import type { MemoryOptions } from '../core/client/memory-options.js';
import type { Embedder } from '../core/spec/embedder.js';
import type { Scope } from '../core/spec/memory.js';
import type { Logger, LogLevel } from '../core/spec/runtime.js';
import type { MemoryStore, RecordedEmbedder } from '../core/spec/store.js';
import { isLevelEnabled } from '../core/utils/runtime-defaults.js';
import { createMemory } from '../create-memory.js';
import {
  buildEmbedder,
  describeIdentity,
  type EmbedderChoice,
  reasonOf,
  refuses,
  settingsFor,
  standInEmbedder,
} from './cli-embedder.js';
import { CliError, EXIT_CODES } from './cli-errors.js';
import { DEFAULT_WIDTH } from './cli-format.js';
import type { ProtectedPlaces } from './cli-output-path.js';
import { workspaceStore } from './cli-workspace-store.js';

/** A writable text stream (process.stdout, or a test's buffer). */
export interface CliOutput {
  /** Write text. */
  write(chunk: string): unknown;
  /** True for a terminal: enables the progress bar. */
  isTTY?: boolean;
  /** Terminal width, for tables. */
  columns?: number;
}

/** What the store factory gets. */
export interface StoreFactoryOptions {
  /** The memoir home directory (absolute; created before the factory runs). */
  home: string;
  /** The store the settings name (`--store`, `MEMOIR_STORE`, `store` in config.json); default `sqlite`. */
  storeKind?: StoreKind;
  /** Writes memoir's diagnostics to the CLI's stderr. */
  logger: Logger;
}

/** What the client factory gets. */
export interface ClientFactoryOptions extends StoreFactoryOptions {
  /** The settings in effect (from `loadConfig`). */
  config: MemoirConfig;
  /** The scope every command acts in (`--user`, `--agent`, `--namespace` or their variables); absent: all scopes. */
  scope?: Scope;
  /** The store, from the store factory; not opened yet. */
  store: MemoryStore;
  /**
   * The embedder to open it with: the configured one, one `reindex` was told to use, or,
   * for a command that needs no vectors, a stand-in carrying the identity the store recorded
   * (it embeds nothing).
   */
  embedder: Embedder;
  /** Settings a command adds for its run (`memoir mcp`: a session for the run, tool capture, a workspace, the daily maintenance). */
  extra?: CommandClientOptions;
  /** The environment the model's API key is read from (`apiKeyEnv`, else `MEMOIR_API_KEY`, else `OPENAI_API_KEY`). Default `process.env`. */
  env?: Environment;
}

/** Client settings a command may add to the configured ones. */
export type CommandClientOptions = Pick<
  MemoryOptions,
  'sessionId' | 'capture' | 'workspace' | 'video' | 'reflect' | 'schedule'
>;

/**
 * How a command uses the store's vectors, which decides the embedder it is opened with:
 * `vectors` (it embeds or searches) needs the configured embedder, and refuses a store built
 * with another; `records` (it only reads, writes or deletes records) opens any store, under
 * the store's own embedder identity when the configured one differs or cannot be built;
 * `{ replaceWith }` (reindex) opens it with that embedder, whatever the store holds.
 */
export type StoreAccess = 'vectors' | 'records' | { replaceWith: Embedder };

/** The embedders behind the client of this run. */
export interface EmbedderState {
  /** What the store recorded before this run opened it; null for a new store. */
  recorded: RecordedEmbedder | null;
  /** The embedder the store was opened with. */
  inUse: Embedder;
  /** The configured embedder, when it is not the one in use: it differs from the store's, or cannot be built (`error`). */
  configured?: { id: string; dimensions: number } | { error: string };
}

/** The process around {@link runCli}; every member defaults to the real process's. */
export interface CliIo {
  /** Results. Default `process.stdout`. */
  stdout?: CliOutput;
  /** Errors, hints, summaries and the progress bar. Default `process.stderr`. */
  stderr?: CliOutput;
  /** Read by `import -`. Default `process.stdin`. */
  stdin?: NodeJS.ReadableStream;
  /** Environment (MEMOIR_HOME and the other settings). Default the process's. */
  env?: Environment;
  /** Clock for relative times such as `30d`, epoch milliseconds. Default `Date.now`. */
  now?: () => number;
  /** Builds the store. Default: {@link defaultStoreFactory}, the store the `store` setting names. Inject one to run the CLI over another store. */
  createStore?: (options: StoreFactoryOptions) => MemoryStore;
  /** Builds the memory client over the store and embedder it is given. Default: {@link defaultClientFactory}. */
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
  /** The settings given as flags (`--home`, `--store`, `--user`, `--retention-days`, …; see the settings registry). */
  settings?: Partial<MemoirConfig>;
}

/** Where the store of `kind` lives under `home`: `<home>/memoir.sqlite`, `<home>/lancedb`. */
export function storeLocation(home: string, kind: StoreKind = 'sqlite'): string {
  return join(home, STORE_LOCATIONS[kind]);
}

/** The store the CLI opens: the one the `store` setting names, at its place under the home. */
export function defaultStoreFactory({ home, storeKind = 'sqlite', logger }: StoreFactoryOptions): MemoryStore {
  const location = storeLocation(home, storeKind);
  return storeKind === 'lancedb'
    ? createLanceStore({ uri: location, logger })
    : createSqliteStore({ path: location, logger });
}

/**
 * The client the CLI uses by default: `createMemory` over the store and embedder, with the
 * options the settings name, the chat model of `--model` / `MEMOIR_MODEL` among them
 * (`withConfiguredOptions`: the same rule a zero-configuration `createMemory()` follows),
 * under the run's scope and the command's own additions.
 */
export function defaultClientFactory({
  home,
  config,
  logger,
  scope,
  store,
  embedder,
  extra,
  env,
}: ClientFactoryOptions): MemoryClient {
  return createMemory(
    withConfiguredOptions(
      {
        ...extra,
        home,
        store,
        embedder,
        logger,
        ...(scope ? { scope } : {}),
      },
      config,
      env,
    ),
  );
}

/** Per-run state of the CLI. */
export class CliContext {
  readonly stdout: CliOutput;
  readonly stderr: CliOutput;
  readonly env: Environment;
  readonly now: () => number;
  globals: GlobalOptions = {};
  /** Settings the running command adds to its client; set before the first {@link client} call. */
  clientOptions: CommandClientOptions | undefined;
  /** `--json` appears on the command line: known before commander parses it, so usage errors are JSON too. */
  jsonRequested = false;
  private loaded: LoadedConfig | undefined;
  private clientPromise: Promise<MemoryClient> | undefined;
  private embedderState: EmbedderState | undefined;
  private openedStoreName: string | undefined;
  private readonly otherClients: MemoryClient[] = [];

  constructor(private readonly io: CliIo) {
    this.stdout = io.stdout ?? process.stdout;
    this.stderr = io.stderr ?? process.stderr;
    this.env = io.env ?? processEnvironment();
    this.now = io.now ?? Date.now;
  }

  /** `import -` reads this. */
  get stdin(): NodeJS.ReadableStream {
    return this.io.stdin ?? process.stdin;
  }

  /** True with `--json`: stdout carries one JSON document and nothing else. */
  get json(): boolean {
    return this.globals.json === true || this.jsonRequested;
  }

  /** Width for tables. */
  get width(): number {
    return this.stdout.isTTY && this.stdout.columns ? this.stdout.columns : DEFAULT_WIDTH;
  }

  /** The settings in effect: the flags, the environment and the config file, merged by `loadConfig`. */
  get config(): MemoirConfig {
    if (this.loaded === undefined) {
      this.loaded = loadConfig({ env: this.env, flags: this.globals.settings ?? {} });
      // --debug says where each setting came from: a default, which file, which variable, which flag.
      for (const each of settingsInEffect(this.loaded)) this.logger.log('debug', `setting ${each.text}`);
    }
    return this.loaded.config;
  }

  /** Every setting with its value and source (what `memoir doctor` prints). */
  get settings(): SettingInEffect[] {
    void this.config;
    return settingsInEffect(this.loaded!);
  }

  /** The scope of this run: the `userId`, `agentId` and `namespace` settings; undefined for all scopes. */
  get scope(): Scope | undefined {
    const { userId, agentId, namespace } = this.config;
    const scope: Scope = {};
    if (userId !== null) scope.userId = userId;
    if (agentId !== null) scope.agentId = agentId;
    if (namespace !== null) scope.namespace = namespace;
    return Object.keys(scope).length > 0 ? scope : undefined;
  }

  /** Where this run's store lives: `<home>/memoir.sqlite`, or `<home>/lancedb` with `store` set to `lancedb`. */
  get storeLocation(): string {
    return storeLocation(this.config.home, this.config.store);
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

  /**
   * The embedder the settings name (`choice`, from `--embedder`, replaces the provider and
   * model). Throws a ConfigError naming the setting when it cannot be built.
   */
  configuredEmbedder(choice?: EmbedderChoice): Embedder {
    return buildEmbedder(this.config, this.env, choice);
  }

  /** The name of the store behind the client (`sqlite`, `lancedb`, …), once {@link client} has resolved. */
  get storeName(): string | undefined {
    return this.openedStoreName;
  }

  /** The home's live store file, backups and other files of memoir's own, which no output path may reach. */
  get protectedPlaces(): ProtectedPlaces {
    const home = this.config.home;
    return {
      storeFile: join(home, 'memoir.sqlite'),
      backupDirectory: join(home, 'backups'),
      directories: [join(home, 'attachments'), join(home, 'procedures'), storeLocation(home, 'lancedb')],
      files: [join(home, 'config.json')],
    };
  }

  /**
   * A client for the backups alone (list, inspect, verify), of this run's scope or, with
   * `wholeStore`, of every scope: its store is a placeholder never opened, so it works
   * while the store file is damaged. Closed with the run.
   */
  backupsClient(options: { wholeStore?: boolean } = {}): MemoryClient {
    const scope = options.wholeStore ? undefined : this.scope;
    const client = createMemory({
      store: createInMemoryStore(),
      logger: this.logger,
      backupDirectory: this.protectedPlaces.backupDirectory,
      ...(scope ? { scope } : {}),
    });
    this.otherClients.push(client);
    return client;
  }

  /**
   * Keep `client` (one a command built itself, such as doctor's over a new store file) to be
   * closed with the run.
   */
  adopt(client: MemoryClient): MemoryClient {
    this.otherClients.push(client);
    return client;
  }

  /** The embedders behind the client, once {@link client} has resolved. */
  get embedders(): EmbedderState | undefined {
    return this.embedderState;
  }

  /**
   * The memory client, created on first use (one command per run, so the first call's
   * `access` decides). See {@link StoreAccess}.
   */
  client(access: StoreAccess = 'vectors'): Promise<MemoryClient> {
    this.clientPromise ??= (async () => {
      const config = this.config;
      mkdirSync(config.home, { recursive: true });
      const scope = this.scope;
      const home = config.home;
      // A workspace has one index, `<dir>/.memory/index.sqlite`, whichever door opens it.
      const workspace = this.clientOptions?.workspace;
      const store =
        workspace === undefined
          ? (this.io.createStore ?? defaultStoreFactory)({ home, storeKind: config.store, logger: this.logger })
          : workspaceStore(workspace, this.logger);
      try {
        const recorded = (await store.recordedEmbedder?.()) ?? null;
        const state = this.chooseEmbedder(access, recorded);
        const factory = this.io.createClient ?? defaultClientFactory;
        const client = await factory({
          home,
          config,
          logger: this.logger,
          ...(scope ? { scope } : {}),
          store,
          embedder: state.inUse,
          ...(this.clientOptions ? { extra: this.clientOptions } : {}),
          env: this.env,
        });
        this.embedderState = state;
        this.openedStoreName = store.name;
        return client;
      } catch (error) {
        await store.close().catch(() => undefined);
        throw error;
      }
    })();
    return this.clientPromise;
  }

  private chooseEmbedder(access: StoreAccess, recorded: RecordedEmbedder | null): EmbedderState {
    if (typeof access === 'object') return { recorded, inUse: access.replaceWith };
    let configured: Embedder | undefined;
    let failure: unknown;
    try {
      configured = this.configuredEmbedder();
    } catch (error) {
      failure = error;
    }
    if (access === 'vectors') {
      if (!configured) throw failure;
      if (refuses(recorded, configured)) throw this.mismatchError(recorded, configured);
      return { recorded, inUse: configured };
    }
    if (configured && !refuses(recorded, configured)) return { recorded, inUse: configured };
    if (!recorded) throw failure;
    const reason = configured
      ? `the configured embedder is ${configured.id}`
      : `the configured one cannot be built: ${reasonOf(failure)}`;
    return {
      recorded,
      inUse: standInEmbedder(recorded, reason),
      configured: configured ? { id: configured.id, dimensions: configured.dimensions } : { error: reasonOf(failure) },
    };
  }

  private mismatchError(recorded: RecordedEmbedder, configured: Embedder): CliError {
    const path = this.storeLocation;
    const settings = settingsFor(recorded);
    const configure = settings
      ? `Configure the embedder it was built with (${settings}) in ${join(this.config.home, 'config.json')} or MEMOIR_EMBEDDER_* variables`
      : `Configure the embedder it was built with in ${join(this.config.home, 'config.json')} or MEMOIR_EMBEDDER_* variables`;
    return new CliError(
      `${path} was built with the embedder ${describeIdentity(recorded)}, but the configured embedder is ${describeIdentity(configured)}; their vectors don't compare`,
      `${configure}. To replace its vectors with ${configured.id} instead, run \`memoir reindex --to-configured\`. stats, list, get, export and forget work either way.`,
      EXIT_CODES.failed,
      { code: 'EMBEDDER_MISMATCH' },
    );
  }

  /** Close the clients this run created. */
  async close(): Promise<void> {
    for (const other of this.otherClients.splice(0)) await other.close();
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
