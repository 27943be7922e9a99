import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { createWorkspace, type MemoryClient, type WorkspaceOptions } from '../../src/index.js';
import { createFixedClock } from '../../src/testing/index.js';
import { tempDir } from './stores.js';

/** The hand-written workspace: three weeks of daily logs, bank pages, entities and opinions. */
export const FIXTURE_WORKSPACE = join(import.meta.dirname, '..', 'fixtures', 'workspace');

/** A fresh copy of the fixture workspace in a temporary directory (tests edit their copy). */
export function fixtureCopy(): string {
  const root = join(tempDir('memoir-workspace-'), 'workspace');
  cpSync(FIXTURE_WORKSPACE, root, { recursive: true });
  return root;
}

/**
 * A workspace client over `root` at 2025-12-03 noon, warnings collected instead of printed.
 * Its scheduled reflect is off unless `options.reflect` says otherwise: a workspace with no
 * record of a last run reflects at once when a client opens it, which would race the test's own calls.
 */
export function workspaceClient(
  root: string,
  options: Omit<WorkspaceOptions, 'root'> = {},
): MemoryClient & { warnings: string[] } {
  const warnings: string[] = [];
  const client = createWorkspace({
    root,
    clock: createFixedClock(Date.parse('2025-12-03T12:00:00Z')),
    logger: { log: (level, message) => void (level === 'warn' && warnings.push(message)) },
    reflect: { every: 'off' },
    ...options,
  });
  return Object.assign(client, { warnings });
}
