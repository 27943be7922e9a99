import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { listBackups } from '../../src/core/backup/index.js';
import { type MemoirError, type MemoryClient, StoreError, ValidationError } from '../../src/index.js';
import { makeMemory } from '../contracts/memory-fixtures.js';
import { collect, STORES, storeAndClient, tempDir } from '../helpers/stores.js';

// Whatever retain accepts, export, backup, import and restore carry back unchanged; what
// they could not carry back is refused at the door with a ValidationError naming the field;
// and no destructive operation runs on a backup that does not verify.

const FIRST = '0000-01-01T00:00:00.000Z';
const LAST = '9999-12-31T23:59:59.999Z';
const OUT_OF_RANGE: Array<[string, unknown]> = [
  ['year 10000', Date.UTC(10000, 0, 1)],
  ['year -1', Date.UTC(-1, 0, 1)],
  ['the last Date', 8.64e15],
  ['the first Date', -8.64e15],
  ['a Date in year 10000', new Date(Date.UTC(10000, 0, 1))],
  ['one ms after 9999', Date.parse(LAST) + 1],
  ['one ms before 0000', Date.parse(FIRST) - 1],
];

function circular(): Record<string, unknown> {
  const value: Record<string, unknown> = { a: 1, nested: { list: [] as unknown[] } };
  ((value.nested as Record<string, unknown>).list as unknown[]).push(value);
  return value;
}

function nested(levels: number): Record<string, unknown> {
  let value: unknown = 'bottom';
  for (let i = 0; i < levels; i++) value = { d: value };
  return value as Record<string, unknown>;
}

const BAD_METADATA: Array<[string, () => unknown, RegExp]> = [
  ['circular', circular, /metadata\.nested\.list\[0\].*circular/],
  ['1,250 levels deep', () => nested(1250), /metadata(\.d)+.*at most 64 levels/],
  ['a __proto__ key', () => JSON.parse('{"ok":1,"__proto__":{"polluted":true}}'), /metadata\.__proto__/],
  ['a Date', () => ({ when: new Date() }), /metadata\.when/],
  ['a Map', () => ({ map: new Map() }), /metadata\.map/],
  ['a bigint', () => ({ big: 1n }), /metadata\.big/],
  ['NaN', () => ({ n: Number.NaN }), /metadata\.n/],
  ['undefined', () => ({ u: undefined }), /metadata\.u/],
];

async function expectValidation(promise: Promise<unknown>, field: RegExp): Promise<ValidationError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(ValidationError.isInstance(error), `expected a ValidationError, got ${String(error)}`).toBe(true);
  expect((error as Error).message).toMatch(field);
  return error as ValidationError;
}

async function everything(memory: MemoryClient): Promise<string[]> {
  return collect(memory.export());
}

