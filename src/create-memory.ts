import { join } from 'node:path';
import { createLocalEmbedder } from './adapters/local-embedder/index.js';
import { createSqliteStore } from './adapters/sqlite/index.js';
import { createMemoryClient, type MemoryClient } from './core/client/memory-client.js';
import type { MemoryOptions } from './core/client/memory-options.js';
import { loadConfig, type MemoirConfig } from './core/config/load-config.js';
import type { ProcedureOptions } from './core/procedures/procedure-options.js';
import { createConsoleLogger } from './core/utils/runtime-defaults.js';

// The zero-configuration path (no store given) takes its settings from loadConfig(): the
// config file and MEMOIR_* variables, below whatever the caller passed explicitly.
function withConfigDefaults(options: MemoryOptions | undefined): MemoryOptions | undefined {
  if (options !== undefined && (typeof options !== 'object' || options === null || options.store !== undefined)) {
    return options;
  }
  const { config } = loadConfig();
  const given = options ?? {};
  return {
    home: config.home,
    recallK: config.recallK,
    retentionDays: config.retentionDays,
    maxSizeMb: config.maxSizeMb,
    ...(config.maxMemories === null ? {} : { maxMemories: config.maxMemories }),
    logger: createConsoleLogger(config.logLevel),
    ...given,
    capture: { enabled: config.captureEnabled, ...given.capture },
    procedures: { ...procedureSettings(config), ...given.procedures },
  };
}

/** The procedure options the config names (a reflection model name needs an adapter, so it is not one). */
export function procedureSettings(config: MemoirConfig): ProcedureOptions {
  return {
    enabled: config.proceduresEnabled,
    minToolCalls: config.proceduresMinToolCalls,
    maxPerPrompt: config.proceduresMaxPerPrompt,
    ...(config.proceduresSimilarityThreshold === null
      ? {}
      : { similarityThreshold: config.proceduresSimilarityThreshold }),
    ...(config.proceduresUpdateThreshold === null ? {} : { updateThreshold: config.proceduresUpdateThreshold }),
  };
}

/**
 * Create a memory client. With no options it runs offline with no API key: the SQLite
 * store at `$MEMOIR_HOME/memoir.sqlite` (default `~/.memoir`) and the local hashing
 * embedder, with settings from `loadConfig()` (config file, then `MEMOIR_*` variables)
 * wherever the options don't say otherwise. better-sqlite3 loads when the store first
 * opens, not at import. Options are validated once, here; a bad option is a ConfigError
 * naming it.
 *
 * @example
 * ```ts
 * import { createMemory } from 'memoir';
 *
 * // One client per user: the scope is a tenant boundary.
 * const memory = createMemory({ scope: { userId: 'alice' } });
 * await memory.retain({ content: 'Alice prefers short answers.', kind: 'opinion', entities: ['Alice'] });
 * const response = await memory.recall('how should I answer Alice?', { k: 5, tokenBudget: 800 });
 * const system = `You are Alice's assistant.\n\n${memory.formatContext(response)}`;
 * await memory.close();
 * ```
 *
 * @example
 * ```ts
 * // A neural embedder and a chat model for the conversation pipeline (npm install openai).
 * import { createMemory } from 'memoir';
 * import { createOpenAIChatModel, createOpenAIEmbedder } from 'memoir/openai';
 * import { createSqliteStore } from 'memoir/sqlite';
 *
 * const memory = createMemory({
 *   store: createSqliteStore({ path: './agent-memory.sqlite' }),
 *   embedder: createOpenAIEmbedder(),
 *   languageModel: createOpenAIChatModel(),
 * });
 * ```
 * @group Client
 */
export function createMemory(options?: MemoryOptions): MemoryClient {
  return createMemoryClient(withConfigDefaults(options), {
    store: ({ home, logger }) =>
      createSqliteStore({ path: join(home ?? loadConfig({ logger }).config.home, 'memoir.sqlite'), logger }),
    embedder: () => createLocalEmbedder(),
    backupDirectory: ({ home }) => join(home ?? loadConfig().config.home, 'backups'),
    attachmentDirectory: ({ home }) => join(home ?? loadConfig().config.home, 'attachments'),
  });
}
