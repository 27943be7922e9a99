import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The API reference must show the fields of every public type. typedoc.json loads
// typedoc-plugin-zod (which expands `z.input<typeof schema>` aliases into object types) and
// scripts/typedoc-check-fields.mjs (which fails the build on a type shown without its
// fields, or a field without a comment). These tests run the real build, then prove the
// check fails on a fixture that breaks each rule.

const root = resolve(import.meta.dirname, '../..');
const typedocBin = join(root, 'node_modules/typedoc/bin/typedoc');
const checkPlugin = join(root, 'scripts/typedoc-check-fields.mjs');
let dir: string;

function typedoc(args: string[]) {
  const result = spawnSync(process.execPath, [typedocBin, ...args], { cwd: root, encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

interface JsonComment {
  summary: { text: string }[];
}
interface JsonReflection {
  name: string;
  kind: number;
  comment?: JsonComment;
  signatures?: { comment?: JsonComment }[];
  children?: JsonReflection[];
  type?: { type: string; declaration?: JsonReflection };
}

const commentText = (reflection: JsonReflection) =>
  [reflection.comment, ...(reflection.signatures ?? []).map((s) => s.comment)]
    .flatMap((comment) => comment?.summary ?? [])
    .map((part) => part.text)
    .join('')
    .trim();

beforeAll(() => {
  // Inside the project, so the fixture resolves zod from the project's node_modules.
  dir = mkdtempSync(join(root, '.memoir-test-docs-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('the API reference', () => {
  it('builds, and shows the documented fields of the central option and model types', () => {
    const json = join(dir, 'api.json');
    const { status, output } = typedoc(['--out', join(dir, 'site'), '--json', json]);
    expect(output).not.toMatch(/\[(error|warning)\]/);
    expect(status).toBe(0);

    const project = JSON.parse(readFileSync(json, 'utf8')) as JsonReflection;
    const fieldsOf = (moduleName: string, typeName: string) => {
      const module = project.children?.find((m) => m.name === moduleName);
      const type = module?.children?.find((c) => c.name === typeName);
      expect(type, `${moduleName} exports ${typeName}`).toBeDefined();
      const fields = type?.children ?? type?.type?.declaration?.children ?? [];
      return new Map(fields.map((field) => [field.name, commentText(field)]));
    };
    const expected: [string, string, string[]][] = [
      ['memoir', 'RecallOptions', ['k', 'minScore', 'tokenBudget', 'scope', 'kinds', 'since', 'explain']],
      ['memoir', 'MemoryInput', ['content', 'kind', 'category', 'entities', 'source', 'importance', 'metadata']],
      ['memoir', 'Memory', ['id', 'kind', 'abstract', 'overview', 'content', 'scope', 'validTo', 'importance']],
      ['memoir', 'ListOptions', ['includeInvalid']],
      ['memoir', 'ConversationInput', ['messages', 'sessionId', 'success']],
      ['memoir', 'MemoryOptions', ['scope', 'store', 'embedder', 'languageModel', 'retentionDays', 'capture']],
      ['memoir', 'CaptureOptions', ['enabled', 'exclude', 'redact']],
      ['memoir', 'ProcedureOptions', ['enabled', 'minToolCalls', 'similarityThreshold']],
      ['memoir', 'MemoirConfig', ['home', 'retentionDays', 'embedderProvider', 'proceduresMaxPerPrompt']],
      ['memoir', 'RankingOptions', ['rrfK', 'lexicalWeight', 'vectorWeight']],
      ['memoir/sqlite', 'SqliteStoreOptions', ['path']],
      ['memoir/openai', 'OpenAIEmbedderOptions', ['model', 'dimensions']],
    ];
    for (const [moduleName, typeName, names] of expected) {
      const fields = fieldsOf(moduleName, typeName);
      for (const name of names) {
        expect(fields.has(name), `${typeName}.${name} is listed`).toBe(true);
        expect(fields.get(name), `${typeName}.${name} has a comment`).not.toBe('');
      }
    }
  }, 300_000);

  describe('the field check', () => {
    const fixture = (name: string, plugins: string[]) => {
      const home = join(dir, name);
      mkdirSync(home, { recursive: true });
      writeFileSync(
        join(home, 'index.ts'),
        [
          "import { z } from 'zod';",
          '/** The schema of a thing. */',
          'export const thingSchema = z.object({',
          '  /** Its name. */',
          '  name: z.string(),',
          '  count: z.number().optional(),',
          '});',
          '/** A thing. */',
          'export type Thing = z.input<typeof thingSchema>;',
          '/** A widget. */',
          'export interface Widget {',
          '  /** Its size. */',
          '  size: number;',
          '  colour: string;',
          '  /** Where it sits. */',
          '  place: {',
          '    /** The shelf. */',
          '    shelf: string;',
          '    row: number;',
          '  };',
          '}',
          '',
        ].join('\n'),
      );
      writeFileSync(
        join(home, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            noEmit: true,
            skipLibCheck: true,
            types: [],
          },
          include: ['index.ts'],
        }),
      );
      writeFileSync(
        join(home, 'typedoc.json'),
        JSON.stringify({
          entryPoints: [join(home, 'index.ts')],
          tsconfig: join(home, 'tsconfig.json'),
          out: join(home, 'site'),
          plugin: plugins,
          disableSources: true,
          validation: { notExported: false, notDocumented: false },
        }),
      );
      return typedoc(['--options', join(home, 'typedoc.json')]);
    };

    it('fails on a zod alias shown as a bare reference', () => {
      const { status, output } = fixture('no-zod-plugin', [checkPlugin]);
      expect(status).not.toBe(0);
      expect(output).toMatch(/Thing is documented as a bare reference to zod's input/);
    }, 120_000);

    it('fails on a field without a comment, in an expanded alias, an interface and a nested object', () => {
      const { status, output } = fixture('undocumented', ['typedoc-plugin-zod', checkPlugin]);
      expect(status).not.toBe(0);
      expect(output).not.toMatch(/bare reference/);
      expect(output).toMatch(/Thing\.count has no comment/);
      expect(output).toMatch(/Widget\.colour has no comment/);
      expect(output).toMatch(/Widget\.place\.row has no comment/);
      expect(output).not.toMatch(/Thing\.name has|Widget\.size has|Widget\.place has|Widget\.place\.shelf has/);
    }, 120_000);
  });
});
