import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createInMemoryStore } from '../../src/adapters/in-memory/index.js';
import {
  clearStore,
  createBackup,
  listBackups,
  readBackupArchive,
  readTarGz,
  restoreBackup,
  sanitizeBackupName,
  verifyBackup,
  writeTar,
  writeTarGz,
} from '../../src/core/backup/index.js';
import { exportRecords } from '../../src/core/backup/transfer.js';
import { ValidationError } from '../../src/core/spec/errors.js';
import { day, TRANSFER_EMBEDDER as EMBEDDER, makeMemory, seedEveryKind } from '../contracts/memory-fixtures.js';
import type { FullStore } from '../helpers/stores.js';
import { collect, STORES, type StoreFactory } from '../helpers/stores.js';

const BASE_TIME = Date.parse('2025-03-01T10:00:00.000Z');

let dir: string;
let backups: string;
const cleanups: Array<() => Promise<void>> = [];

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'memoir-backup-'));
  backups = path.join(dir, 'backups');
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function openStore(make: StoreFactory = () => createInMemoryStore()): Promise<FullStore> {
  const store = make();
  await store.open(EMBEDDER);
  cleanups.push(() => store.close());
  return store;
}

function seed(store: FullStore): Promise<void> {
  return seedEveryKind(store, {
    opinion: { metadata: { nested: { a: [1, 'two', null] } } },
    unembedded: { createdAt: day(3), content: 'Not embedded.' },
  });
}

function dump(store: FullStore): Promise<string[]> {
  return collect(exportRecords(store, { embedder: EMBEDDER }));
}

/** A ustar header built by hand, so tests can write what the real writer refuses to. */
function rawHeader(fields: { name: string; size: number; type?: string; linkname?: string; prefix?: string }): Buffer {
  const header = Buffer.alloc(512);
  header.write(fields.name, 0, 100, 'utf8');
  header.write('0000644\0', 100, 'latin1');
  header.write('0000000\0', 108, 'latin1');
  header.write('0000000\0', 116, 'latin1');
  header.write(`${fields.size.toString(8).padStart(11, '0')}\0`, 124, 'latin1');
  header.write('00000000000\0', 136, 'latin1');
  header.write(fields.type ?? '0', 156, 'latin1');
  if (fields.linkname) header.write(fields.linkname, 157, 100, 'utf8');
  header.write('ustar\0', 257, 'latin1');
  header.write('00', 263, 'latin1');
  if (fields.prefix) header.write(fields.prefix, 345, 155, 'utf8');
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : header[i]!;
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
  return header;
}

function rawEntry(fields: Parameters<typeof rawHeader>[0], data: Buffer): Buffer {
  const padding = Buffer.alloc((512 - (data.length % 512)) % 512);
  return Buffer.concat([rawHeader({ ...fields, size: data.length }), data, padding]);
}

/** The tar of a genuine archive without its end-of-archive blocks, plus hand-made entries. */
function withExtraEntries(genuine: Buffer, extra: Buffer[]): Buffer {
  const tar = gunzipSync(genuine);
  const entries = readTarGz(genuine);
  const body = writeTar(entries.map((entry) => ({ name: entry.name, data: entry.data })));
  expect(body.length).toBe(tar.length);
  return gzipSync(Buffer.concat([body.subarray(0, body.length - 1024), ...extra, Buffer.alloc(1024)]));
}

/** Rebuild a genuine archive after changing its files. */
function rewritten(genuine: Buffer, change: (files: Map<string, Buffer>) => void): Buffer {
  const files = new Map(readTarGz(genuine).map((entry) => [entry.name, entry.data]));
  change(files);
  return writeTarGz([...files].map(([name, data]) => ({ name, data })));
}

function listTree(root: string): string[] {
  return fs.readdirSync(root, { recursive: true }).map(String).sort();
}

