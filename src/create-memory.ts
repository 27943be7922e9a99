import { join } from 'node:path';
import { createLocalEmbedder } from './adapters/local-embedder/index.js';
import { createSqliteStore } from './adapters/sqlite/index.js';
import { loadConfig } from './core/config.js';
import { createMemoryClient, type MemoryClient } from './core/memory-client.js';
import type { MemoryOptions } from './core/memory-options.js';

/**
 * Create a memory client. With no options it runs offline with no API key: the SQLite
 * store at `$MEMOIR_HOME/memoir.sqlite` (default `~/.memoir`) and the local hashing
 * embedder. better-sqlite3 loads when the store first opens, not at import. Options are
 * validated once, here; a bad option is a ConfigError naming it.
 *
 * @example
 * ```ts
 * const memory = createMemory({ scope: { userId: 'alice' } });
 * await memory.retain({ content: 'Alice prefers short answers.', kind: 'opinion', entities: ['Alice'] });
 * const { results } = await memory.recall('how should I answer Alice?');
 * ```
 */
export function createMemory(options?: MemoryOptions): MemoryClient {
  return createMemoryClient(options, {
    store: ({ home, logger }) =>
      createSqliteStore({ path: join(home ?? loadConfig({ logger }).config.home, 'memoir.sqlite'), logger }),
    embedder: () => createLocalEmbedder(),
    backupDirectory: ({ home }) => join(home ?? loadConfig().config.home, 'backups'),
    attachmentDirectory: ({ home }) => join(home ?? loadConfig().config.home, 'attachments'),
  });
}
