import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createLocalEmbedder } from './adapters/local-embedder/index.js';
import { createSqliteStore } from './adapters/sqlite/index.js';
import { createMemoryClient, type MemoryClient } from './core/client/memory-client.js';
import type { MemoryOptions } from './core/client/memory-options.js';
import { ConfigError } from './core/spec/errors.js';

/**
 * Options of {@link createWorkspace}: the workspace root and any option of `createMemory`.
 *
 * @group Workspace
 */
export interface WorkspaceOptions extends Omit<MemoryOptions, 'workspace'> {
  /** The workspace directory, holding `memory.md`, `memory/YYYY-MM-DD.md` and `bank/`. */
  root: string;
}

/** Where a workspace keeps its derived index: `<root>/.memory/index.sqlite`. */
export function workspaceIndexPath(root: string): string {
  return join(resolve(root), '.memory', 'index.sqlite');
}

/**
 * A memory client over a Markdown workspace: the files are the source of truth, and the
 * store, by default the SQLite file `<root>/.memory/index.sqlite`, is derived from them by
 * `memory.workspace.index()` and can be deleted and rebuilt at any time. Offline: the
 * local embedder unless another is given.
 *
 * @example
 * ```ts
 * import { createWorkspace } from 'memoir';
 *
 * const memory = createWorkspace({ root: './workspace' });
 * await memory.workspace.index();
 * const { results } = await memory.recall('what did we decide about warelay?');
 * for (const r of results) console.log(r.citation, r.memory.content); // memory/2025-11-27.md#L12 …
 * await memory.close();
 * ```
 * @group Workspace
 */
export function createWorkspace(options: WorkspaceOptions): MemoryClient {
  if (typeof options !== 'object' || options === null || typeof options.root !== 'string' || options.root === '') {
    throw new ConfigError('root must be the path of the workspace directory', {
      component: 'createWorkspace',
      field: 'root',
      suggestion: "Pass createWorkspace({ root: './workspace' }).",
    });
  }
  const { root, ...rest } = options;
  const absolute = resolve(root);
  return createMemoryClient(
    { ...rest, workspace: absolute },
    {
      store: ({ logger }) => {
        mkdirSync(join(absolute, '.memory'), { recursive: true });
        return createSqliteStore({ path: workspaceIndexPath(absolute), logger });
      },
      embedder: () => createLocalEmbedder(),
      backupDirectory: ({ home }) => join(home ?? join(absolute, '.memory'), 'backups'),
      attachmentDirectory: ({ home }) => join(home ?? join(absolute, '.memory'), 'attachments'),
    },
  );
}
