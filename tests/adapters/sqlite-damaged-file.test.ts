import { copyFileSync, existsSync, mkdtempSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  checkSqliteFile,
  createSqliteStore,
  type SqliteStore,
  salvageSqliteFile,
} from '../../src/adapters/sqlite/index.js';
import type { SqliteDatabaseConstructor } from '../../src/adapters/sqlite/sqlite-driver.js';
import { migrate } from '../../src/adapters/sqlite/sqlite-schema.js';
import { createInMemoryStore, createMemory, type LogLevel, StoreError, ValidationError } from '../../src/index.js';
import { makeMemory, unitVector } from '../contracts/memory-fixtures.js';
import { buildStore, copyHome, DAMAGES, FIXTURE, fingerprint, overwrite } from '../helpers/damage.js';
import { quiet, tempDir } from '../helpers/stores.js';

// A damaged memoir.sqlite — truncated, pages overwritten in the middle, the header
// overwritten, 0 bytes, a WAL without its file — is refused on open with an error that
// says "damaged" and points at `memoir doctor`, never written into, checked by
// checkSqliteFile, and salvaged row by row by salvageSqliteFile without being changed.

const Database = createRequire(import.meta.url)('better-sqlite3') as SqliteDatabaseConstructor;
const root = tempDir('memoir-broken-');
let pristine: string;

beforeAll(async () => {
  pristine = await buildStore(root, 'pristine');
}, 60_000);

function recorder() {
  const lines: Array<{ level: LogLevel; message: string }> = [];
  return { lines, logger: { log: (level: LogLevel, message: string) => lines.push({ level, message }) } };
}

async function rejection(promise: Promise<unknown>): Promise<StoreError> {
  const error = await promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (caught: unknown) => caught,
  );
  expect(StoreError.isInstance(error), String(error)).toBe(true);
  return error as StoreError;
}

function count(path: string, table: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
  } finally {
    db.close();
  }
}

describe('a damaged file is refused on open', () => {
  for (const [name, damage] of Object.entries(DAMAGES)) {
    it(`${name}: retain and recall reject with "damaged" and a doctor hint, and the file is not written`, async () => {
      const home = copyHome(pristine, root);
      const path = join(home, 'memoir.sqlite');
      damage(path);
      const before = fingerprint(path);
      const memory = createMemory({ home, logger: quiet });
      const retained = await rejection(memory.retain({ content: 'written into a broken file?' }));
      expect(retained.message).toMatch(/ is damaged: /);
      expect(retained.suggestion).toMatch(/memoir doctor --home/);
      expect(retained.suggestion).not.toMatch(/writable|permission/i);
      const recalled = await rejection(memory.recall('lighthouse'));
      expect(recalled.message).toMatch(/ is damaged: /);
      await memory.close();
      expect(fingerprint(path)).toBe(before);
    });
  }

  it('damage met after open (quick check off) maps SQLITE_CORRUPT to "damaged" and refuses every later write', async () => {
    const home = copyHome(pristine, root);
    const path = join(home, 'memoir.sqlite');
    DAMAGES['eight pages in the middle overwritten']!(path);
    const store = createSqliteStore({ path, checkOnOpen: 'off', logger: quiet });
    await store.open({ id: 'local-hash-v1', dimensions: 384 }).catch(() => undefined);
    const errors: StoreError[] = [];
    for (let round = 0; round < 3; round++) {
      const all = await store.list('memory').catch((error: StoreError) => error);
      if (StoreError.isInstance(all)) errors.push(all);
    }
    const scan = await store.count({ entities: ['keeper1'] }).catch((error: StoreError) => error);
    if (StoreError.isInstance(scan)) errors.push(scan);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors[0]!.message).toMatch(/ is damaged: /);
    expect(errors[0]!.suggestion).toMatch(/memoir doctor/);
    const write = await rejection(
      store.put('memory', [{ memory: makeMemory({ id: 'after-damage' }), embedding: null }]),
    );
    expect(write.message).toMatch(/ is damaged: /);
    await store.close();
  });

  it('a 0-byte file becomes a new store with a warning, not silently', async () => {
    const home = mkdtempSync(join(root, 'zero-'));
    writeFileSync(join(home, 'memoir.sqlite'), '');
    const { lines, logger } = recorder();
    const memory = createMemory({ home, logger });
    expect((await memory.stats()).memories).toBe(0);
    const warnings = lines.filter((line) => line.level === 'warn').map((line) => line.message);
    expect(warnings.join('\n')).toMatch(/empty \(0 bytes\).*memoir doctor/s);
    await memory.close();
    // Once it holds a store, opening it again is quiet.
    lines.length = 0;
    const again = createMemory({ home, logger });
    await again.stats();
    expect(lines.filter((line) => line.level === 'warn')).toEqual([]);
    await again.close();
  });

  it('a 0-byte or missing file beside a WAL is refused, and the WAL is kept', async () => {
    for (const zero of [true, false]) {
      const home = mkdtempSync(join(root, 'wal-only-'));
      const path = join(home, 'memoir.sqlite');
      writeFileSync(`${path}-wal`, readFileSync(join(pristine, 'memoir.sqlite')).subarray(0, 8192));
      if (zero) writeFileSync(path, '');
      const memory = createMemory({ home, logger: quiet });
      const error = await rejection(memory.stats());
      expect(error.message).toMatch(/ is damaged: .*write-ahead log/);
      expect(statSync(`${path}-wal`).size).toBe(8192);
      await memory.close();
    }
  });

  it('a file from a newer memoir is still refused with "upgrade", not as damage', async () => {
    const home = copyHome(pristine, root);
    const db = new Database(join(home, 'memoir.sqlite'));
    db.pragma('user_version = 99');
    db.close();
    const error = await rejection(createMemory({ home, logger: quiet }).stats());
    expect(error.suggestion).toMatch(/upgrade/i);
    expect(error.message).not.toMatch(/ is damaged: /);
  });
});

