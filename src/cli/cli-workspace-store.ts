/** The one index of a Markdown workspace, whichever command opens it. */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { createSqliteStore } from '../adapters/sqlite/index.js';
import type { Logger } from '../core/spec/runtime.js';
import type { MemoryStore } from '../core/spec/store.js';
import { workspaceIndexPath } from '../workspace.js';

/**
 * The store of the workspace at `root`: its one index, `<root>/.memory/index.sqlite` (SQLite in
 * WAL mode, so the CLI, `memoir mcp` and the library may have it open at once).
 */
export function workspaceStore(root: string, logger: Logger): MemoryStore {
  const path = workspaceIndexPath(root);
  mkdirSync(dirname(path), { recursive: true });
  return createSqliteStore({ path, logger });
}
