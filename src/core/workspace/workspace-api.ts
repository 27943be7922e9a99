import { resolve } from 'node:path';
import { z } from 'zod';
import type { MemoryEngine } from '../engine/memory-engine.js';
import { ConfigError } from '../spec/errors.js';
import { parseInput } from '../utils/validate.js';
import { indexWorkspace, type WorkspaceIndexReport } from './workspace-index.js';

/** Options of `memory.workspace.index()`. */
export const workspaceIndexOptionsSchema = z
  .object({
    /** Re-read every file, not only the ones whose content hash changed. Default false. */
    rebuild: z.boolean().optional(),
  })
  .strict();
/**
 * Options of `memory.workspace.index()`.
 *
 * @group Workspace
 */
export type WorkspaceIndexOptions = z.input<typeof workspaceIndexOptionsSchema>;

/**
 * The Markdown workspace a client indexes (`memory.md`, `memory/YYYY-MM-DD.md`, `bank/**`),
 * the source of truth its derived index is rebuilt from.
 *
 * @group Workspace
 */
export interface WorkspaceFacet {
  /** The workspace root (absolute), or undefined when the client was created without one. */
  readonly root: string | undefined;
  /**
   * Bring the index up to date with the files: only files whose content hash changed are
   * re-read, and items of deleted files or removed lines leave the index. Typed `## Retain`
   * bullets keep their kind, `@Name` entities and `O(c=…)` confidence; every other paragraph
   * or list item is indexed as plain text; each item cites `path#Lline`. A malformed line is
   * indexed as plain text and reported in `warnings` (file and line). Only files inside the
   * root are read: a symbolic link leading out of it (`memory.md`, `memory/`, `bank/` or any
   * file under them) is not followed, and a file over 2 MiB or 20,000 items is not read;
   * both are listed in `skipped` (and logged) while the rest of the workspace is indexed. A
   * file deleted while the run is under way counts as deleted. Rejects with a ConfigError
   * when the client has no workspace.
   *
   * @example
   * ```ts
   * const memory = createWorkspace({ root: '~/agent-workspace' });
   * const report = await memory.workspace.index();
   * for (const w of report.warnings) console.warn(`${w.file}:${w.line} ${w.message}`);
   * ```
   */
  index(options?: WorkspaceIndexOptions): Promise<WorkspaceIndexReport>;
}

/**
 * The workspace slice of a client.
 *
 * @group Workspace
 */
export interface WorkspaceApi {
  /** The Markdown workspace: see {@link WorkspaceFacet}. */
  readonly workspace: WorkspaceFacet;
}

/** The workspace feature over an engine; `root` is the validated `workspace` option. */
export function createWorkspaceApi(engine: MemoryEngine, settings: { root: string | undefined }): WorkspaceApi {
  const root = settings.root === undefined ? undefined : resolve(settings.root);
  return {
    workspace: {
      root,
      async index(optionsInput?: unknown) {
        const options = parseInput(workspaceIndexOptionsSchema, optionsInput ?? {}, 'workspace.index', 'options');
        if (root === undefined)
          throw new ConfigError('this client has no workspace', {
            component: 'workspace.index',
            field: 'workspace',
            suggestion: 'Create the client with createWorkspace({ root }) or createMemory({ workspace: dir }).',
          });
        return engine.track('workspace.index', () =>
          indexWorkspace(engine, root, { rebuild: options.rebuild ?? false }),
        );
      },
    },
  };
}
