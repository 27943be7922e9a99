import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entries } from '../../tsup.config.js';
import { type AttwReport, checkTarballTypes } from './attw.js';
import { createPeerlessConsumer } from './consumer-without-peers.js';
import { copyExampleStore, EXAMPLE_DIR, packagesLoadedBy, runExampleContract } from './outside-store.js';
import { childEnvironment, type PackedPackage, packAndInstall, root } from './packed-package.js';

// What a user of the published package gets. The real tarball (`npm pack`, whose prepack
// builds dist/) is installed into a new consumer project; from there an ESM script, a
// CommonJS script, a strict TypeScript check and the `memoir` command all use it the way
// a user's project would, by the name `memoir`.

const exec = promisify(execFile);

interface Manifest {
  version: string;
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  bin: Record<string, string>;
  exports: Record<
    string,
    string | { import: { types: string; default: string }; require: { types: string; default: string } }
  >;
  typesVersions: Record<string, Record<string, string[]>>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
}

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest;
let packed: PackedPackage;
let homes = 0;
let typeChecks: Promise<TypeChecks>;

/** A new, empty MEMOIR_HOME inside the temporary directory. */
function newHome(): string {
  const home = join(packed.dir, 'homes', String(++homes));
  mkdirSync(home, { recursive: true });
  return home;
}

