import { spawn } from 'node:child_process';
import { cpSync, existsSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createLanceStore } from '../../src/adapters/lancedb/index.js';
import { createSqliteStore } from '../../src/adapters/sqlite/index.js';
import { createInMemoryStore, createMemory } from '../../src/index.js';
import type { FullStore } from '../helpers/stores.js';
import { collect, quiet, tempDir } from '../helpers/stores.js';

// Restore, import and clear are all or nothing on every persistent store, also when the process
// running them is killed. A child process runs the change through the public client on a real
// store (a SQLite file, a LanceDB directory) and is SIGKILLed at a point spread over the whole
// change; reopened afterwards, the store holds exactly the data before or exactly the data
// after — never a mix, never nothing. Before the fix, 2 of 12 LanceDB restores killed this way
// left "525 A + 0 B" or "0 A + 0 B".

const worker = resolve(import.meta.dirname, 'fixtures/bulk-change-worker.ts');
const root = tempDir('memoir-bulk-kill-');
const OLD_MEMORIES = 100;
const NEW_MEMORIES = 400;
/** Killed runs per change; with the uncut runs that measure them, 11 runs per store. */
const KILLS = { restore: 3, import: 2, clear: 3 } as const;
type Operation = keyof typeof KILLS;

const PERSISTENT = [
  ['sqlite', (location: string) => createSqliteStore({ path: location })],
  ['lancedb', (location: string) => createLanceStore({ uri: location, logger: quiet })],
] as const;

/** What a store holds, in terms that tell the old data from the new. */
async function signature(store: FullStore) {
  const memories = await store.list('memory');
  const entities = await store.list('entity');
  const stats = await store.stats();
  return {
    oldMemories: memories.filter((memory) => memory.content.startsWith('Old note')).length,
    newMemories: memories.filter((memory) => memory.content.startsWith('New note')).length,
    otherMemories: memories.filter((memory) => !/^(Old|New) note/.test(memory.content)).length,
    oldEntities: entities.filter((entity) => entity.name.startsWith('old-')).length,
    newEntities: entities.filter((entity) => entity.name.startsWith('new-')).length,
    records: stats.opinions + stats.procedures + stats.sessions + stats.entities,
  };
}
type Signature = Awaited<ReturnType<typeof signature>>;

function notes(prefix: string, tag: string, count: number) {
  return Array.from({ length: count }, (_, index) => ({
    content: `${prefix} note ${index}: the job on machine ${index % 11} finished.`,
    entities: [`${tag}-${index % 11}`],
  }));
}

async function retainAll(memory: ReturnType<typeof createMemory>, inputs: ReturnType<typeof notes>) {
  for (let at = 0; at < inputs.length; at += 300) await memory.retain(inputs.slice(at, at + 300));
}

/** Run the worker on `location`; with `killAfter`, SIGKILL it that many ms after it starts the change. */
function runWorker(kind: string, location: string, operation: Operation, file: string, killAfter?: number) {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', worker, kind, location, join(root, 'auto-backups'), operation, file],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  let started = 0;
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    stdout += chunk;
    if (!started && stdout.includes('start\n')) {
      started = Date.now();
      if (killAfter !== undefined) setTimeout(() => child.kill('SIGKILL'), killAfter);
    }
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise<{ signal: NodeJS.Signals | null; code: number | null; ms: number; done: boolean }>((done) =>
    child.on('exit', (code, signal) => {
      if (code !== 0 && signal === null) throw new Error(`worker failed: ${stderr}`);
      done({ code, signal, ms: Date.now() - started, done: stdout.includes('done\n') });
    }),
  );
}

describe.each(PERSISTENT)('%s: restore, import and clear killed at any point', (kind, open) => {
  const dir = join(root, kind);
  const base = join(dir, kind === 'sqlite' ? 'base.sqlite' : 'base.lance');
  const archive = { path: '' };
  const exportFile = join(dir, 'new.jsonl');
  let copies = 0;
  let before: Signature;

  beforeAll(async () => {
    const target = createMemory({ store: open(base), logger: quiet });
    await retainAll(target, notes('Old', 'old', OLD_MEMORIES));
    await target.close();
    const reopened = open(base);
    before = await signature(reopened);
    await reopened.close();

    const source = createMemory({ store: createInMemoryStore(), backupDirectory: dir, logger: quiet });
    await retainAll(source, notes('New', 'new', NEW_MEMORIES));
    archive.path = (await source.backup('new-data')).path;
    writeFileSync(exportFile, `${(await collect(source.export())).join('\n')}\n`);
    await source.close();
  }, 180_000);

  /** A fresh copy of the old store, to run one change on. */
  function copyOfBase(): string {
    const location = join(dir, `run-${++copies}${kind === 'sqlite' ? '.sqlite' : '.lance'}`);
    cpSync(base, location, { recursive: true });
    for (const suffix of ['-wal', '-shm']) if (existsSync(base + suffix)) cpSync(base + suffix, location + suffix);
    return location;
  }

  async function reopened(location: string): Promise<Signature> {
    const store = open(location);
    try {
      return await signature(store);
    } finally {
      await store.close();
    }
  }

  it.each(Object.keys(KILLS) as Operation[])(
    '%s leaves exactly the old data or exactly the new',
    async (operation) => {
      const file = operation === 'restore' ? archive.path : exportFile;
      const uncut = copyOfBase();
      const whole = await runWorker(kind, uncut, operation, file);
      expect(whole.done).toBe(true);
      const after = await reopened(uncut);
      expect(after).not.toEqual(before);
      expect(after.otherMemories).toBe(0);

      // The killed runs go in parallel, each on its own copy: a child process takes seconds to
      // start on a busy machine. Each is killed a given time after it starts the change.
      const runs = KILLS[operation];
      const outcomes = await Promise.all(
        Array.from({ length: runs }, async (_, run) => {
          const location = copyOfBase();
          // Spread over the whole change, one slice of it per run: the first run's kill lands in
          // the first slice, well before the end (a slice past the end, with two runs, once
          // left both kills after a fast clear had finished).
          const killAfter = Math.floor(((run + Math.random()) / runs) * whole.ms);
          const result = await runWorker(kind, location, operation, file, killAfter);
          const found = await reopened(location);
          const label = `run ${run + 1}, killed after ${killAfter} ms of ${whole.ms}: ${JSON.stringify(found)}`;
          expect([before, after], label).toContainEqual(found);
          return result.done ? 'finished' : JSON.stringify(found) === JSON.stringify(before) ? 'old' : 'new';
        }),
      );
      // The kills landed inside the change, not all before it started or after it ended.
      expect(outcomes.filter((outcome) => outcome !== 'finished').length).toBeGreaterThan(0);
    },
    240_000,
  );
});
