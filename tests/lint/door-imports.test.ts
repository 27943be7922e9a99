import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

// `npm run lint` refuses a door importing another door (.dependency-cruiser.cjs): planted trees
// with this repository's configuration, cruised by the real dependency-cruiser.

const run = promisify(execFile);
const repository = fileURLToPath(new URL('../..', import.meta.url));
const depcruise = join(repository, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
const trees: string[] = [];

function plantTree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'memoir-door-imports-'));
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

async function cruise(root: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [depcruise, 'src', '--config', '.dependency-cruiser.cjs'], {
      cwd: root,
    });
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: failed.stdout + failed.stderr };
  }
}

afterAll(() => {
  for (const root of trees.splice(0)) rmSync(root, { recursive: true, force: true });
});

const exported = 'export const x = 1;\n';

describe.concurrent('doors do not import doors', () => {
  it('refuses a door importing another, shared door code importing a door, and the CLI reaching inside a door or loading it eagerly', async () => {
    const root = plantTree({
      'src/integrations/ai-sdk/tools.ts': "import { x } from '../openclaw/scoped.js';\nexport const y = x;\n",
      'src/integrations/openclaw/scoped.ts': exported,
      'src/integrations/agent-tools/table.ts': "import { x } from '../mcp/server.js';\nexport const t = x;\n",
      'src/integrations/mcp/server.ts': exported,
      'src/integrations/mcp/index.ts': exported,
      'src/cli/commands.ts':
        "import { x } from '../integrations/mcp/server.js';\nimport { x as e } from '../integrations/mcp/index.js';\nexport const c = x + e;\n",
    });
    const { code, out } = await cruise(root);
    expect(code).not.toBe(0);
    expect(out).toMatch(
      /no-door-imports-another-door: src\/integrations\/ai-sdk\/tools\.ts → src\/integrations\/openclaw\/scoped\.ts/,
    );
    expect(out).toMatch(
      /shared-door-code-imports-no-door: src\/integrations\/agent-tools\/table\.ts → src\/integrations\/mcp\/server\.ts/,
    );
    expect(out).toMatch(
      /cli-starts-a-door-through-its-entry: src\/cli\/commands\.ts → src\/integrations\/mcp\/server\.ts/,
    );
    expect(out).toMatch(/cli-loads-other-doors-lazily: src\/cli\/commands\.ts → src\/integrations\/mcp\/index\.ts/);
  }, 60_000);

  it('passes doors that share the tool table and the HTTP guard, and a CLI that loads a door by its entry when asked', async () => {
    const root = plantTree({
      'src/integrations/ai-sdk/tools.ts':
        "import { x } from '../agent-tools/table.js';\nimport { x as g } from '../http-guard/guard.js';\nexport const y = x + g;\n",
      'src/integrations/agent-tools/table.ts': exported,
      'src/integrations/http-guard/guard.ts': exported,
      'src/integrations/mcp/index.ts': "import { x } from '../agent-tools/table.js';\nexport const m = x;\n",
      'src/cli/commands.ts': "export const start = async () => (await import('../integrations/mcp/index.js')).m;\n",
    });
    const { code, out } = await cruise(root);
    expect(out).toContain('no dependency violations found');
    expect(code).toBe(0);
  }, 60_000);
});