/** Run a file of the consumer project with node; resolve to its exit code and output. */
async function node(args: string[], home = newHome()) {
  try {
    const { stdout, stderr } = await exec(process.execPath, args, {
      cwd: packed.consumer,
      env: childEnvironment({ MEMOIR_HOME: home }),
      encoding: 'utf8',
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** Write a script into the consumer project, run it, and parse the JSON it prints. */
async function script<T>(name: string, code: string, home?: string): Promise<T> {
  writeFileSync(join(packed.consumer, name), code);
  const { code: exitCode, stdout, stderr } = await node([name], home);
  expect(stderr, `${name} wrote to stderr`).toBe('');
  expect(exitCode, `${name} failed`).toBe(0);
  return JSON.parse(stdout) as T;
}

// Node loads native addons through process.dlopen; recording its calls catches any,
// whichever package or path pulls it in. The probe loads each specifier by name, as a
// user's code would, and reports what it exports and the file it resolved to.
const SUBPATHS = ['memoir', 'memoir/sqlite', 'memoir/openai', 'memoir/testing'];
const probe = (specifiers: string[], mode: 'import' | 'require', after = '') => `
const loaded = [];
const original = process.dlopen;
process.dlopen = function (module, filename, ...rest) { loaded.push(filename); return original.call(this, module, filename, ...rest); };
const apis = {};
for (const specifier of ${JSON.stringify(specifiers)}) {
  apis[specifier] = ${mode === 'import' ? 'await import(specifier)' : 'require(specifier)'};
}
const api = apis[${JSON.stringify(specifiers[0])}];
${after}
const each = (f) => Object.fromEntries(Object.entries(apis).map(([specifier, value]) => [specifier, f(specifier, value)]));
process.stdout.write(JSON.stringify({
  loaded,
  exports: each((_, value) => Object.keys(value)),
  resolved: each((specifier) => ${mode === 'import' ? 'import.meta.resolve(specifier)' : 'require.resolve(specifier)'}),
}));
`;

interface Probe {
  loaded: string[];
  exports: Record<string, string[]>;
  resolved: Record<string, string>;
}

// A consumer's TypeScript, checked strictly against the shipped declarations. Each
// expected error in it fails the check if the types it guards were lost (became any).
// These checks skip checking inside .d.ts files, as most projects do: with it, tsc spends
// three times as long, mostly on zod's and Node's own declarations. One check does check
// them, once, for every subpath: in a project without the optional peers, where an import of
// a package the user does not have fails (see consumer-without-peers.ts).
const consumerTypes = `import {
  createMemory,
  type Embedder,
  formatContext,
  MemoirError,
  type Memory,
  type MemoryClient,
  type MemoryInput,
  type RecallOptions,
  type RecallResponse,
  ValidationError,
} from 'memoir';
import { createOpenAIEmbedder } from 'memoir/openai';
import { createSqliteStore } from 'memoir/sqlite';
import { createFixedClock, createTestEmbedder } from 'memoir/testing';

export function open(home: string, userId: string): MemoryClient {
  const embedder: Embedder = createTestEmbedder();
  return createMemory({
    store: createSqliteStore({ path: home + '/memoir.sqlite' }),
    embedder,
    clock: createFixedClock(),
    scope: { userId },
  });
}

export async function turn(memory: MemoryClient, question: string): Promise<string> {
  const options: RecallOptions = { k: 5, tokenBudget: 800, kinds: ['opinion', 'world'], since: '2025-01-01' };
  const response: RecallResponse = await memory.recall(question, options);
  const first: Memory | undefined = response.results[0]?.memory;
  const input: MemoryInput = { content: 'Asked: ' + question, kind: 'experience', entities: first?.entities ?? [] };
  const { ids } = await memory.retain(input);
  const score: number | undefined = response.results[0]?.score;
  return formatContext(response) + ids.join(',') + String(score);
}

export function describeError(error: unknown): string {
  if (ValidationError.isInstance(error)) return error.field;
  if (MemoirError.isInstance(error)) return error.code;
  return 'unknown';
}

export const neural = createOpenAIEmbedder({ baseURL: 'http://127.0.0.1:11434/v1', model: 'nomic-embed-text', dimensions: 768 });

// @ts-expect-error k is a number
export const wrongK: RecallOptions = { k: 'five' };
// @ts-expect-error kind is one of the memory kinds
export const wrongKind: MemoryInput = { content: 'x', kind: 'gossip' };
// @ts-expect-error recall takes a query string
export const wrongQuery = (memory: MemoryClient) => memory.recall(42);
`;

const consumerCjsTypes = `import memoir = require('memoir');
import sqlite = require('memoir/sqlite');
import openclaw = require('memoir/openclaw');

// The CommonJS types of the OpenClaw plugin say it is the default export (run below).
export const pluginId: string = openclaw.default.id;

export function open(path: string): memoir.MemoryClient {
  return memoir.createMemory({ store: sqlite.createSqliteStore({ path }) });
}
// @ts-expect-error createMemory takes options, not a path
export const wrong = () => memoir.createMemory('memoir.sqlite');
`;

const strictOptions = {
  strict: true,
  noUncheckedIndexedAccess: true,
  exactOptionalPropertyTypes: true,
  skipLibCheck: true,
  noEmit: true,
  target: 'ES2022',
  types: ['node'],
};

/** Run the project's tsc over consumer files; resolve to its diagnostics ('' when clean). */
async function tsc(
  name: string,
  compilerOptions: Record<string, unknown>,
  files: string[],
  project = packed.consumer,
): Promise<string> {
  const config = join(project, `tsconfig.${name}.json`);
  writeFileSync(config, JSON.stringify({ compilerOptions: { ...strictOptions, ...compilerOptions }, files }, null, 2));
  try {
    await exec(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', config], {
      cwd: project,
      encoding: 'utf8',
    });
    return '';
  } catch (error) {
    const failed = error as { stdout: string; stderr: string; message: string };
    return failed.stdout || failed.stderr || failed.message;
  }
}

/** Every subpath of the package's exports but package.json: `.`, `./sqlite`, … */
const subpaths = Object.keys(pkg.exports).filter((subpath) => subpath !== './package.json');
/** The name a user imports a subpath by. */
const specifier = (subpath: string) => (subpath === '.' ? 'memoir' : `memoir/${subpath.slice(2)}`);

// `"moduleResolution": "node"` (node10) knows no exports map: each subpath must resolve through
// typesVersions. Importing them all by name is the check; the rest guards against `any`.
const consumerNode10Types = `${subpaths.map((subpath, index) => `import * as entry${index} from '${specifier(subpath)}';`).join('\n')}
import openclaw from 'memoir/openclaw';
import { createSqliteStore } from 'memoir/sqlite';

export const entries = [${subpaths.map((_, index) => `entry${index}`).join(', ')}];
export const pluginId: string = openclaw.id;
// @ts-expect-error createSqliteStore takes options, not a path
export const wrong = () => createSqliteStore('memoir.sqlite');
`;

/** The optional peer dependencies: @lancedb/lancedb, apache-arrow, openai, vitest. */
function optionalPeerNames(): string[] {
  return Object.keys(pkg.peerDependenciesMeta).filter((name) => pkg.peerDependenciesMeta[name]?.optional);
}

interface TypeChecks {
  nodeNext: string;
  bundler: string;
  node10: string;
  /** Every subpath's ESM declarations, checked with skipLibCheck off without the optional peers. */
  withoutPeers: string;
  attw: AttwReport;
}

/** Every check at once, started as soon as the package is installed (each is a process). */
function typeCheck(): Promise<TypeChecks> {
  mkdirSync(join(packed.consumer, 'types'), { recursive: true });
  writeFileSync(join(packed.consumer, 'types/consumer.ts'), consumerTypes);
  writeFileSync(join(packed.consumer, 'types/consumer-cjs.cts'), consumerCjsTypes);
  writeFileSync(join(packed.consumer, 'types/consumer-node10.ts'), consumerNode10Types);
  const peerless = createPeerlessConsumer(
    packed.installed,
    subpaths,
    Object.keys(pkg.dependencies),
    optionalPeerNames(),
  );
  // The example store, written against the public port, checks the shipped store types too.
  copyExampleStore(packed.consumer);
  return Promise.all([
    tsc('nodenext', { module: 'NodeNext', moduleResolution: 'NodeNext' }, [
      'types/consumer.ts',
      'types/consumer-cjs.cts',
      `${EXAMPLE_DIR}/json-store.ts`,
      `${EXAMPLE_DIR}/json-store.test.ts`,
    ]),
    tsc('bundler', { module: 'ESNext', moduleResolution: 'Bundler' }, ['types/consumer.ts']),
    tsc('node10', { module: 'CommonJS', moduleResolution: 'Node10' }, ['types/consumer-node10.ts']),
    tsc(
      'peerless',
      { module: 'NodeNext', moduleResolution: 'NodeNext', skipLibCheck: false },
      ['every-subpath.ts'],
      peerless.dir,
    ).finally(() => rmSync(peerless.dir, { recursive: true, force: true })),
    checkTarballTypes(packed.tarball, packed.dir),
  ]).then(([nodeNext, bundler, node10, withoutPeers, attw]) => ({ nodeNext, bundler, node10, withoutPeers, attw }));
}

beforeAll(async () => {
  packed = await packAndInstall();
  typeChecks = typeCheck();
  // Reported by its own test; never an unhandled rejection meanwhile.
  typeChecks.catch(() => {});
  const { copy, pack, install } = packed.timings;
  const build = packed.prebuilt ? 'the fresh dist/ of the checkout' : 'with the build';
  process.stdout.write(`package test: copy ${copy} s, npm pack (${build}) ${pack} s, install ${install} s\n`);
  // The build inside npm pack takes about 2 minutes alone, and several times that on a 2-core
  // machine running other test files beside it.
}, 600_000);

afterAll(async () => {
  await typeChecks?.catch(() => {});
  if (packed) rmSync(packed.dir, { recursive: true, force: true });
});

describe('the tarball', () => {
  it('ships the build, the bin, the manifests, README, LICENSE and CHANGELOG — and nothing else', () => {
    const { files } = packed;
    for (const file of [
      'package.json',
      'openclaw.plugin.json',
      'README.md',
      'LICENSE',
      'CHANGELOG.md',
      'bin/memoir.mjs',
      'dist/cli.js',
    ]) {
      expect(files).toContain(file);
    }
    const outside = files.filter(
      (file) =>
        !file.startsWith('dist/') &&
        !['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md', 'bin/memoir.mjs', 'openclaw.plugin.json'].includes(
          file,
        ),
    );
    expect(outside).toEqual([]);
    // No sources, tests, benchmark data or temporary files, even under dist/.
    expect(files.filter((file) => /(^|\/)(src|tests|bench|examples|scripts|\.memoir-test-[^/]*)\//.test(file))).toEqual(
      [],
    );
    expect(files.filter((file) => /\.(ts|tsx|jsonl|sqlite|tgz)$/.test(file) && !/\.d\.c?ts$/.test(file))).toEqual([]);
  });

  it('has the checkout’s manifest, and an executable bin', () => {
    const shipped = JSON.parse(readFileSync(join(packed.installed, 'package.json'), 'utf8')) as Manifest;
    expect(shipped.version).toBe(pkg.version);
    expect(shipped.exports).toEqual(pkg.exports);
    expect(shipped.dependencies).toEqual(pkg.dependencies);
    const bin = join(packed.installed, shipped.bin.memoir!);
    expect(statSync(bin).mode & 0o111).not.toBe(0);
    expect(readFileSync(join(packed.installed, 'LICENSE'), 'utf8')).toMatch(/^MIT License/);
  });

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
        expect(packed.files, `${subpath} → ${file}`).toContain(file.replace(/^\.\//, ''));
      }
    }
  });

  it('the build and its declarations import only Node built-ins and declared dependencies, the declarations no optional peer', () => {
    // In the consumer every package resolves, as the project's node_modules is above it:
    // an import of an undeclared package would only fail for a real user.
    const declared = new Set([
      ...Object.keys(pkg.dependencies),
      ...Object.keys(pkg.peerDependencies ?? {}),
      ...Object.keys(pkg.optionalDependencies ?? {}),
    ]);
    const builtins = new Set(builtinModules);
    const optionalPeers = new Set(optionalPeerNames());
    const undeclared = new Set<string>();
    // A declaration importing an optional peer fails tsc (skipLibCheck off) for every user
    // without it — ESM and CommonJS alike; the check without the peers runs the ESM ones.
    const peerTyped = new Set<string>();
    const specifiers = /\bfrom\s*(['"])([^'"\n]+)\1|\b(?:import|require)\s*\(\s*(['"])([^'"\n]+)\3\s*\)/g;
    const packageName = /^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/;
    const built = packed.files.filter((name) => /^dist\/.*\.(c?js|d\.c?ts)$/.test(name));
    expect(built.length).toBeGreaterThan(0);
    for (const file of built) {
      // Declarations carry @example code in comments, which imports memoir itself.
      const code = readFileSync(join(packed.installed, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
      for (const match of code.matchAll(specifiers)) {
        const specifier = match[2] ?? match[4]!;
        const name = specifier
          .split('/')
          .slice(0, specifier.startsWith('@') ? 2 : 1)
          .join('/');
        // Relative paths, node: built-ins, and text such as `from "${name}"` in messages.
        if (!packageName.test(name)) continue;
        if (!builtins.has(name) && !declared.has(name)) undeclared.add(`${specifier} (${file})`);
        if (/\.d\.c?ts$/.test(file) && optionalPeers.has(name)) peerTyped.add(`${specifier} (${file})`);
      }
    }
    expect([...undeclared]).toEqual([]);
    expect(optionalPeers.size).toBeGreaterThan(0);
    expect([...peerTyped]).toEqual([]);
  });
});

describe('the installed package', () => {
  it('every export loads by name from the installed tarball, and none loads a native module (ESM and CJS)', async () => {
    const esm = await script<Probe>('probe.mjs', probe(SUBPATHS, 'import'));
    const cjs = await script<Probe>('probe.cjs', probe(SUBPATHS, 'require'));
    expect(esm.loaded).toEqual([]);
    expect(cjs.loaded).toEqual([]);
    expect(esm.resolved.memoir).toBe(pathToFileURL(join(packed.installed, 'dist/index.js')).href);
    expect(cjs.resolved.memoir).toBe(join(packed.installed, 'dist/index.cjs'));
    for (const [specifier, file] of [...Object.entries(esm.resolved), ...Object.entries(cjs.resolved)]) {
      expect(file, specifier).toContain(join(packed.installed, 'dist/'));
    }
    for (const { exports } of [esm, cjs]) {
      expect(exports.memoir).toEqual(expect.arrayContaining(['createMemory', 'formatContext', 'ValidationError']));
      expect(exports['memoir/sqlite']).toEqual(expect.arrayContaining(['createSqliteStore', 'checkSqliteFile']));
      expect(exports['memoir/openai']).toEqual(
        expect.arrayContaining(['createOpenAIEmbedder', 'createOpenAIChatModel']),
      );
      expect(exports['memoir/testing']).toEqual(
        expect.arrayContaining(['createScriptedLanguageModel', 'createTestEmbedder', 'createTestStore']),
      );
    }
    // Twelve subpaths loaded by an ESM and a CommonJS process: over 30 s on a busy 2-core machine.
  }, 120_000);

  it('an ESM script retains and recalls with the default SQLite store in MEMOIR_HOME', async () => {
    const home = newHome();
    const result = await script<{ contents: string[]; citation: string; total: number; subpaths: string[] }>(
      'consumer.mjs',
      `import { createMemory, formatContext, ValidationError } from 'memoir';
import { createSqliteStore } from 'memoir/sqlite';
import { createOpenAIEmbedder } from 'memoir/openai';
import { createTestEmbedder } from 'memoir/testing';

const memory = createMemory();
await memory.retain({
  content: 'Peter prefers concise replies on WhatsApp.',
  entities: ['Peter'],
  source: { file: 'memory/2025-11-20.md', line: 4 },
});
await memory.retain('The deploy runs every Friday at noon.');
const response = await memory.recall('how should I reply to Peter', { k: 1, tokenBudget: 500 });
if (!formatContext(response).includes('Peter prefers')) throw new Error('formatContext lost the memory');
const rejected = await memory.retain({ content: '' }).catch((error) => error);
if (!ValidationError.isInstance(rejected)) throw new Error('an empty memory was not a ValidationError');
const { memories: total } = await memory.stats();
await memory.close();
process.stdout.write(JSON.stringify({
  contents: response.results.map((result) => result.memory.content),
  citation: response.results[0].citation,
  total,
  subpaths: [createSqliteStore, createOpenAIEmbedder, createTestEmbedder].map((f) => typeof f),
}));
`,
      home,
    );
    expect(result.contents).toEqual(['Peter prefers concise replies on WhatsApp.']);
    expect(result.citation).toBe('memory/2025-11-20.md#L4');
    expect(result.total).toBe(2);
    expect(result.subpaths).toEqual(['function', 'function', 'function']);
    expect(existsSync(join(home, 'memoir.sqlite'))).toBe(true);
  });

  it('a CommonJS script retains and recalls with the default SQLite store', async () => {
    const home = newHome();
    const result = await script<{ contents: string[]; subpaths: string[] }>(
      'consumer.cjs',
      `const { createMemory } = require('memoir');
const { createSqliteStore } = require('memoir/sqlite');
const { createOpenAIChatModel } = require('memoir/openai');
const { createTestStore } = require('memoir/testing');
(async () => {
  const memory = createMemory();
  await memory.retain('The quick brown fox lives in the forest.');
  const { results } = await memory.recall('where does the fox live', { tokenBudget: 500 });
  await memory.close();
  process.stdout.write(JSON.stringify({
    contents: results.map((result) => result.memory.content),
    subpaths: [createSqliteStore, createOpenAIChatModel, createTestStore].map((f) => typeof f),
  }));
})().catch((error) => { console.error(error); process.exit(1); });
`,
      home,
    );
    expect(result.contents).toEqual(['The quick brown fox lives in the forest.']);
    expect(result.subpaths).toEqual(['function', 'function', 'function']);
    expect(existsSync(join(home, 'memoir.sqlite'))).toBe(true);
  });

  it('the probe does see a native module when one loads', async () => {
    const opensStore = `const store = api.createSqliteStore({ path: ':memory:' });
await store.open({ id: 'probe', dimensions: 4 });`;
    const opened = await script<Probe>('probe-open.mjs', probe(['memoir/sqlite'], 'import', opensStore));
    expect(opened.loaded.some((file) => file.endsWith('.node'))).toBe(true);
  });

  it('errors from a second copy of memoir (the CJS and the ESM build) are recognised by isInstance', async () => {
    const result = await script<string[]>(
      'second-copy.cjs',
      `const cjs = require('memoir');
(async () => {
  const esm = await import('memoir');
  const error = await cjs.createMemory().get('').catch((caught) => caught);
  process.stdout.write(JSON.stringify([
    error instanceof esm.ValidationError,
    esm.ValidationError.isInstance(error),
    esm.MemoirError.isInstance(error),
    esm.NotFoundError.isInstance(error),
  ]));
})();`,
    );
    expect(result).toEqual([false, true, true, false]);
  });
});

describe('an outside store', () => {
  it('the example store, with only the required functions, runs every shipped contract from the installed tarball, and passes', async () => {
    const resolved = await script<string[]>(
      'resolve-contracts.mjs',
      `process.stdout.write(JSON.stringify(['memoir/testing/contracts', 'memoir/store-kit'].map((name) => import.meta.resolve(name))));`,
    );
    expect(resolved).toEqual([
      pathToFileURL(join(packed.installed, 'dist/testing/contracts.js')).href,
      pathToFileURL(join(packed.installed, 'dist/store-kit.js')).href,
    ]);
    const { code, report, stderr } = await runExampleContract(packed.consumer);
    expect(report, stderr).not.toBeNull();
    const results = report!.testResults.flatMap((file) => file.assertionResults);
    const failed = results.filter((result) => result.status === 'failed').map((result) => result.title);
    expect(failed, stderr).toEqual([]);
    expect(code, stderr).toBe(0);
    // The store contract and the scope-isolation contract both ran, most of it.
    expect(report!.numPassedTests).toBeGreaterThan(80);
    expect(results.some((result) => result.title.startsWith('reads: recall, list, get and stats'))).toBe(true);
    // What it skips needs an optional native the store lacks, and says which.
    const skipped = results.filter((result) => result.status !== 'passed').map((result) => result.title);
    expect(skipped.length).toBeGreaterThan(0);
    for (const title of skipped) {
      expect(title).toMatch(
        /\(skipped: (the store offers no (lexical search|vector search|integrity check|transaction\(\) or stageChange\(\))|clearAll is a bulk change, which needs transaction\(\) or stageChange\(\))/,
      );
    }
  }, 120_000);

  it('vitest loads only with memoir/testing/contracts, never with memoir or memoir/testing', async () => {
    const dist = (file: string) => join(packed.installed, 'dist', file);
    for (const entry of ['index.js', 'index.cjs', 'testing.js', 'testing.cjs']) {
      expect([...packagesLoadedBy(dist(entry))], entry).not.toContain('vitest');
    }
    expect([...packagesLoadedBy(dist('testing/contracts.js'))]).toContain('vitest');
    // vitest is ESM only: a CommonJS require of the contracts says so (vitest's own message).
    const { code, stderr } = await node([
      '-e',
      "try { require('memoir/testing/contracts') } catch (error) { console.error(error.message); process.exit(3) }",
    ]);
    expect(code).toBe(3);
    expect(stderr).toMatch(/Vitest cannot be imported in a CommonJS module/);
  });
});

describe('a TypeScript consumer', () => {
  it('type-checks strictly with NodeNext (ESM and CommonJS) and with Bundler resolution', async () => {
    const { nodeNext, bundler } = await typeChecks;
    expect(nodeNext).toBe('');
    expect(bundler).toBe('');
  }, 120_000);

  it('every subpath resolves, typed, under "moduleResolution": "node" (node10), through typesVersions', async () => {
    const { node10 } = await typeChecks;
    expect(node10).toBe('');
    // Each subpath maps to the declarations its `require` condition names, as node10 is require's.
    const mapped = Object.fromEntries(
      subpaths
        .filter((subpath) => subpath !== '.')
        .map((subpath) => {
          const target = pkg.exports[subpath];
          return [subpath.slice(2), [typeof target === 'string' ? target : target!.require.types]];
        }),
    );
    expect(pkg.typesVersions).toEqual({ '*': mapped });
  }, 120_000);

  it('the declarations of every subpath type-check, skipLibCheck off, without the optional peers installed', async () => {
    // Checked for ESM (the CommonJS declarations mirror them, and checking both doubles the
    // time); "the build and its declarations import only …" scans both for peer imports.
    const { withoutPeers } = await typeChecks;
    expect(withoutPeers).toBe('');
  }, 120_000);

  it('are the types wrong? no: attw finds no problem at any subpath for node10, node16 (CJS and ESM) and bundler', async () => {
    const { attw } = await typeChecks;
    expect(attw.resolutionKinds.sort()).toEqual(['bundler', 'node10', 'node16-cjs', 'node16-esm']);
    expect(attw.entrypoints.sort()).toEqual(Object.keys(pkg.exports).sort());
    // memoir/testing/contracts is typed for require too, and attw (which reads types, never runs
    // code) rightly finds nothing: that requiring it fails is vitest's refusal (ESM only),
    // checked with its message in "vitest loads only with memoir/testing/contracts".
    expect(attw.problems).toEqual([]);
  }, 120_000);

  it('memoir/openclaw from CommonJS is what its types declare: the plugin under .default', async () => {
    const result = await script<{ cjs: string | null; esm: string; registers: boolean }>(
      'openclaw-default.cjs',
      `const openclaw = require('memoir/openclaw');
(async () => {
  const esm = await import('memoir/openclaw');
  process.stdout.write(JSON.stringify({
    cjs: openclaw.default ? openclaw.default.id : null,
    esm: esm.default.id,
    registers: typeof openclaw.default?.register === 'function',
  }));
})().catch((error) => { console.error(error); process.exit(1); });`,
    );
    expect(result).toEqual({ cjs: 'memoir', esm: 'memoir', registers: true });
  });
});

describe('the memoir command from the installed package', () => {
  const bin = () => join(packed.installed, 'bin/memoir.mjs');

  it('--version and -V print the package version', async () => {
    for (const flag of ['--version', '-V']) {
      const result = await node([bin(), flag]);
      expect(result).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
    }
  });

  it('--help prints the usage, and never mentions tsx', async () => {
    const result = await node([bin(), '--help']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^Usage: memoir /);
    expect(result.stdout).toContain('--version');
    expect(result.stdout).not.toMatch(/tsx/i);
  });

  it('retains in one process and recalls in the next', async () => {
    const home = newHome();
    const retained = await node(
      [bin(), 'retain', 'Peter prefers concise replies on WhatsApp.', '--entity', 'Peter'],
      home,
    );
    expect(retained.stderr).toBe('');
    expect(retained.code).toBe(0);
    const recalled = await node([bin(), 'recall', 'how should I reply to Peter', '--json'], home);
    expect(recalled.stderr).toBe('');
    expect(recalled.code).toBe(0);
    const response = JSON.parse(recalled.stdout) as { results: Array<{ memory: { content: string } }> };
    expect(response.results[0]!.memory.content).toBe('Peter prefers concise replies on WhatsApp.');
    expect(existsSync(join(home, 'memoir.sqlite'))).toBe(true);
  });

  it('an installation without dist/ says so, and never mentions tsx', async () => {
    const broken = join(packed.dir, 'broken');
    cpSync(join(packed.installed, 'bin'), join(broken, 'bin'), { recursive: true });
    cpSync(join(packed.installed, 'package.json'), join(broken, 'package.json'));
    const result = await node([join(broken, 'bin/memoir.mjs'), '--help']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(join(broken, 'dist/cli.js'));
    expect(result.stderr).toMatch(/^error: memoir is installed without its build: .* is missing\nhint: Reinstall/);
    expect(result.stderr).not.toMatch(/tsx/i);
  });
});

describe('memoir/ai-sdk from the tarball', () => {
  // A chat turn through the AI SDK's own test model: the middleware adds the recalled memory to
  // the prompt the model sees, and the tools run; `ai` is the consumer's, as a user's would be.
  const turn = (load: string) => `${load}
  const memory = createMemory({ store: createInMemoryStore() });
  await memory.retain({ content: 'Sam prefers window seats.', scope: { userId: 'sam' } });
  const inner = new MockLanguageModelV3({
    doGenerate: async () => ({
      content: [{ type: 'text', text: 'A window seat.' }],
      finishReason: { unified: 'stop', raw: 'stop' },
      usage: { inputTokens: { total: 1 }, outputTokens: { total: 1 } },
      warnings: [],
    }),
  });
  const model = wrapLanguageModel({ model: inner, middleware: memoryMiddleware({ memory, scope: { userId: 'sam' } }) });
  const { text } = await generateText({ model, prompt: 'Which seat do I like?' });
  await memory.flush();
  const kept = await memory.list({ scope: { userId: 'sam' } });
  await memory.close();
  process.stdout.write(JSON.stringify({
    text,
    sawMemory: inner.doGenerateCalls[0].prompt[0].content.includes('Sam prefers window seats.'),
    retained: kept.some((m) => m.content.includes('Which seat do I like?')),
    tools: Object.keys(memoryTools(memory, { scope: { userId: 'sam' } })),
  }));`;
  const expected = {
    text: 'A window seat.',
    sawMemory: true,
    retained: true,
    tools: ['memory_recall', 'memory_retain', 'memory_forget', 'memory_history', 'memory_correct'],
  };

  it('imports in ESM and drives generateText', async () => {
    const result = await script<typeof expected>(
      'ai-sdk.mjs',
      turn(`import { createMemory, createInMemoryStore } from 'memoir';
import { memoryMiddleware, memoryTools } from 'memoir/ai-sdk';
import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';`),
    );
    expect(result).toEqual(expected);
  });

  it('requires in CommonJS and drives generateText', async () => {
    const result = await script<typeof expected>(
      'ai-sdk.cjs',
      `const { createMemory, createInMemoryStore } = require('memoir');
const { memoryMiddleware, memoryTools } = require('memoir/ai-sdk');
const { generateText, wrapLanguageModel } = require('ai');
const { MockLanguageModelV3 } = require('ai/test');
(async () => {${turn('')}
})().catch((error) => { console.error(error); process.exit(1); });`,
    );
    expect(result).toEqual(expected);
  });

  it('its shipped declarations fit the real ai types, and a wrong field fails the check', async () => {
    mkdirSync(join(packed.consumer, 'types'), { recursive: true });
    writeFileSync(
      join(packed.consumer, 'types/consumer-ai-sdk.ts'),
      `import { generateText, type LanguageModelMiddleware, stepCountIs, type ToolSet, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { createMemory } from 'memoir';
import { memoryMiddleware, memoryTools } from 'memoir/ai-sdk';

const memory = createMemory();
export const middleware: LanguageModelMiddleware = memoryMiddleware({ memory, scope: { userId: 'sam' }, budget: 500, captureRoles: ['user'] });
export const model = wrapLanguageModel({ model: new MockLanguageModelV3(), middleware });
export const tools: ToolSet = memoryTools(memory, { scope: { userId: 'sam' } });
export const run = () => generateText({ model, tools, stopWhen: stepCountIs(3), prompt: 'hi' });
// @ts-expect-error budget is a number of tokens
memoryMiddleware({ memory, budget: '500' });
// @ts-expect-error captureRoles are user, assistant and tool
memoryMiddleware({ memory, captureRoles: ['system'] });
// @ts-expect-error transformParams must return the call's parameters
export const wrong: LanguageModelMiddleware = { ...middleware, transformParams: async () => ({ prompt: 'hi' }) };
`,
    );
    const diagnostics = await tsc('ai-sdk', { module: 'NodeNext', moduleResolution: 'NodeNext' }, [
      'types/consumer-ai-sdk.ts',
    ]);
    expect(diagnostics).toBe('');
  }, 120_000);
});

describe('memoir/langgraph from the installed package', () => {
  // The same script from ESM and CommonJS: the store is LangGraph's BaseStore (the peer the
  // consumer has), puts into the SQLite home, ranks a query and reads it back.
  const storeScript = (load: string) => `${load}
  const store = new MemoirStore({ home: process.env.MEMOIR_HOME, scope: { userId: 'alice' } });
  await store.put(['users', 'alice', 'facts'], 'allergy', { text: 'Alice is allergic to peanuts.', level: 3 });
  await store.put(['users', 'alice', 'facts'], 'seat', { text: 'Alice likes window seats.' });
  const [best] = await store.search(['users', 'alice'], { query: 'is Alice allergic to peanuts?' });
  const item = await store.get(['users', 'alice', 'facts'], 'allergy');
  const refused = await store.put(['users', 'bob'], 'k', { text: 'x' }).catch((error) => error.field);
  await store.stop();
  process.stdout.write(JSON.stringify({ isBaseStore: store instanceof BaseStore, best: best.key, value: item.value, refused }));`;
  const expected = {
    isBaseStore: true,
    best: 'allergy',
    value: { text: 'Alice is allergic to peanuts.', level: 3 },
    refused: 'namespace[1]',
  };

  it('imports in ESM and CommonJS; MemoirStore is a LangGraph BaseStore that puts, ranks and gets in the SQLite home', async () => {
    const esm = await script(
      'langgraph-store.mjs',
      storeScript(`import { BaseStore } from '@langchain/langgraph';
import { MemoirStore } from 'memoir/langgraph';`),
    );
    const cjs = await script(
      'langgraph-store.cjs',
      `const { BaseStore } = require('@langchain/langgraph');
const { MemoirStore } = require('memoir/langgraph');
(async () => {${storeScript('')}
})().catch((error) => { console.error(error); process.exit(1); });`,
    );
    expect(esm).toEqual(expected);
    expect(cjs).toEqual(expected);
  });

  it('its shipped types are a BaseStore a graph compiles with; a wrong shape fails against the real LangGraph types', async () => {
    mkdirSync(join(packed.consumer, 'types'), { recursive: true });
    writeFileSync(
      join(packed.consumer, 'types/langgraph-consumer.ts'),
      `import { type BaseStore, MessagesAnnotation, StateGraph } from '@langchain/langgraph';
import { createMemory } from 'memoir';
import { MemoirStore } from 'memoir/langgraph';

export const store: BaseStore = new MemoirStore({ memory: createMemory() });
export const graph = new StateGraph(MessagesAnnotation).addNode('n', () => ({})).addEdge('__start__', 'n').compile({ store });
type Drifted = Omit<MemoirStore, 'listNamespaces'> & { listNamespaces(prefix: string[]): Promise<string[]> };
declare const drifted: Drifted;
// @ts-expect-error a store whose listNamespaces differs is not a BaseStore
export const notAStore: BaseStore = drifted;
// @ts-expect-error the option is memory, not client
export const wrong = new MemoirStore({ client: createMemory() });
`,
    );
    expect(
      await tsc('langgraph', { module: 'NodeNext', moduleResolution: 'NodeNext' }, ['types/langgraph-consumer.ts']),
    ).toBe('');
  }, 120_000);
});
