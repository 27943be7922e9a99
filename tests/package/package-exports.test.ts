import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entries } from '../../tsup.config.js';

// Builds the package into a temporary directory and checks what a user of the
// published package gets: every export resolves in ESM and CJS, has types, and
// importing the root loads no native module.

const root = resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  exports: Record<
    string,
    string | { import: { types: string; default: string }; require: { types: string; default: string } }
  >;
};
let outDir: string;

// Node loads native addons through process.dlopen; recording its calls catches any,
// whichever package or path pulls it in.
const probe = (specifier: string, mode: 'import' | 'require', after = '') => `
const loaded = [];
const original = process.dlopen;
process.dlopen = function (module, filename, ...rest) { loaded.push(filename); return original.call(this, module, filename, ...rest); };
${mode === 'import' ? `const api = await import(${JSON.stringify(specifier)});` : `const api = require(${JSON.stringify(specifier)});`}
${after}
process.stdout.write(JSON.stringify({ loaded, exports: Object.keys(api) }));
`;

function run(code: string, extension: 'mjs' | 'cjs') {
  const file = join(outDir, `probe.${extension}`);
  writeFileSync(file, code);
  // The default store lives in MEMOIR_HOME: keep it inside the build directory.
  const env = { ...process.env, MEMOIR_HOME: join(outDir, 'home') };
  const output = execFileSync(process.execPath, [file], { cwd: root, encoding: 'utf8', env });
  return JSON.parse(output) as { loaded: string[]; exports: string[] };
}

beforeAll(() => {
  // Inside the project, so the build resolves the project's node_modules like an installed package.
  outDir = mkdtempSync(join(root, '.memoir-test-build-'));
  execFileSync(process.execPath, [join(root, 'node_modules/tsup/dist/cli-default.js'), '--out-dir', outDir], {
    cwd: root,
    stdio: 'pipe',
  });
}, 120_000);

afterAll(() => {
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

describe('package exports', () => {
  it('every tsup entry is exported and every export is built', () => {
    const subpaths = Object.keys(pkg.exports).filter((subpath) => subpath !== './package.json');
    const expected = Object.keys(entries).map((name) => (name === 'index' ? '.' : `./${name}`));
    expect(subpaths.sort()).toEqual(expected.sort());
    for (const subpath of subpaths) {
      const target = pkg.exports[subpath];
      if (typeof target === 'string') continue;
      for (const file of [
        target!.import.default,
        target!.import.types,
        target!.require.default,
        target!.require.types,
      ]) {
        const built = join(outDir, file.replace(/^\.\/dist\//, ''));
        expect(existsSync(built), `${subpath} → ${file}`).toBe(true);
      }
    }
  });

  it('importing the root loads no native module (ESM and CJS)', () => {
    const esm = run(probe(pathToFileURL(join(outDir, 'index.js')).href, 'import'), 'mjs');
    expect(esm.loaded).toEqual([]);
    expect(esm.exports).toContain('createMemory');
    const cjs = run(probe(join(outDir, 'index.cjs'), 'require'), 'cjs');
    expect(cjs.loaded).toEqual([]);
    expect(cjs.exports).toContain('createMemory');
    const sqlite = run(probe(pathToFileURL(join(outDir, 'sqlite.js')).href, 'import'), 'mjs');
    expect(sqlite.loaded).toEqual([]);
    expect(sqlite.exports).toContain('createSqliteStore');
  });

  it('the probe does see a native module when one loads', () => {
    const opensStore = `const store = api.createSqliteStore({ path: ':memory:' });
await store.open({ id: 'probe', dimensions: 4 });`;
    const loaded = run(probe(pathToFileURL(join(outDir, 'sqlite.js')).href, 'import', opensStore), 'mjs');
    expect(loaded.loaded.some((file) => file.endsWith('.node'))).toBe(true);
  });

  it('the testing subpath loads in ESM and CJS', () => {
    const esm = run(probe(pathToFileURL(join(outDir, 'testing.js')).href, 'import'), 'mjs');
    expect(esm.exports).toEqual(
      expect.arrayContaining(['createScriptedLanguageModel', 'createTestEmbedder', 'createTestStore']),
    );
    const cjs = run(probe(join(outDir, 'testing.cjs'), 'require'), 'cjs');
    expect(cjs.exports).toContain('createTestStore');
  });

  it('errors from a second copy of memoir are recognised by isInstance', () => {
    const code = `
const cjs = require(${JSON.stringify('__CJS__')});
(async () => {
  const esm = await import(${JSON.stringify('__ESM__')});
  const error = await cjs.createMemory().get('').catch((caught) => caught);
  process.stdout.write(JSON.stringify({ loaded: [], exports: [
    String(error instanceof esm.ValidationError),
    String(esm.ValidationError.isInstance(error)),
    String(esm.MemoirError.isInstance(error)),
    String(esm.NotFoundError.isInstance(error)),
  ] }));
})();`
      .replace('__CJS__', join(outDir, 'index.cjs'))
      .replace('__ESM__', pathToFileURL(join(outDir, 'index.js')).href);
    expect(run(code, 'cjs').exports).toEqual(['false', 'true', 'true', 'false']);
  });

  it('the built package retains and recalls in CJS', () => {
    const code = `
const { createMemory } = require(${JSON.stringify(join(outDir, 'index.cjs'))});
(async () => {
  const memory = createMemory();
  await memory.retain('The quick brown fox lives in the forest.');
  const { results } = await memory.recall('where does the fox live', { tokenBudget: 500 });
  await memory.close();
  process.stdout.write(JSON.stringify({ loaded: [], exports: results.map((r) => r.memory.content) }));
})();`;
    expect(run(code, 'cjs').exports).toEqual(['The quick brown fox lives in the forest.']);
  });
});