describe('checkSqliteFile', () => {
  it('reports a healthy store ok with its counts, and changes nothing', async () => {
    const path = join(copyHome(pristine, root), 'memoir.sqlite');
    const before = fingerprint(path);
    const check = await checkSqliteFile(path);
    // Schema 6 keeps no full-text index in the file: search is indexed in process.
    expect(check).toMatchObject({ status: 'ok', integrity: 'ok', fullText: 'skipped', problems: [], readOnly: false });
    expect(check.counts).toMatchObject({ memories: FIXTURE.memories, embeddings: FIXTURE.memories });
    expect(check.counts).toMatchObject({ sessions: FIXTURE.sessions, entities: FIXTURE.entities });
    expect(fingerprint(path)).toBe(before);
  });

  for (const [name, damage] of Object.entries(DAMAGES)) {
    it(`${name}: damaged, with problems in plain words, file unchanged`, async () => {
      const path = join(copyHome(pristine, root), 'memoir.sqlite');
      damage(path);
      const before = fingerprint(path);
      const check = await checkSqliteFile(path);
      expect(check.status).toBe('damaged');
      expect(check.problems.length).toBeGreaterThan(0);
      expect(fingerprint(path)).toBe(before);
    });
  }

  it('tells empty, missing and full-text damage apart', async () => {
    const dir = mkdtempSync(join(root, 'kinds-'));
    writeFileSync(join(dir, 'empty.sqlite'), '');
    expect((await checkSqliteFile(join(dir, 'empty.sqlite'))).status).toBe('empty');
    expect((await checkSqliteFile(join(dir, 'missing.sqlite'))).status).toBe('missing');

    // A schema 5 file, from before search moved into the process, still has an FTS5 index to check.
    const path = join(dir, 'fts.sqlite');
    const db = new Database(path);
    migrate(db, 5);
    const insert = db.prepare(
      `INSERT INTO memories (id, kind, category, abstract, content, entities, occurred_at, created_at, updated_at,
        valid_from, importance, bookmarked, access_count, fingerprint, metadata, lexical_terms)
       VALUES (?, 'world', 'note', 'a', 'b', '[]', '2024-01-01', '2024-01-01', '2024-01-01', '2024-01-01', 0.5, 0, 0, 'f', '{}', ?)`,
    );
    for (let i = 0; i < 5; i++) insert.run(`m${i}`, `term${i} shared`);
    db.exec('DROP TRIGGER memories_fts_update');
    db.exec("UPDATE memories SET lexical_terms = 'nothing like it' WHERE rowid <= 3");
    db.close();
    const check = await checkSqliteFile(path);
    expect(check).toMatchObject({ status: 'damaged', integrity: 'ok', fullText: 'failed' });
    expect(check.problems.join('\n')).toMatch(/full-text index does not match/);
  });

  it('refuses a bad path with a ValidationError naming the field', async () => {
    const error = await checkSqliteFile('').catch((caught: unknown) => caught);
    expect(ValidationError.isInstance(error)).toBe(true);
    expect((error as ValidationError).message).toMatch(/path/);
  });
});

