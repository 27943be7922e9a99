import type { MemoryEngine } from '../engine/memory-engine.js';
import { StoreError } from '../spec/errors.js';
import { type BackupInfo, createBackup } from './backup.js';
import { verifyBackup } from './backup-reader.js';

/**
 * The automatic backup taken before an operation that deletes or replaces data
 * (`auto-before-<operation>`), of the client's scope, read back and checked completely
 * (checksums, counts, every record) before the operation may go on. An archive that
 * would not restore is no backup, so the caller must not delete anything after a failure.
 *
 * @throws StoreError when the backup cannot be written or does not verify.
 */
export async function autoBackup(
  engine: MemoryEngine,
  before: string,
  onProgress?: (done: number, total: number) => void,
): Promise<BackupInfo> {
  const info = await createBackup(engine.store, {
    ...(onProgress ? { onProgress } : {}),
    directory: engine.backupDirectory(),
    name: `auto-before-${before}`,
    embedder: engine.identity(),
    scope: engine.scope,
    now: engine.clock.now,
  });
  let problem: unknown;
  try {
    const checked = await verifyBackup(info.path, { scope: engine.scope });
    if (JSON.stringify(checked.counts) !== JSON.stringify(info.counts)) {
      problem = new Error(`it holds ${JSON.stringify(checked.counts)}, not ${JSON.stringify(info.counts)}`);
    }
  } catch (error) {
    problem = error;
  }
  if (problem !== undefined) {
    throw new StoreError(
      `the automatic backup made before ${before} (${info.path}) does not verify, so nothing was changed: ${(problem as Error).message}`,
      {
        component: 'backup',
        suggestion:
          'The store holds data a backup cannot carry back (see the cause). Export what you need, or repair the named record, then try again.',
        cause: problem,
      },
    );
  }
  return info;
}
