import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The LoCoMo conversations are licensed for benchmarking only. Only bench/ may read them:
// library code must not name the data set, its paths or its format, and no copy of it may
// sit in the sources, tests or examples, or ship in the package.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MEGABYTE = 1024 * 1024;

/** Every file under `dir` (relative to the repository root), recursively. */
function filesUnder(dir: string): string[] {
  const absolute = join(ROOT, dir);
  return readdirSync(absolute, { recursive: true, encoding: 'utf8' })
    .map((entry) => join(absolute, entry))
    .filter((path) => statSync(path).isFile())
    .sort();
}

const CODE_EXTENSIONS = new Set(['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs']);

/** The code of a source file without its comments (parsed, so strings and regexes stay intact). */
function withoutComments(path: string, text: string): string {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  return ts.createPrinter({ removeComments: true }).printFile(source);
}

// Strings specific to the benchmark's files and format, forbidden anywhere in shipped code,
// comments included. Deliberately absent because library code uses them legitimately:
// `evidence` (Opinion.evidence, VideoEvidence, recall's ListEvidence), `conversation`
// (ModelMessage docs, Memory.context), `observation` (a memory kind), `category`,
// `question`/`answer`, `qa` (too short: matches inside words) and `session_` (the SQLite
// `session_id` column).
const FORMAT_STRINGS = [
  'locomo10',
  'shared/data',
  '../bench',
  'dia_id',
  'sample_id',
  'blip_caption',
  'img_url',
  '_date_time',
  'speaker_a',
  'speaker_b',
  'adversarial_answer',
  'event_summary',
  'session_summary',
];

// The data set's name is forbidden in code and strings, but a comment may cite it as where a
// default was measured (src/core/memory-client.ts: "Measured on LoCoMo: ...").
const NAME_IN_CODE = ['locomo'];

const SHIPPED_DIRS = ['src', 'bin'];

describe('library code never reads benchmark data', () => {
  const shipped = SHIPPED_DIRS.flatMap(filesUnder);

  it('finds the files it guards', () => {
    expect(shipped.length).toBeGreaterThan(10);
    expect(shipped.some((path) => path.endsWith(join('src', 'index.ts')))).toBe(true);
  });

  it('names no benchmark file, path or format key under src/ or bin/', () => {
    const hits: string[] = [];
    for (const path of shipped) {
      const text = readFileSync(path, 'utf8');
      const lower = text.toLowerCase();
      for (const needle of FORMAT_STRINGS) {
        if (lower.includes(needle.toLowerCase())) hits.push(`${relative(ROOT, path)}: ${needle}`);
      }
      // A relative path to a `shared` folder is refused when it leaves src/: the benchmark data
      // sits in the sibling ../shared; src/core/shared is the core's own layer.
      for (const [, ups] of lower.matchAll(/((?:\.\.\/)+)shared\b/g)) {
        const target = resolve(dirname(path), ups ?? '', 'shared');
        if (!target.startsWith(join(ROOT, 'src') + sep)) hits.push(`${relative(ROOT, path)}: ${ups}shared`);
      }
      const code = CODE_EXTENSIONS.has(extname(path)) ? withoutComments(path, text).toLowerCase() : lower;
      for (const needle of NAME_IN_CODE) {
        if (code.includes(needle)) hits.push(`${relative(ROOT, path)}: ${needle}`);
      }
    }
    expect(hits).toEqual([]);
  });

  it('the comment stripper keeps strings and drops comments', () => {
    const code = withoutComments(
      'sample.ts',
      "// LoCoMo in a line comment\n/** LoCoMo in JSDoc */\nconst path = '../shared/data/LOCOMO.json'; /* LoCoMo */\nconst re = /locomo\\/\\//;\n",
    ).toLowerCase();
    expect(code).toContain('../shared/data/locomo.json');
    expect(code).toContain('/locomo\\/\\//');
    expect(code.match(/locomo/g)).toHaveLength(2);
  });
});

describe('no benchmark data ships or is copied into the repository', () => {
  it("package.json's files field includes neither bench/ nor any data", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files?: unknown };
    expect(Array.isArray(pkg.files), 'package.json must list its files explicitly').toBe(true);
    const files = pkg.files as unknown[];
    for (const entry of files) {
      expect(typeof entry).toBe('string');
      const path = (entry as string).replace(/^\.\//, '').replace(/\/+$/, '');
      // A catch-all would ship bench/ and anything beside it.
      expect(['', '.', '*', '**', '**/*'], `files entry ${entry}`).not.toContain(path);
      // The one JSON file that ships is the OpenClaw plugin manifest, which hosts read beside package.json.
      if (path === 'openclaw.plugin.json') continue;
      expect(path, `files entry ${entry}`).not.toMatch(/bench|data|shared|locomo|\.json$/i);
    }
  });

  it('no file under src/, tests/ or examples/ is over 1 MB or a copied conversation data set', () => {
    const problems: string[] = [];
    for (const path of ['src', 'tests', 'examples'].flatMap(filesUnder)) {
      const name = relative(ROOT, path);
      const size = statSync(path).size;
      if (size > MEGABYTE) problems.push(`${name}: ${size} bytes`);
      if (extname(path).toLowerCase() !== '.json') continue;
      const text = readFileSync(path, 'utf8');
      if (looksLikeDataset(text)) problems.push(`${name}: has "conversation" and "qa" keys`);
    }
    expect(problems).toEqual([]);
  });

  it('recognises a conversation data set, parsed or not', () => {
    expect(looksLikeDataset(JSON.stringify([{ sample_id: 'x', conversation: {}, qa: [] }]))).toBe(true);
    expect(looksLikeDataset(JSON.stringify({ conversation: {}, qa: [] }))).toBe(true);
    expect(looksLikeDataset(JSON.stringify({ data: [{ conversation: {}, qa: [] }] }, null, 2))).toBe(true);
    expect(looksLikeDataset('[{"conversation": {}, "qa": [], broken')).toBe(true);
    expect(looksLikeDataset(JSON.stringify({ name: 'memoir', conversation: 'a word' }))).toBe(false);
    expect(looksLikeDataset('{"compilerOptions": {}}')).toBe(false);
  });
});

/** A JSON text with both a `conversation` and a `qa` key, at any depth, valid JSON or not. */
function looksLikeDataset(text: string): boolean {
  return /"conversation"\s*:/.test(text) && /"qa"\s*:/.test(text);
}
