import { resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { entries } from '../../tsup.config.js';

// The public surface of every subpath, values and types alike, read by the compiler from
// the entry files. A change to it fails here until the snapshot is updated on purpose
// (`npx vitest run -u`), so adding or removing an export is always a visible decision.

const root = resolve(import.meta.dirname, '../..');

function exportedNames(): Record<string, string[]> {
  const files = Object.values(entries).map((file) => resolve(root, file));
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
  });
  const checker = program.getTypeChecker();
  const surface: Record<string, string[]> = {};
  for (const [name, file] of Object.entries(entries)) {
    const source = program.getSourceFile(resolve(root, file));
    const symbol = source && checker.getSymbolAtLocation(source);
    if (!symbol) throw new Error(`no module symbol for ${file}`);
    const subpath = name === 'index' ? 'memoir' : `memoir/${name}`;
    surface[subpath] = checker
      .getExportsOfModule(symbol)
      .map((each) => each.getName())
      .sort();
  }
  return surface;
}

describe('export surface', () => {
  it('every subpath exports exactly the snapshotted names', () => {
    expect(exportedNames()).toMatchSnapshot();
  }, 60_000);

  it('the root keeps internals out', () => {
    const root = exportedNames().memoir ?? [];
    for (const internal of [
      'importanceScore',
      'isProtected',
      'explainScore',
      'PIPELINE_STAGES',
      'ClientDefaults',
      'EngineDefaults',
      'MemoryEngine',
      'createMemoryClient',
      'parseInput',
    ]) {
      expect(root).not.toContain(internal);
    }
  }, 60_000);

  it('memoir/sqlite keeps the schema internals out: the store migrates its own file', () => {
    const sqlite = exportedNames()['memoir/sqlite'] ?? [];
    expect(sqlite).toContain('createSqliteStore');
    for (const internal of ['migrate', 'MIGRATIONS', 'SCHEMA_VERSION', 'Migration']) {
      expect(sqlite).not.toContain(internal);
    }
  }, 60_000);
});
