import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';
import { createLanceStore } from '../../src/adapters/lancedb/index.js';
import { quiet, tempDir } from '../helpers/stores.js';

// A process killed inside a transaction is rolled back not only by the next store to open the
// data but also by a store another process already has open: it looks for dead writers' intents
// at most every 2 s before a read. The worker (fixtures/transaction-worker.ts) writes a memory and
// an opinion in one transaction, says "inside" and waits; the reader sees both (crossProcess
// 'per-write'), the worker is SIGKILLed, and within a few seconds the same reader sees neither.

const worker = resolve(import.meta.dirname, 'fixtures/transaction-worker.ts');
const root = tempDir('memoir-lancedb-kill-reader-');

it('a store already open rolls back a killed writer’s transaction within seconds', async () => {
  const uri = join(root, 'store');
  const reader = createLanceStore({ uri, logger: quiet });
  await reader.open({ id: 'guarantee-embedder', dimensions: 8 });
  const seen = async () => ({
    memory: (await reader.get('memory', ['in-transaction'])).length,
    opinion: (await reader.get('opinion', ['in-transaction'])).length,
  });
  try {
    expect(await seen()).toEqual({ memory: 0, opinion: 0 });
    const child = spawn(process.execPath, ['--import', 'tsx', worker, 'lancedb', uri], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<NodeJS.Signals | null>((done) => child.on('exit', (_code, signal) => done(signal)));
    await new Promise<void>((done) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('inside\n')) done();
      });
    });
    expect(await seen()).toEqual({ memory: 1, opinion: 1 });
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    const killedAt = Date.now();
    let after = await seen();
    while ((after.memory > 0 || after.opinion > 0) && Date.now() - killedAt < 15_000) {
      await new Promise((done) => setTimeout(done, 250));
      after = await seen();
    }
    expect(after).toEqual({ memory: 0, opinion: 0 });
    // The check runs every 2 s; a loaded machine adds the undo's own commits.
    expect(Date.now() - killedAt).toBeLessThan(15_000);
  } finally {
    await reader.close();
  }
}, 90_000);
