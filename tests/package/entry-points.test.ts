import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  contributingSection,
  contributingWithEntries,
  ENTRY_POINTS,
  type EntryPoint,
  packageExports,
  packageJsonWithEntries,
  readEntryPoints,
  tsupEntries,
  typesVersions,
  WRITTEN,
} from '../../scripts/entry-points.js';
import { entries } from '../../tsup.config.js';

// The public entry points are one table, entry-points.json: the build, the API reference and
// package.json's exports all come from it, and a new subpath is one new row.

const root = resolve(import.meta.dirname, '../..');
const read = (path: string) => readFileSync(path, 'utf8');

describe('the table of entry points', () => {
  it('names modules that exist, each once', () => {
    expect(ENTRY_POINTS.length).toBeGreaterThan(1);
    for (const entry of ENTRY_POINTS) expect(existsSync(join(root, entry.source)), entry.source).toBe(true);
    expect(new Set(ENTRY_POINTS.map((entry) => entry.name)).size).toBe(ENTRY_POINTS.length);
  });

  it('is what tsup builds (and the CLI beside it)', () => {
    expect(entries).toEqual(tsupEntries());
    expect(Object.keys(entries)).toEqual(ENTRY_POINTS.map((entry) => entry.name));
  });

  it('is what typedoc documents', async () => {
    const config = (await import(pathToFileURL(join(root, 'typedoc.config.mjs')).href)) as {
      default: { entryPoints: string[]; projectDocuments: string[] };
    };
    expect(config.default.entryPoints).toEqual(
      ENTRY_POINTS.filter((entry) => entry.documented).map((entry) => entry.source),
    );
    expect(config.default.projectDocuments.length).toBeGreaterThan(0);
  });

  it("is package.json's exports and typesVersions (else run `npm run entries`)", () => {
    const text = read(WRITTEN.packageJson);
    expect(packageJsonWithEntries(text), 'package.json is stale: run `npm run entries`').toBe(text);
    const manifest = JSON.parse(text) as { exports: unknown; typesVersions: unknown };
    expect(manifest.exports).toEqual(packageExports());
    expect(manifest.typesVersions).toEqual(typesVersions());
  });

  it('is the table in CONTRIBUTING.md (else run `npm run entries`)', () => {
    const text = read(WRITTEN.contributing);
    expect(text).toContain(contributingSection());
    expect(contributingWithEntries(text), 'CONTRIBUTING.md is stale: run `npm run entries`').toBe(text);
  });

  it('takes a new subpath as one row: exports, typesVersions, the build and the docs follow', () => {
    const row: EntryPoint = {
      name: 'store-kit',
      source: 'src/core/spec/store.ts',
      documented: true,
      what: 'the machinery a store author shares',
    };
    const grown = [...ENTRY_POINTS, row];
    expect(packageExports(grown)['./store-kit']).toEqual({
      import: { types: './dist/store-kit.d.ts', default: './dist/store-kit.js' },
      require: { types: './dist/store-kit.d.cts', default: './dist/store-kit.cjs' },
    });
    expect((typesVersions(grown) as { '*': Record<string, string[]> })['*']['store-kit']).toEqual([
      './dist/store-kit.d.cts',
    ]);
    expect(tsupEntries(grown)['store-kit']).toBe('src/core/spec/store.ts');
    const section = contributingSection(grown);
    expect(section).toContain(
      '| `memoir/store-kit` | `src/core/spec/store.ts` | the machinery a store author shares |',
    );
    expect(section.split('\n').filter((line) => line.startsWith('| `memoir'))).toHaveLength(grown.length);
    expect(section).not.toContain(contributingSection().split('\n')[0]);
  });

  it('refuses a row that is not a subpath or not a module under src/', () => {
    const dir = mkdtempSync(join(tmpdir(), 'memoir-entry-points-'));
    try {
      for (const row of [
        { name: 'Store Kit', source: 'src/store-kit.ts', documented: true, what: 'x' },
        { name: 'store-kit', source: 'lib/store-kit.js', documented: true, what: 'x' },
      ]) {
        const path = join(dir, 'entry-points.json');
        writeFileSync(path, JSON.stringify({ entries: [row] }));
        expect(() => readEntryPoints(path)).toThrow(/subpath|module under src/);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