describe('salvageSqliteFile', () => {
  const out = () => join(mkdtempSync(join(root, 'out-')), 'salvaged.sqlite');

  it('copies a healthy store row for row, and the copy opens and recalls', async () => {
    const source = join(pristine, 'memoir.sqlite');
    const before = fingerprint(source);
    const target = out();
    const report = await salvageSqliteFile(source, target);
    expect(report.recovered).toEqual({
      memories: FIXTURE.memories,
      embeddings: FIXTURE.memories,
      opinions: 0,
      procedures: 0,
      sessions: FIXTURE.sessions,
      entities: FIXTURE.entities,
    });
    expect(report).toMatchObject({ unreadableRows: 0, lostPages: 0, orphanPages: 0, schemaFound: true });
    expect(fingerprint(source)).toBe(before);
    const a = new Database(source, { readonly: true });
    const b = new Database(target, { readonly: true });
    for (const sql of [
      'SELECT rowid, * FROM memories ORDER BY rowid',
      'SELECT memory_rowid, hex(embedding) FROM memory_embeddings ORDER BY 1',
      'SELECT * FROM memory_entities ORDER BY 1, 2',
      'SELECT * FROM sessions ORDER BY id',
      'SELECT * FROM entities ORDER BY id',
      'SELECT * FROM memoir_meta ORDER BY key',
    ]) {
      expect(b.prepare(sql).all(), sql).toEqual(a.prepare(sql).all());
    }
    a.close();
    b.close();
    expect((await checkSqliteFile(target)).status).toBe('ok');
    const store = createSqliteStore({ path: target, logger: quiet });
    const memory = createMemory({ store, logger: quiet });
    const { results } = await memory.recall('lighthouse keeper ship 7');
    expect(results.length).toBeGreaterThan(0);
    await memory.close();
  });

  for (const [name, damage] of Object.entries(DAMAGES)) {
    it(`${name}: recovers the rows that still read into a file that checks ok, leaving the source as it was`, async () => {
      const source = join(copyHome(pristine, root), 'memoir.sqlite');
      damage(source);
      const before = fingerprint(source);
      const target = out();
      const report = await salvageSqliteFile(source, target);
      expect(fingerprint(source)).toBe(before);
      expect(report.recovered.memories).toBeGreaterThan(0);
      expect(report.recovered.memories).toBeLessThanOrEqual(FIXTURE.memories);
      expect((await checkSqliteFile(target)).status).toBe('ok');
      expect(count(target, 'memories')).toBe(report.recovered.memories);
      if (name === 'the header overwritten') {
        // Page 1 (the schema) is gone: every row is recognised by its shape instead.
        expect(report.schemaFound).toBe(false);
        expect(report.recovered.memories).toBe(FIXTURE.memories);
        expect(report.recovered.embeddings).toBe(FIXTURE.memories);
        expect(report.recovered.sessions).toBe(FIXTURE.sessions);
      }
      if (name === 'eight pages in the middle overwritten') {
        expect(report.recovered.memories).toBeGreaterThan(FIXTURE.memories * 0.9);
      }
    });
  }

  it('reads commits still in the WAL, even when the file itself is 0 bytes', async () => {
    const dir = mkdtempSync(join(root, 'wal-'));
    const live = join(dir, 'live.sqlite');
    const store = createSqliteStore({ path: live, logger: quiet }) as SqliteStore;
    await store.open({ id: 'e', dimensions: 4 });
    await store.put(
      'memory',
      Array.from({ length: 50 }, (_, index) => ({
        memory: makeMemory({ id: `wal-${index}`, content: `kept only in the log ${index}` }),
        embedding: unitVector(4, index + 1),
      })),
    );
    // Copied while the store is open: the commits have not been folded into the file yet.
    const copy = join(dir, 'copy.sqlite');
    copyFileSync(live, copy);
    copyFileSync(`${live}-wal`, `${copy}-wal`);
    await store.close();
    const withWal = await salvageSqliteFile(copy, join(dir, 'a.sqlite'));
    expect(withWal.walPages).toBeGreaterThan(0);
    expect(withWal.recovered).toMatchObject({ memories: 50, embeddings: 50 });

    truncateSync(copy, 0);
    const fromWalAlone = await salvageSqliteFile(copy, join(dir, 'b.sqlite'));
    expect(fromWalAlone.recovered).toMatchObject({ memories: 50, embeddings: 50 });
  });

  it('keeps deleted rows deleted', async () => {
    const dir = mkdtempSync(join(root, 'deleted-'));
    const path = join(dir, 'store.sqlite');
    const store = createSqliteStore({ path, logger: quiet });
    await store.open({ id: 'e', dimensions: 4 });
    await store.put(
      'memory',
      Array.from({ length: 300 }, (_, index) => ({
        memory: makeMemory({ id: `m-${index}`, content: `${'x'.repeat(2000)} ${index}` }),
        embedding: unitVector(4, index + 1),
      })),
    );
    await store.delete(
      'memory',
      Array.from({ length: 250 }, (_, index) => `m-${index}`),
    );
    await store.close();
    const report = await salvageSqliteFile(path, join(dir, 'salvaged.sqlite'));
    expect(report.recovered.memories).toBe(50);
  });

  it('never overwrites: an existing target is refused, and a bad path is a ValidationError', async () => {
    const target = out();
    writeFileSync(target, 'precious');
    const error = await salvageSqliteFile(join(pristine, 'memoir.sqlite'), target).catch((caught: unknown) => caught);
    expect(StoreError.isInstance(error)).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('precious');
    const bad = await salvageSqliteFile('', out()).catch((caught: unknown) => caught);
    expect(ValidationError.isInstance(bad)).toBe(true);
    expect((bad as ValidationError).message).toMatch(/source/);
  });
});

