import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createLocalEmbedder } from './adapters/local-embedder/index.js';
import { createSqliteStore } from './adapters/sqlite/index.js';
import { withConfiguredOptions } from './config/config-options.js';
import { loadConfig } from './config/load-config.js';
import { createMemoryClient, type MemoryClient } from './core/client/memory-client.js';
import type { MemoryOptions } from './core/client/memory-options.js';
import { workspaceIndexPath } from './workspace.js';

// The zero-configuration path (no store given) takes its settings from loadConfig(): the
// config file and MEMOIR_* variables, below whatever the caller passed explicitly. With a
// store, the caller configures the client and nothing is read.
function withConfigDefaults(options: MemoryOptions | undefined): MemoryOptions | undefined {
  if (options !== undefined && (typeof options !== 'object' || options === null || options.store !== undefined)) {
    return options;
  }
  return withConfiguredOptions(options ?? {}, loadConfig().config);
}

/**
 * Create a memory client. With no options it runs offline with no API key: the SQLite
 * store at `$MEMOIR_HOME/memoir.sqlite` (default `~/.memoir`) and the local hashing
 * embedder, with settings from `loadConfig()` wherever the options don't say otherwise:
 * an option wins over a `MEMOIR_*` variable, which wins over the config file, which wins
 * over the default (docs/guides/configuration.md lists them). Given a `store`, it reads no
 * settings. better-sqlite3 loads when the store first
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
  // A workspace has one index, whichever door opens it: its own `.memory/index.sqlite`.
  const workspace = typeof options?.workspace === 'string' && options.workspace !== '' ? options.workspace : undefined;
  return createMemoryClient(withConfigDefaults(options), {
    store: ({ home, logger }) => {
      if (workspace === undefined)
        return createSqliteStore({ path: join(home ?? loadConfig({ logger }).config.home, 'memoir.sqlite'), logger });
      mkdirSync(dirname(workspaceIndexPath(workspace)), { recursive: true });
      return createSqliteStore({ path: workspaceIndexPath(workspace), logger });
    },
    embedder: () => createLocalEmbedder(),
    backupDirectory: ({ home }) => join(home ?? loadConfig().config.home, 'backups'),
    attachmentDirectory: ({ home }) => join(home ?? loadConfig().config.home, 'attachments'),
  });
}
