import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLanceStore } from '../../src/adapters/lancedb/index.js';
import { createMemory, type Memory } from '../../src/index.js';
import { tempDir } from '../helpers/stores.js';

// Real processes against one real LanceDB directory: two writers at once, and a writer
// killed with SIGKILL mid-stream.

const worker = resolve(import.meta.dirname, 'fixtures/lancedb-retain-worker.ts');
const root = tempDir('memoir-lancedb-processes-');

function startWorker(uri: string, name: string, total: number, batch: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', worker, uri, name, String(total), String(batch)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const acks: number[] = [];
  let stderr = '';
  let pending = '';
  const listeners: Array<() => void> = [];
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) if (line.startsWith('ack ')) acks.push(Number(line.slice(4)));
    for (const listener of listeners) listener();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.on('exit', (code, signal) => done({ code, signal })),
  );
  const acked = (count: number) =>
    new Promise<void>((done) => {
      const check = () => acks.length >= count && done();
      listeners.push(check);
      check();
    });
  return { child, acks, acked, exited, stderr: () => stderr };
}

/** Every memory in the directory, read by a fresh store. */
async function everything(uri: string): Promise<{ memories: Memory[]; ok: boolean }> {
  const store = createLanceStore({ uri, logger: { log() {} } });
  const memory = createMemory({ store, logger: { log() {} } });
  try {
    const memories = await store.list('memory');
    const check = await store.check();
    expect(check.problems).toEqual([]);
    // The text index answers for rows of both writers.
    expect((await memory.recall('build host finished', { k: 5 })).results.length).toBe(5);
    return { memories, ok: check.ok };
  } finally {
    await memory.close();
  }
}

describe('lancedb store across processes', () => {
  it('two processes writing one directory (5,000 memories each) lose nothing', async () => {
    const uri = join(root, 'two-writers');
    const a = startWorker(uri, 'a', 5000, 250);
    const b = startWorker(uri, 'b', 5000, 250);
    const [exitA, exitB] = await Promise.all([a.exited, b.exited]);
    expect({ exitA, stderr: a.stderr() }).toMatchObject({ exitA: { code: 0 } });
    expect({ exitB, stderr: b.stderr() }).toMatchObject({ exitB: { code: 0 } });
    const { memories } = await everything(uri);
    expect(memories).toHaveLength(10_000);
    for (const name of ['a', 'b']) {
      const indexes = new Set(memories.filter((m) => m.metadata.worker === name).map((m) => m.metadata.index));
      expect(indexes.size, `worker ${name}`).toBe(5000);
    }
    expect(new Set(memories.map((m) => m.id)).size).toBe(10_000);
  }, 240_000);

  it('a writer killed with SIGKILL leaves a table that opens with every acknowledged batch', async () => {
    const uri = join(root, 'killed');
    const writer = startWorker(uri, 'k', 100_000, 100);
    await writer.acked(8);
    writer.child.kill('SIGKILL');
    const { signal } = await writer.exited;
    expect(signal).toBe('SIGKILL');
    const acknowledged = [...writer.acks];
    const { memories } = await everything(uri);
    const batches = new Map<number, number>();
    for (const memory of memories) {
      const batch = memory.metadata.batch as number;
      batches.set(batch, (batches.get(batch) ?? 0) + 1);
    }
    for (const batch of acknowledged) expect(batches.get(batch), `batch ${batch}`).toBe(100);
    // A batch is one commit: whatever the kill interrupted is absent or whole, never half.
    for (const [batch, count] of batches) expect(count, `batch ${batch}`).toBe(100);
  }, 240_000);
});