describe('client.doctor()', () => {
  it('on a damaged SQLite store: not ok, the problems, a repair suggestion and the newest backup', async () => {
    const home = copyHome(pristine, root);
    const healthy = createMemory({ home, logger: quiet });
    await healthy.backup('before-damage');
    const fine = await healthy.doctor();
    expect(fine).toMatchObject({ store: 'sqlite', ok: true, method: 'check', problems: [] });
    expect(fine.details).toMatchObject({ status: 'ok', memories: FIXTURE.memories });
    await healthy.close();

    overwrite(join(home, 'memoir.sqlite'), 0, 100);
    const memory = createMemory({ home, logger: quiet });
    const report = await memory.doctor();
    expect(report.ok).toBe(false);
    expect(report.problems.join('\n')).toMatch(/SQLite header/);
    expect(report.suggestion).toMatch(/--repair/);
    expect(report.backups.count).toBe(1);
    expect(report.backups.newest?.name).toBe('before-damage');
    await memory.close();
    expect(existsSync(join(home, 'memoir.sqlite'))).toBe(true);
  });

  it('on the in-memory store: ok through its own check', async () => {
    const memory = createMemory({ store: createInMemoryStore(), logger: quiet });
    await memory.retain({ content: 'fine' });
    expect(await memory.doctor()).toMatchObject({ store: 'in-memory', ok: true, method: 'check', problems: [] });
    await memory.close();
  });
});
