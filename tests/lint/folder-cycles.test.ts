import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

// `npm run lint` runs scripts/check-folder-cycles.mjs: it must fail on folders that import each
// other even where no module cycle exists (what dependency-cruiser's own no-circular misses).

const run = promisify(execFile);
const repository = fileURLToPath(new URL('../..', import.meta.url));
const script = join(repository, 'scripts', 'check-folder-cycles.mjs');
const trees: string[] = [];

/** A project with this repository's dependency-cruiser configuration and the given files. */
function plantTree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'memoir-folder-cycles-'));
  trees.push(root);
  writeFileSync(join(root, '.dependency-cruiser.cjs'), readFileSync(join(repository, '.dependency-cruiser.cjs')));
  writeFileSync(
    join(root, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true } }),
  );
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

async function check(root: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [script, '--cwd', root]);
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: failed.stdout + failed.stderr };
  }
}

afterAll(() => {
  for (const root of trees.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe.concurrent('the folder-cycle check', () => {
  // One cruise for both planted loops, and both cases at once: each run of dependency-cruiser takes seconds.
  it('fails on folders that import each other through different modules (no module cycle), and on a longer loop', async () => {
    const root = plantTree({
      'src/core/alpha/alpha-api.ts': "import { b } from '../beta/beta-helper.js';\nexport const a = () => b;\n",
      'src/core/alpha/alpha-helper.ts': 'export const h = 1;\n',
      'src/core/beta/beta-helper.ts': "import { h } from '../alpha/alpha-helper.js';\nexport const b = h;\n",
      'src/core/gamma/c.ts': "import type { D } from '../delta/d.js';\nexport type C = D | 1;\n",
      'src/core/delta/d.ts': "import type { E } from '../epsilon/e.js';\nexport type D = E | 2;\n",
      'src/core/epsilon/e.ts': "import type { F } from '../gamma/f.js';\nexport type E = F | 3;\n",
      'src/core/gamma/f.ts': 'export type F = 4;\n',
      'src/core/zeta/z.ts': "import { b } from '../beta/beta-helper.js';\nexport const z = b;\n",
    });
    const { code, out } = await check(root);
    expect(code).toBe(1);
    expect(out).toContain('folder cycle: alpha ↔ beta\n');
    expect(out).toContain('src/core/alpha/alpha-api.ts → src/core/beta/beta-helper.ts');
    expect(out).toContain('src/core/beta/beta-helper.ts → src/core/alpha/alpha-helper.ts');
    expect(out).toContain('folder cycle: delta ↔ epsilon ↔ gamma\n');
    // zeta only points into the loop: it is not part of one.
    expect(out).not.toMatch(/cycle:.*zeta/);
  }, 30_000);

  it('passes folders that only point one way, through a shared layer below them', async () => {
    const root = plantTree({
      'src/core/alpha/alpha-api.ts': "import { s } from '../shared/s.js';\nexport const a = s;\n",
      'src/core/beta/beta-api.ts':
        "import { s } from '../shared/s.js';\nimport { a } from '../alpha/alpha-api.js';\nexport const b = s + a;\n",
      'src/core/shared/s.ts': 'export const s = 1;\n',
    });
    const { code, out } = await check(root);
    expect(out).toContain('no folder cycles among 3 folders');
    expect(code).toBe(0);
  }, 30_000);
});
