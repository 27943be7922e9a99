import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLanceStore } from '../../src/adapters/lancedb/index.js';
import { createSqliteStore } from '../../src/adapters/sqlite/index.js';
import { createInMemoryStore } from '../../src/index.js';
import { makeMemory } from '../contracts/memory-fixtures.js';
import type { FullStore } from '../helpers/stores.js';
import { quiet, tempDir } from '../helpers/stores.js';

// What each store declares about transactions and other processes, and that a real process
// killed inside a transaction leaves what the declaration says it may: nothing on a store whose
// transactions are 'atomic', the first table's write on a 'per-table' one. A second process
// reading during that transaction sees it only where crossProcess is 'per-write'.

const worker = resolve(import.meta.dirname, 'fixtures/transaction-worker.ts');
const root = tempDir('memoir-guarantees-');

describe('declared store guarantees', () => {
  it.each([
    ['in-memory', () => createInMemoryStore(), { persistent: false, transactions: 'atomic', crossProcess: 'none' }],
    [
      'sqlite',
      () => createSqliteStore({ path: join(root, 'declared.sqlite') }),
      { persistent: true, transactions: 'atomic', crossProcess: 'serialised' },
    ],
    [
      'lancedb',
      () => createLanceStore({ uri: join(root, 'declared-lance'), logger: quiet }),
      { persistent: true, transactions: 'atomic', crossProcess: 'per-write' },
    ],
  ] as const)('%s declares its transaction and cross-process guarantees', async (_name, make, expected) => {
    const store: FullStore = make();
    // Only guarantees are declared; what a store can do is the presence of its members.
    expect(store.capabilities).toEqual(expected);
    expect(typeof store.transaction).toBe('function');
    await store.close();
  });
});

/** Start the worker, wait until it is inside its transaction, run `during`, then kill it. */
async function killedInsideTransaction(kind: string, location: string, during: () => Promise<void>): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', worker, kind, location], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<NodeJS.Signals | null>((done) => child.on('exit', (_code, signal) => done(signal)));
  await new Promise<void>((done, fail) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('inside\n')) done();
    });
    child.on('exit', (code) => fail(new Error(`worker exited with ${code} before its transaction: ${stderr}`)));
  });
  try {
    await during();
  } finally {
    child.kill('SIGKILL');
  }
  expect(await exited).toBe('SIGKILL');
}

async function written(store: FullStore): Promise<{ memory: boolean; opinion: boolean }> {
  return {
    memory: (await store.get('memory', ['in-transaction'])).length === 1,
    opinion: (await store.get('opinion', ['in-transaction'])).length === 1,
  };
}

const PERSISTENT = [
  ['sqlite', (location: string) => createSqliteStore({ path: location }), '.sqlite'],
  ['lancedb', (location: string) => createLanceStore({ uri: location, logger: quiet }), ''],
] as const;

describe.each(PERSISTENT)('%s: a process killed inside a transaction', (kind, open, extension) => {
  it('leaves what the declared transactions and crossProcess allow, and nothing more', async () => {
    const location = join(root, `killed-${kind}${extension}`);
    // The file or directory exists with the store's schema before the worker writes to it.
    const setup = open(location);
    await setup.open({ id: 'guarantee-embedder', dimensions: 8 });
    await setup.close();

    // A second process's reader, connected before the worker's transaction starts.
    const reader = open(location);
    let seenDuring: { memory: boolean; opinion: boolean } | undefined;
    try {
      expect(await written(reader)).toEqual({ memory: false, opinion: false });
      await killedInsideTransaction(kind, location, async () => {
        seenDuring = await written(reader);
      });
    } finally {
      await reader.close();
    }

    const after = open(location);
    try {
      await after.open({ id: 'guarantee-embedder', dimensions: 8 });
      const seenAfter = await written(after);
      const { transactions, crossProcess } = after.capabilities;
      // Isolated from other processes: nothing of an unfinished transaction shows.
      if (crossProcess === 'serialised') expect(seenDuring).toEqual({ memory: false, opinion: false });
      else expect(crossProcess).toBe('per-write');
      if (transactions === 'atomic') {
        expect(seenAfter).toEqual({ memory: false, opinion: false });
      } else {
        // 'per-table': each table's write committed on its own, and the kill left them.
        expect(transactions).toBe('per-table');
        expect(seenAfter).toEqual({ memory: true, opinion: true });
        expect(seenDuring).toEqual({ memory: true, opinion: true });
      }
      // Whatever was left, the store opens and is readable and writable.
      await after.put('memory', [{ memory: makeMemory({ id: 'later' }), embedding: null }]);
      expect(await after.count()).toBe(transactions === 'atomic' ? 1 : 2);
    } finally {
      await after.close();
    }
  }, 120_000);
});
