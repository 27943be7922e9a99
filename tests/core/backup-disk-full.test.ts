import { randomBytes } from 'node:crypto';
import type * as FsModule from 'node:fs';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createBackup } from '../../src/core/backup/index.js';
import { StoreError } from '../../src/core/spec/errors.js';
import { TRANSFER_EMBEDDER as EMBEDDER } from '../contracts/memory-fixtures.js';
import { collect, STORES, storeAndClient, tempDir } from '../helpers/stores.js';

// A backup that fails half-way (a full disk) leaves nothing behind: neither the spooled
// dump nor the partial archive, both hidden temporary files beside the backups. The disk
// fills up on demand: write streams to files whose name matches `full.pattern` fail with
// ENOSPC once `full.limit` bytes went through.

const full = vi.hoisted(() => ({ pattern: null as RegExp | null, limit: 0 }));

vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof FsModule>();
  const createWriteStream = ((file: FsModule.PathLike, options?: unknown) => {
    const stream = actual.createWriteStream(file, options as never);
    if (!full.pattern?.test(path.basename(String(file)))) return stream;
    let written = 0;
    const write = stream._write.bind(stream);
    stream._writev = undefined;
    stream._write = (chunk: Buffer, encoding: BufferEncoding, callback: (error?: Error | null) => void) => {
      written += chunk.length;
      if (written > full.limit) {
        callback(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }));
        return;
      }
      write(chunk, encoding, callback);
    };
    return stream;
  }) as typeof actual.createWriteStream;
  return { ...actual, default: { ...actual, createWriteStream }, createWriteStream };
});

const memories = Array.from({ length: 200 }, (_, i) => ({
  content: `Memory ${i}.`,
  metadata: { noise: randomBytes(3000).toString('base64') },
}));

describe.each(STORES)('A backup on a full disk leaves no partial file (%s store)', (_name, makeStore) => {
  const root = tempDir('memoir-disk-full-');

  it.each([
    ['while spooling the dump', /\.jsonl\.tmp$/],
    ['while writing the archive', /[0-9a-f-]{36}\.tmp$/],
  ])('cleans up when the disk fills %s', async (_when, pattern) => {
    const directory = path.join(root, `${_name}-${pattern.source.length}`);
    const { store, memory } = storeAndClient(makeStore, { backupDirectory: directory });
    await memory.retain(memories);
    const before = await collect(memory.export());
    full.pattern = pattern;
    full.limit = 64 * 1024;
    try {
      const direct = await createBackup(store, { directory, embedder: EMBEDDER }).catch((error: unknown) => error);
      expect(StoreError.isInstance(direct), String(direct)).toBe(true);
      expect((direct as Error).message).toMatch(/ENOSPC/);
      expect(fs.readdirSync(directory)).toEqual([]);

      const viaClient = await memory.backup('full').catch((error: unknown) => error);
      expect(StoreError.isInstance(viaClient)).toBe(true);
      const cleared = await memory.clearAll({ confirm: true }).catch((error: unknown) => error);
      expect(StoreError.isInstance(cleared)).toBe(true);
      expect(fs.readdirSync(directory)).toEqual([]);
      expect(await collect(memory.export())).toEqual(before);
    } finally {
      full.pattern = null;
    }
    // With space again, the same directory takes a backup.
    const info = await memory.backup('after');
    expect(fs.readdirSync(directory)).toEqual([path.basename(info.path)]);
    await memory.close();
  });
});