describe.each(STORES)('Create backup / Restore from backup (%s store)', (_name, makeStore) => {
  it('round-trips: backup, empty the store, restore gives the same export', async () => {
    const store = await openStore(makeStore);
    await seed(store);
    const before = await dump(store);

    const info = await createBackup(store, {
      directory: backups,
      name: 'before experiment!',
      embedder: EMBEDDER,
      config: { retentionDays: 30 },
      now: () => BASE_TIME,
    });
    expect(info.name).toBe('before_experiment_');
    expect(path.basename(info.path)).toBe('20250301-100000-000_before_experiment_.tar.gz');
    expect(fs.existsSync(info.path)).toBe(true);
    expect(info.bytes).toBe(fs.statSync(info.path).size);
    expect(info.counts).toEqual({ memories: 3, opinions: 1, procedures: 1, sessions: 1, entities: 1 });

    await clearStore(store);
    expect((await store.stats()).memories).toBe(0);

    const report = await restoreBackup(store, info.path, { confirm: true, embedder: EMBEDDER });
    expect(report.restored).toEqual(info.counts);
    expect(report.skippedEmbeddings).toBe(0);
    expect(report.config).toEqual({ retentionDays: 30 });
    expect(await dump(store)).toEqual(before);
  });

  it('restore replaces newer data and calls backupFirst before touching the store', async () => {
    const store = await openStore(makeStore);
    await seed(store);
    const before = await dump(store);
    const info = await createBackup(store, { directory: backups, embedder: EMBEDDER, now: () => BASE_TIME });
    await store.put('memory', [{ memory: makeMemory({ content: 'added after the backup' }), embedding: null }]);

    const order: string[] = [];
    const report = await restoreBackup(store, info.path, {
      confirm: true,
      embedder: EMBEDDER,
      backupFirst: async () => {
        order.push(`backupFirst:${(await store.stats()).memories}`);
        await createBackup(store, {
          directory: backups,
          name: 'auto-restore',
          embedder: EMBEDDER,
          now: () => BASE_TIME + 1,
        });
      },
    });
    expect(order).toEqual(['backupFirst:4']);
    expect(report.restored.memories).toBe(3);
    expect(await dump(store)).toEqual(before);
    expect((await listBackups(backups)).map((b) => b.name)).toEqual(['auto-restore', 'backup']);
  });
});

describe('Create backup', () => {
  it('writes a manifest with checksums and counts, the dump and the config', async () => {
    const store = await openStore();
    await seed(store);
    const info = await createBackup(store, {
      directory: backups,
      embedder: EMBEDDER,
      config: { a: 1 },
      now: () => BASE_TIME,
    });
    const entries = readTarGz(fs.readFileSync(info.path));
    expect(entries.map((entry) => entry.name)).toEqual(['manifest.json', 'memories.jsonl', 'config.json']);
    const manifest = JSON.parse(entries[0]!.data.toString('utf8'));
    expect(manifest).toMatchObject({
      format: 'memoir-backup',
      version: 1,
      createdAt: '2025-03-01T10:00:00.000Z',
      name: 'backup',
      counts: { memories: 3, opinions: 1, procedures: 1, sessions: 1, entities: 1 },
    });
    for (const entry of entries.slice(1)) {
      const { createHash } = await import('node:crypto');
      expect(manifest.files[entry.name]).toEqual({
        sha256: createHash('sha256').update(entry.data).digest('hex'),
        bytes: entry.size,
      });
    }
    expect(entries[1]!.data.toString('utf8')).toBe(`${(await dump(store)).join('\n')}\n`);
    expect(readBackupArchive(fs.readFileSync(info.path)).counts.memories).toBe(3);
  });

  it('keeps the last 5 automatic backups and never prunes named ones', async () => {
    const store = await openStore();
    await seed(store);
    let clock = BASE_TIME;
    const manual = await createBackup(store, {
      directory: backups,
      name: 'before_experiment',
      embedder: EMBEDDER,
      now: () => clock,
    });
    const auto: string[] = [];
    for (let i = 0; i < 7; i++) {
      clock += 1000;
      auto.push(
        (await createBackup(store, { directory: backups, name: 'auto-clear', embedder: EMBEDDER, now: () => clock }))
          .path,
      );
    }
    const listed = await listBackups(backups);
    expect(listed.filter((b) => b.automatic).map((b) => b.path)).toEqual(auto.slice(2).reverse());
    expect(listed.some((b) => b.path === manual.path)).toBe(true);
    expect(fs.existsSync(auto[0]!)).toBe(false);
    expect(fs.existsSync(auto[1]!)).toBe(false);
    expect(fs.readdirSync(backups)).toHaveLength(6);
  });

  it('never overwrites a backup made in the same millisecond', async () => {
    const store = await openStore();
    const first = await createBackup(store, { directory: backups, embedder: EMBEDDER, now: () => BASE_TIME });
    const second = await createBackup(store, { directory: backups, embedder: EMBEDDER, now: () => BASE_TIME });
    expect(first.path).not.toBe(second.path);
    expect(await listBackups(backups)).toHaveLength(2);
  });

  it('sanitises names', () => {
    expect(sanitizeBackupName('../../etc/passwd')).toBe('.._.._etc_passwd');
    expect(sanitizeBackupName('')).toBe('backup');
    expect(sanitizeBackupName('..')).toBe('backup');
    expect(sanitizeBackupName(undefined)).toBe('backup');
  });
});

