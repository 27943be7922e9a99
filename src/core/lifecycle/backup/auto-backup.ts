import type { MemoryEngine } from '../../engine/memory-engine.js';
import { type BackupInfo, createBackup } from './backup.js';

/** The automatic backup taken before an operation that deletes or replaces data (`auto-before-<operation>`). */
export function autoBackup(engine: MemoryEngine, before: string): Promise<BackupInfo> {
  return createBackup(engine.store, {
    directory: engine.backupDirectory(),
    name: `auto-before-${before}`,
    embedder: engine.identity(),
    now: engine.clock.now,
  });
}
