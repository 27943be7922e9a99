// A store file written before schema 6 holds a sqlite-vec (vec0) virtual table and an FTS5
// index. memoir no longer depends on sqlite-vec, so such a file must open, migrate and lose
// both without the extension, and stay a sound SQLite file with every record intact.
//
// The fixture was made once, by the SQLite store of memoir at commit f5681ba^ (schema 5,
// sqlite-vec 0.1.9 loaded, page size 1024 to keep it small): four memories in three
// scopes (three with vectors, one without), one opinion, embedder `fixture:schema5` (4
// dimensions). It holds `memories_vec` and its shadow tables (`_info`, `_chunks`,
// `_rowids`, `_vector_chunks00`), `memories_fts` with its shadow tables and triggers.
import { spawnSync } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/adapters/sqlite/index.js';
import type { SqliteDatabaseConstructor } from '../../src/adapters/sqlite/sqlite-driver.js';
import { migrate, SCHEMA_VERSION } from '../../src/adapters/sqlite/sqlite-schema.js';
import { quiet, tempDir } from '../helpers/stores.js';

const Database = createRequire(import.meta.url)('better-sqlite3') as SqliteDatabaseConstructor;
const fixtures = resolve(import.meta.dirname, 'fixtures');
const fixture = join(fixtures, 'schema5-fts5-vec0.sqlite');
const withoutSqliteVec = join(fixtures, 'without-sqlite-vec.mjs');
const root = tempDir('memoir-sqlite-legacy-');
let counter = 0;

/** The fixture, copied so that each test migrates its own file. */
function legacyFile(): string {
  const path = join(root, `schema5-${++counter}.sqlite`);
  copyFileSync(fixture, path);
  return path;
}

function schemaNames(path: string): string[] {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare('SELECT name FROM sqlite_master ORDER BY name').pluck().all() as string[];
  } finally {
    db.close();
  }
}

/** Open (and so migrate) the store at `path` in a process where sqlite-vec is not installed. */
function openWithoutSqliteVec(path: string): { stdout: string; stderr: string } {
  const worker = join(fixtures, 'open-sqlite-store-worker.ts');
  const child = spawnSync(process.execPath, ['--import', withoutSqliteVec, '--import', 'tsx', worker, path], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { stdout: child.stdout, stderr: child.stderr };
}

const legacyName = (name: string) => name.startsWith('memories_vec') || name.startsWith('memories_fts');

function unit(...values: number[]): Float32Array {
  const length = Math.hypot(...values);
  return Float32Array.from(values, (value) => value / length);
}

describe('a schema 5 file with a sqlite-vec table', () => {
  it('opens and migrates where sqlite-vec is not installed, passes integrity_check and keeps every record', async () => {
    const path = legacyFile();
    expect(schemaNames(path)).toEqual(expect.arrayContaining(['memories_vec', 'memories_vec_chunks', 'memories_fts']));

    // The child really cannot load sqlite-vec, by import or by require.
    const probe = spawnSync(
      process.execPath,
      [
        '--import',
        withoutSqliteVec,
        '--input-type=module',
        '-e',
        `import { createRequire } from 'node:module';
         const failed = async (load) => { try { await load(); return false; } catch { return true; } };
         const require = createRequire(${JSON.stringify(join(fixtures, 'probe.cjs'))});
         process.stdout.write(String((await failed(() => import('sqlite-vec'))) && (await failed(() => require('sqlite-vec')))));`,
      ],
      { encoding: 'utf8' },
    );
    expect(probe.stdout).toBe('true');

    expect(openWithoutSqliteVec(path)).toEqual({ stdout: 'opened\n', stderr: '' });

    // The virtual table, its shadow tables, the FTS5 index and its triggers are gone.
    expect(schemaNames(path).filter(legacyName)).toEqual([]);
    const db = new Database(path, { readonly: true });
    expect(db.prepare('PRAGMA integrity_check').pluck().all()).toEqual(['ok']);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.prepare("SELECT count(*) FROM sqlite_sequence WHERE name LIKE 'memories%'").pluck().get()).toBe(0);
    db.close();

    const store = createSqliteStore({ path, logger: quiet });
    await store.open({ id: 'fixture:schema5', dimensions: 4 });
    const ids = ['tides', 'lighthouse', 'zoe', 'unembedded'];
    const memories = await store.get('memory', ids);
    expect(memories.map((memory) => [memory.id, memory.content, memory.scope])).toEqual([
      ['tides', 'Spring tides follow the full moon.', { userId: 'u1' }],
      ['lighthouse', 'The lighthouse keeper logs every passing ship.', { userId: 'u1', agentId: 'a1' }],
      ['zoe', 'Zoë had lunch at Café Ølby.', { userId: 'u2' }],
      ['unembedded', 'The harbour master retired in May.', {}],
    ]);
    expect([...(await store.getEmbeddings(ids)).keys()].sort()).toEqual(['lighthouse', 'tides', 'zoe']);
    expect((await store.searchLexical!({ text: 'full moon', limit: 5 })).map((hit) => hit.id)).toEqual(['tides']);
    expect((await store.searchVector!({ vector: unit(0, 1, 0, 0), limit: 1 })).map((hit) => hit.id)).toEqual([
      'lighthouse',
    ]);
    expect((await store.list('memory', { filter: { entities: ['zoe'] } })).map((memory) => memory.id)).toEqual(['zoe']);
    expect((await store.listUnembedded!({ limit: 10 })).map((memory) => memory.id)).toEqual(['unembedded']);
    expect((await store.get('opinion', ['op-tea'])).map((opinion) => opinion.id)).toEqual(['op-tea']);
    expect(await store.check()).toMatchObject({ ok: true, problems: [] });
    await store.close();
  });

  it('drops a sqlite-vec table left behind in a file already at the latest schema', async () => {
    // Earlier versions migrated to schema 6 and beyond but kept the vec0 table while sqlite-vec could not load.
    const path = legacyFile();
    const db = new Database(path);
    migrate(db);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    db.close();
    expect(schemaNames(path)).toContain('memories_vec');

    expect(openWithoutSqliteVec(path)).toEqual({ stdout: 'opened\n', stderr: '' });
    expect(schemaNames(path).filter(legacyName)).toEqual([]);
    const reopened = new Database(path, { readonly: true });
    expect(reopened.prepare('PRAGMA integrity_check').pluck().all()).toEqual(['ok']);
    expect(reopened.prepare('SELECT count(*) FROM memories').pluck().get()).toBe(4);
    reopened.close();
  });
});