describe('Clear all memories', () => {
  it('clearStore deletes every memory and record', async () => {
    const store = await openStore();
    await seed(store);
    const deleted = await clearStore(store);
    expect(deleted).toEqual({ memories: 3, opinions: 1, procedures: 1, sessions: 1, entities: 1 });
    const stats = await store.stats();
    expect([stats.memories, stats.opinions, stats.procedures, stats.sessions, stats.entities]).toEqual([0, 0, 0, 0, 0]);
  });
});

describe('Restore from backup: refusals', () => {
  let store: FullStore;
  let genuine: Buffer;
  let before: string[];
  let treeBefore: string[];

  beforeEach(async () => {
    store = await openStore();
    await seed(store);
    const info = await createBackup(store, { directory: backups, embedder: EMBEDDER, now: () => BASE_TIME });
    genuine = fs.readFileSync(info.path);
    await store.put('memory', [{ memory: makeMemory({ content: 'current data' }), embedding: null }]);
    before = await dump(store);
  });

  async function expectRejected(archive: Buffer, message: RegExp): Promise<void> {
    const file = path.join(dir, 'work', 'hostile.tar.gz');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, archive);
    treeBefore = listTree(dir);
    let called = false;
    const error = await restoreBackup(store, file, {
      confirm: true,
      embedder: EMBEDDER,
      backupFirst: async () => {
        called = true;
      },
    }).catch((caught: unknown) => caught);
    expect(ValidationError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(message);
    expect(called).toBe(false);
    expect(await dump(store)).toEqual(before);
    expect(listTree(dir)).toEqual(treeBefore);
    expect(fs.existsSync(path.join(dir, '..', 'evil'))).toBe(false);
    expect(fs.existsSync(path.join(dir, 'work', '..', '..', 'evil'))).toBe(false);
    expect(fs.existsSync('/etc/evil')).toBe(false);
  }

  it('refuses without confirm, naming the flag', async () => {
    const file = (await listBackups(backups))[0]!.path;
    const error = await restoreBackup(store, file, { confirm: false, embedder: EMBEDDER }).catch((e: unknown) => e);
    expect(ValidationError.isInstance(error)).toBe(true);
    expect((error as ValidationError).field).toBe('confirm');
    expect((error as Error).message).toMatch(/confirm/);
    expect(await dump(store)).toEqual(before);
  });

  it('rejects a ../ path', async () => {
    await expectRejected(
      withExtraEntries(genuine, [rawEntry({ name: '../evil', size: 0 }, Buffer.from('pwned'))]),
      /\.\./,
    );
  });

  it('rejects a ../ path hidden in the ustar prefix', async () => {
    await expectRejected(
      withExtraEntries(genuine, [rawEntry({ name: 'evil', prefix: 'a/../..', size: 0 }, Buffer.from('pwned'))]),
      /\.\./,
    );
  });

  it('rejects an absolute path', async () => {
    await expectRejected(
      withExtraEntries(genuine, [rawEntry({ name: '/etc/evil', size: 0 }, Buffer.from('x'))]),
      /absolute/,
    );
  });

  it('rejects a backslash and a NUL in a name', async () => {
    await expectRejected(
      withExtraEntries(genuine, [rawEntry({ name: '..\\evil', size: 0 }, Buffer.from('x'))]),
      /backslash/,
    );
    const nul = rawHeader({ name: 'memories.jsonl', size: 0 });
    nul.write('\0x', 14, 'latin1');
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : nul[i]!;
    nul.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
    await expectRejected(withExtraEntries(genuine, [nul]), /NUL/);
  });

  it('rejects a symlink and a hard link', async () => {
    await expectRejected(
      withExtraEntries(genuine, [
        rawEntry({ name: 'link', type: '2', linkname: '/etc/passwd', size: 0 }, Buffer.alloc(0)),
      ]),
      /symbolic link/,
    );
    await expectRejected(
      withExtraEntries(genuine, [rawEntry({ name: 'hard', type: '1', linkname: '../evil', size: 0 }, Buffer.alloc(0))]),
      /hard link/,
    );
  });

  it('rejects a directory and a device', async () => {
    await expectRejected(
      withExtraEntries(genuine, [rawEntry({ name: 'sub', type: '5', size: 0 }, Buffer.alloc(0))]),
      /directory/,
    );
    await expectRejected(
      withExtraEntries(genuine, [rawEntry({ name: 'dev', type: '3', size: 0 }, Buffer.alloc(0))]),
      /device/,
    );
  });

  it('rejects a bad header checksum', async () => {
    const tar = gunzipSync(genuine);
    tar[0] = tar[0]! ^ 1; // first byte of the manifest's name
    await expectRejected(gzipSync(tar), /checksum/);
  });

  it('rejects a checksum mismatch in the manifest', async () => {
    const archive = rewritten(genuine, (files) => {
      const manifest = JSON.parse(files.get('manifest.json')!.toString('utf8'));
      manifest.files['memories.jsonl'].sha256 = '0'.repeat(64);
      files.set('manifest.json', Buffer.from(JSON.stringify(manifest)));
    });
    await expectRejected(archive, /sha256 mismatch/);
  });

  it('rejects a tampered memories.jsonl', async () => {
    const archive = rewritten(genuine, (files) => {
      files.set(
        'memories.jsonl',
        Buffer.from(files.get('memories.jsonl')!.toString('utf8').replace('Peter prefers tea', 'Peter prefers rum')),
      );
    });
    await expectRejected(archive, /sha256 mismatch/);
  });

  it('rejects a count mismatch', async () => {
    const archive = rewritten(genuine, (files) => {
      const manifest = JSON.parse(files.get('manifest.json')!.toString('utf8'));
      manifest.counts.memories = 2;
      files.set('manifest.json', Buffer.from(JSON.stringify(manifest)));
    });
    await expectRejected(archive, /count mismatch/);
  });

  it('rejects a dump line that fails the schema even with matching checksums', async () => {
    const { createHash } = await import('node:crypto');
    const archive = rewritten(genuine, (files) => {
      const lines = files.get('memories.jsonl')!.toString('utf8').split('\n');
      const memory = JSON.parse(lines[1]!);
      memory.memory.importance = 7;
      lines[1] = JSON.stringify(memory);
      const data = Buffer.from(lines.join('\n'));
      files.set('memories.jsonl', data);
      const manifest = JSON.parse(files.get('manifest.json')!.toString('utf8'));
      manifest.files['memories.jsonl'] = {
        sha256: createHash('sha256').update(data).digest('hex'),
        bytes: data.length,
      };
      files.set('manifest.json', Buffer.from(JSON.stringify(manifest)));
    });
    await expectRejected(archive, /importance/);
  });

  it('rejects a wrong manifest format or version and unexpected files', async () => {
    await expectRejected(
      rewritten(genuine, (files) => {
        const manifest = JSON.parse(files.get('manifest.json')!.toString('utf8'));
        manifest.version = 2;
        files.set('manifest.json', Buffer.from(JSON.stringify(manifest)));
      }),
      /version/,
    );
    await expectRejected(
      rewritten(genuine, (files) => files.set('extra.txt', Buffer.from('x'))),
      /unexpected file/,
    );
    await expectRejected(
      rewritten(genuine, (files) => files.delete('manifest.json')),
      /manifest\.json/,
    );
  });

  it('rejects a truncated gzip', async () => {
    await expectRejected(genuine.subarray(0, Math.floor(genuine.length / 2)), /gzip/);
  });

  it('rejects truncated tar data and a missing end marker', async () => {
    const tar = gunzipSync(genuine);
    await expectRejected(gzipSync(tar.subarray(0, 512 + 10)), /truncated/);
    await expectRejected(gzipSync(tar.subarray(0, tar.length - 1024)), /truncated/);
  });

  it('rejects entries beyond the size cap', () => {
    expect(() => readTarGz(genuine, { maxBytes: 100 })).toThrow(/more than 100 bytes/);
  });

  it('rejects a file that does not exist with NotFoundError', async () => {
    const error = await restoreBackup(store, path.join(dir, 'missing.tar.gz'), {
      confirm: true,
      embedder: EMBEDDER,
    }).catch((e: unknown) => e);
    expect((error as { code?: string }).code).toBe('NOT_FOUND');
  });
});