describe.each(STORES)('Whatever retain accepts round-trips (%s store)', (_name, makeStore) => {
  const home = tempDir('memoir-round-trip-');
  const client = () => storeAndClient(makeStore, { backupDirectory: `${home}/${Math.random()}` });

  it.each(OUT_OF_RANGE)('refuses %s at retain, update and invalidate, naming the field', async (_label, time) => {
    const { memory } = client();
    const { ids } = await memory.retain({ content: 'A fact with a date.' });
    const before = await everything(memory);
    await expectValidation(memory.retain({ content: 'x', occurredAt: time as number }), /occurredAt.*0000 to 9999/);
    await expectValidation(memory.retain({ content: 'x', validFrom: time as number }), /validFrom.*0000 to 9999/);
    await expectValidation(memory.update(ids[0]!, { occurredAt: time as number }), /occurredAt/);
    await expectValidation(
      memory.invalidate(ids[0]!, { reason: 'wrong', at: time as number }),
      /reason\.at.*0000 to 9999/,
    );
    expect(await everything(memory)).toEqual(before);
    await memory.close();
  });

  it('keeps the first and last storable instants through export, import, backup, clearAll and restore', async () => {
    const { memory } = client();
    await memory.retain([
      { content: 'The oldest thing.', occurredAt: FIRST, metadata: { depth: nested(64) } as never },
      { content: 'The newest thing.', occurredAt: LAST, metadata: { text: 'ü\u2028\u0000"', n: -0.5 } },
    ]);
    const { ids } = await memory.retain({ content: 'Invalidated at the end of time.' });
    await memory.invalidate(ids[0]!, { reason: 'superseded', at: LAST });
    const before = await everything(memory);
    expect(before.join('\n')).toContain(FIRST);
    expect(before.join('\n')).toContain(LAST);

    const backup = await memory.backup('edges');
    await memory.clearAll({ confirm: true });
    expect(await everything(memory)).toHaveLength(1);
    const report = await memory.restore(backup.path, { confirm: true });
    expect(report.restored.memories).toBe(3);
    expect(await everything(memory)).toEqual(before);

    const fresh = client().memory;
    await fresh.import(before);
    expect(await everything(fresh)).toEqual(before);
    await fresh.close();
    await memory.close();
  });

  it.each(BAD_METADATA)(
    'refuses %s metadata at retain and update with a ValidationError',
    async (_label, make, field) => {
      const { memory } = client();
      const { ids } = await memory.retain({ content: 'Plain.' });
      const before = await everything(memory);
      await expectValidation(memory.retain({ content: 'x', metadata: make() as never }), field);
      await expectValidation(memory.update(ids[0]!, { metadata: make() as never }), field);
      expect(await everything(memory)).toEqual(before);
      // Nothing half-written: export, backup and clearAll still work.
      await memory.backup();
      await memory.clearAll({ confirm: true });
      await memory.close();
    },
  );

  it('keeps metadata exactly, 64 levels deep, and as a copy of what was given', async () => {
    const { memory } = client();
    const metadata = { deep: nested(63), list: [1, 'two', null, { x: true }], empty: {} };
    const { ids } = await memory.retain({ content: 'Deep.', metadata: metadata as never });
    metadata.list.push('added later');
    expect((await memory.get(ids[0]!))?.metadata).toEqual({ ...metadata, list: [1, 'two', null, { x: true }] });
    await memory.close();
  });

  it('clearAll and restore refuse to run when the automatic backup does not verify', async () => {
    const { store, memory } = client();
    await memory.retain({ content: 'Kept.' });
    const good = await memory.backup('good');
    // Data written past the client's checks (an older version, another tool) that no backup could carry back.
    await store.put('memory', [
      { memory: { ...makeMemory({ id: 'legacy' }), occurredAt: '+010000-01-01T00:00:00.000Z' }, embedding: null },
    ]);
    const before = (await store.list('memory')).map((each) => each.id).sort();

    for (const attempt of [
      () => memory.clearAll({ confirm: true }),
      () => memory.restore(good.path, { confirm: true }),
    ]) {
      const error = await attempt().catch((caught: unknown) => caught);
      expect(StoreError.isInstance(error), String(error)).toBe(true);
      expect((error as Error).message).toMatch(/does not verify, so nothing was changed/);
      expect(ValidationError.isInstance((error as MemoirError).cause)).toBe(true);
      expect((await store.list('memory')).map((each) => each.id).sort()).toEqual(before);
    }
    await memory.close();
  });

  it('import refuses what is not lines of text with a ValidationError', async () => {
    const { memory } = client();
    for (const input of [null, 42, undefined, {}, true]) {
      await expectValidation(memory.import(input as never), /lines/);
    }
    await expectValidation(memory.import([42] as never), /lines/);
    await memory.close();
  });

  it('warn compares BigInt parameters instead of throwing', async () => {
    const { memory } = client();
    const warning = await memory.warn({ tool: 'resize', parameters: { width: 10n, nested: { n: 2n } } });
    expect(warning.attempts).toBe(0);
    await memory.close();
  });
});

describe('automatic backups are verified', () => {
  it.each(STORES)('leaves a verified auto-before backup behind clearAll (%s store)', async (_name, makeStore) => {
    const directory = tempDir('memoir-auto-');
    const { memory } = storeAndClient(makeStore, { backupDirectory: directory });
    await memory.retain({ content: 'Something to lose.' });
    await memory.clearAll({ confirm: true });
    const [auto] = await listBackups(directory);
    expect(auto?.name).toBe('auto-before-clear-all');
    expect(fs.readdirSync(directory).filter((file) => file.startsWith('.'))).toEqual([]);
    const report = await memory.restore(auto!.path, { confirm: true });
    expect(report.restored.memories).toBe(1);
    await memory.close();
  });
});
