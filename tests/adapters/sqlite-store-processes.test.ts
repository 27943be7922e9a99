import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SqliteDatabaseConstructor } from '../../src/adapters/sqlite/sqlite-driver.js';
import { tempDir } from '../helpers/stores.js';

// Real processes against one real file: a writer killed with SIGKILL mid-stream, and two
// writers at once.

const Database = createRequire(import.meta.url)('better-sqlite3') as SqliteDatabaseConstructor;
const worker = resolve(import.meta.dirname, 'fixtures/retain-worker.ts');
const root = tempDir('memoir-processes-');

function startWorker(home: string, name: string, total: number, batch: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', worker, home, name, String(total), String(batch)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const acks: number[] = [];
  let stderr = '';
  child.stdout!.setEncoding('utf8');
  let pending = '';
  const listeners: Array<() => void> = [];
  child.stdout!.on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) if (line.startsWith('ack ')) acks.push(Number(line.slice(4)));
    for (const listener of listeners) listener();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
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
  return { child: child as ChildProcess, acks, acked, exited, stderr: () => stderr };
}

function batchCounts(path: string) {
  const db = new Database(path);
  try {
    expect(db.prepare('PRAGMA integrity_check').pluck().get()).toBe('ok');
    // Every memory kept its vector and the terms the search index is built from.
    const incomplete = db
      .prepare(
        "SELECT count(*) FROM memories m LEFT JOIN memory_embeddings e ON e.memory_rowid = m.rowid WHERE e.memory_rowid IS NULL OR m.lexical_terms = ''",
      )
      .pluck()
      .get();
    expect(incomplete).toBe(0);
    return db
      .prepare(
        "SELECT json_extract(metadata, '$.worker') AS worker, json_extract(metadata, '$.batch') AS batch, count(*) AS n FROM memories GROUP BY 1, 2",
      )
      .all() as Array<{ worker: string; batch: number; n: number }>;
  } finally {
    db.close();
  }
}

describe('durability', () => {
  it('a writer killed with SIGKILL leaves every acknowledged batch and no half-written one', async () => {
    const home = mkdtempSync(join(root, 'kill-'));
    const run = startWorker(home, 'k', 10_000, 100);
    await run.acked(15);
    run.child.kill('SIGKILL');
    const { signal } = await run.exited;
    expect(signal).toBe('SIGKILL');
    const acknowledged = [...run.acks];
    expect(acknowledged.length).toBeLessThan(100);

    const counts = batchCounts(join(home, 'memoir.sqlite'));
    const byBatch = new Map(counts.map((row) => [row.batch, row.n]));
    for (const batch of acknowledged) expect(byBatch.get(batch), `batch ${batch}`).toBe(100);
    for (const row of counts) expect(row.n, `batch ${row.batch} is whole`).toBe(100);
    // At most the batch in flight when the kill landed committed without its ack.
    expect(counts.length - acknowledged.length).toBeLessThanOrEqual(1);
  }, 120_000);
});

describe('concurrency', () => {
  it('two processes retaining 5,000 memories each into one file store all 10,000', async () => {
    const home = mkdtempSync(join(root, 'two-'));
    const first = startWorker(home, 'a', 5_000, 250);
    const second = startWorker(home, 'b', 5_000, 250);
    const [a, b] = await Promise.all([first.exited, second.exited]);
    expect(a.code, first.stderr()).toBe(0);
    expect(b.code, second.stderr()).toBe(0);
    const counts = batchCounts(join(home, 'memoir.sqlite'));
    const perWorker = new Map<string, number>();
    for (const row of counts) perWorker.set(row.worker, (perWorker.get(row.worker) ?? 0) + row.n);
    expect(Object.fromEntries(perWorker)).toEqual({ a: 5_000, b: 5_000 });
  }, 180_000);
});