describe('tar format', () => {
  it('writes long names with the ustar prefix and reads them back', () => {
    const name = `${'d'.repeat(120)}/${'f'.repeat(90)}`;
    const entries = readTarGz(writeTarGz([{ name, data: 'hello' }]));
    expect(entries).toEqual([{ name, type: 'file', size: 5, data: Buffer.from('hello') }]);
  });

  it('refuses to write unsafe names', () => {
    expect(() => writeTar([{ name: '../evil', data: '' }])).toThrow(/\.\./);
    expect(() => writeTar([{ name: '/abs', data: '' }])).toThrow(/absolute/);
  });
});

describe('Restore from backup: streaming checks', () => {
  let store: FullStore;
  let genuine: Buffer;
  let before: string[];

  beforeEach(async () => {
    store = await openStore();
    await seed(store);
    const info = await createBackup(store, { directory: backups, embedder: EMBEDDER, now: () => BASE_TIME });
    genuine = fs.readFileSync(info.path);
    before = await dump(store);
  });

  async function restoreFrom(archive: Buffer, options: { maxBytes?: number } = {}): Promise<unknown> {
    const file = path.join(dir, 'stream.tar.gz');
    fs.writeFileSync(file, archive);
    return restoreBackup(store, file, { confirm: true, embedder: EMBEDDER, ...options }).catch((e: unknown) => e);
  }

  it('refuses data over the size cap from the tar header, before inflating it', async () => {
    const big = rewritten(genuine, (files) => files.set('memories.jsonl', Buffer.alloc(2 * 1024 * 1024, 0x20)));
    const error = await restoreFrom(big, { maxBytes: 1024 * 1024 });
    expect((error as Error).message).toMatch(/more than 1048576 bytes/);
    expect(await dump(store)).toEqual(before);
  });

  it('refuses an entry whose size differs from the manifest as soon as its header is read', async () => {
    const archive = rewritten(genuine, (files) => {
      const manifest = JSON.parse(files.get('manifest.json')!.toString('utf8'));
      manifest.files['memories.jsonl'].bytes = 10;
      files.set('manifest.json', Buffer.from(JSON.stringify(manifest)));
    });
    expect(((await restoreFrom(archive)) as Error).message).toMatch(
      /memories\.jsonl: size mismatch \(manifest 10 bytes/,
    );
    expect(await dump(store)).toEqual(before);
  });

  it('refuses more than 1 MiB after the end-of-archive marker', async () => {
    const tar = gunzipSync(genuine);
    const error = await restoreFrom(gzipSync(Buffer.concat([tar, Buffer.alloc(2 * 1024 * 1024)])));
    expect((error as Error).message).toMatch(/follow the end-of-archive marker/);
    const padded = await restoreFrom(gzipSync(Buffer.concat([tar, Buffer.alloc(10 * 1024)])));
    expect((padded as { restored?: unknown }).restored).toBeDefined();
  });

  it('reports a damaged dump as a checksum mismatch rather than as a bad line', async () => {
    const archive = rewritten(genuine, (files) => {
      files.set(
        'memories.jsonl',
        Buffer.from(files.get('memories.jsonl')!.toString('utf8').replace('"memory":{', '"memory":[')),
      );
    });
    expect(((await restoreFrom(archive)) as Error).message).toMatch(/sha256 mismatch/);
  });

  it('verifyBackup reads an archive back and checks everything', async () => {
    const file = (await listBackups(backups))[0]!.path;
    const checked = await verifyBackup(file);
    expect(checked.counts).toEqual({ memories: 3, opinions: 1, procedures: 1, sessions: 1, entities: 1 });
    expect(checked.embedder).toEqual(EMBEDDER);
    fs.writeFileSync(file, genuine.subarray(0, genuine.length - 20));
    await expect(verifyBackup(file)).rejects.toThrow(/gzip|truncated/);
  });
});

describe.each(STORES)('Backups of one scope (%s store)', (_name, makeStore) => {
  it('createBackup, clearStore and restoreBackup with a scope touch that scope only', async () => {
    const store = await openStore(makeStore);
    await seed(store);
    const alice = { userId: 'alice' };
    await store.put('memory', [
      { memory: makeMemory({ content: 'Alice one.', scope: alice }), embedding: null },
      { memory: makeMemory({ content: 'Alice two.', scope: { ...alice, agentId: 'a' } }), embedding: null },
    ]);
    const everyone = await dump(store);
    const info = await createBackup(store, { directory: backups, embedder: EMBEDDER, scope: alice });
    expect(info.counts).toEqual({ memories: 2, opinions: 0, procedures: 0, sessions: 0, entities: 0 });
    expect(await clearStore(store, { scope: alice })).toEqual(info.counts);
    expect((await dump(store)).length).toBe(everyone.length - 2);
    await restoreBackup(store, info.path, { confirm: true, embedder: EMBEDDER, scope: alice });
    expect((await dump(store)).sort()).toEqual([...everyone].sort());
    const whole = await createBackup(store, { directory: backups, embedder: EMBEDDER });
    const refused = await restoreBackup(store, whole.path, { confirm: true, embedder: EMBEDDER, scope: alice }).catch(
      (e: unknown) => e,
    );
    expect(ValidationError.isInstance(refused)).toBe(true);
    expect((await dump(store)).sort()).toEqual([...everyone].sort());
  });
});
