// The package's public entry points come from one table, entry-points.json. tsup.config.ts
// builds one entry per row, typedoc.config.mjs documents the rows marked `documented`, and
// `npm run entries` writes what must be static JSON or prose from it: package.json's
// `exports` and `typesVersions`, and the table in CONTRIBUTING.md.
// tests/package/entry-points.test.ts fails when either differs from what this would write.
//
// A new subpath, e.g. `memoir/store-kit`: add a row to entry-points.json, run `npm run entries`.

import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** One public entry point. */
export interface EntryPoint {
  /** The subpath after `memoir/` (`index` for `memoir` itself), and the build's file name in dist/. */
  name: string;
  /** The module it is built from. */
  source: string;
  /** Whether the API reference includes it. */
  documented: boolean;
  /** What it holds, for the table in CONTRIBUTING.md. */
  what: string;
  /** Why it is an entry of its own, when that needs saying. */
  note?: string;
}

const entryPointSchema = z
  .object({
    name: z.string().regex(/^[a-z][a-z0-9-]*(\/[a-z][a-z0-9-]*)*$/, 'a subpath such as store-kit or testing/contracts'),
    source: z.string().regex(/^src\/.+\.ts$/, 'a module under src/'),
    documented: z.boolean(),
    what: z.string().min(1),
    note: z.string().min(1).optional(),
  })
  .strict();

const tableSchema = z
  .object({ $comment: z.string().optional(), entries: z.array(entryPointSchema).min(1) })
  .strict()
  .refine((table) => new Set(table.entries.map((entry) => entry.name)).size === table.entries.length, {
    message: 'each name once',
  });

/** The table file. */
export const TABLE = join(root, 'entry-points.json');

/** The rows of entry-points.json, checked. */
export function readEntryPoints(path: string = TABLE): EntryPoint[] {
  return tableSchema.parse(JSON.parse(readFileSync(path, 'utf8'))).entries;
}

/** The public entry points, in table order. */
export const ENTRY_POINTS: readonly EntryPoint[] = readEntryPoints();

/** tsup's `entry`: dist file name → source. */
export function tsupEntries(entries: readonly EntryPoint[] = ENTRY_POINTS): Record<string, string> {
  return Object.fromEntries(entries.map((entry) => [entry.name, entry.source]));
}

/** The subpath package.json's `exports` lists an entry under: `.` or `./name`. */
export const subpathOf = (entry: Pick<EntryPoint, 'name'>): string =>
  entry.name === 'index' ? '.' : `./${entry.name}`;

/** package.json's `exports`: ESM and CommonJS, each with its declarations, and `./package.json`. */
export function packageExports(entries: readonly EntryPoint[] = ENTRY_POINTS): Record<string, unknown> {
  const exports: Record<string, unknown> = {};
  for (const entry of entries) {
    const file = `./dist/${entry.name}`;
    exports[subpathOf(entry)] = {
      import: { types: `${file}.d.ts`, default: `${file}.js` },
      require: { types: `${file}.d.cts`, default: `${file}.cjs` },
    };
  }
  exports['./package.json'] = './package.json';
  return exports;
}

/** package.json's `typesVersions`, for node10 resolution (which knows no `exports`): every subpath but `.`. */
export function typesVersions(entries: readonly EntryPoint[] = ENTRY_POINTS): Record<string, unknown> {
  const paths: Record<string, string[]> = {};
  for (const entry of entries) if (entry.name !== 'index') paths[entry.name] = [`./dist/${entry.name}.d.cts`];
  return { '*': paths };
}

/** package.json with its `exports` and `typesVersions` written from the table, keys in their place. */
export function packageJsonWithEntries(text: string, entries: readonly EntryPoint[] = ENTRY_POINTS): string {
  const manifest = JSON.parse(text) as Record<string, unknown>;
  manifest.exports = packageExports(entries);
  manifest.typesVersions = typesVersions(entries);
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** The markers around the generated part of CONTRIBUTING.md's "Public entry points". */
export const START = '<!-- entry-points:start (written by `npm run entries` from entry-points.json; do not edit) -->';
export const END = '<!-- entry-points:end -->';

const COUNT_WORDS =
  'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty'.split(
    ' ',
  );

/** The generated part: how many entry points there are, and one row each. */
export function contributingSection(entries: readonly EntryPoint[] = ENTRY_POINTS): string {
  const count = COUNT_WORDS[entries.length] ?? String(entries.length);
  const rows = entries.map((entry) => {
    const specifier = entry.name === 'index' ? 'memoir' : `memoir/${entry.name}`;
    return `| \`${specifier}\` | \`${entry.source}\` | ${entry.what.replace(/\|/g, '\\|')} |`;
  });
  return [
    `The package exports ${count} entry points (the keys of package.json's \`exports\`, besides`,
    '`./package.json`), one row each in `entry-points.json`:',
    '',
    '| import | from | what |',
    '|---|---|---|',
    ...rows,
  ].join('\n');
}

/** CONTRIBUTING.md with its generated section replaced by the current one. */
export function contributingWithEntries(text: string, entries: readonly EntryPoint[] = ENTRY_POINTS): string {
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) throw new Error(`CONTRIBUTING.md lacks the markers ${START} … ${END}`);
  return `${text.slice(0, start + START.length)}\n${contributingSection(entries)}\n${text.slice(end)}`;
}

/** The files `npm run entries` writes. */
export const WRITTEN = { packageJson: join(root, 'package.json'), contributing: join(root, 'CONTRIBUTING.md') };

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const updates = [
    [WRITTEN.packageJson, packageJsonWithEntries],
    [WRITTEN.contributing, contributingWithEntries],
  ] as const;
  for (const [path, update] of updates) {
    const before = readFileSync(path, 'utf8');
    const after = update(before);
    if (after !== before) writeFileSync(path, after);
    console.log(`${path}: ${after === before ? 'already current' : 'rewritten'}`);
  }
}
