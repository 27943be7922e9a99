import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/stores.js';
import { connectMemoirMcp, dataOf, textOf } from './mcp-harness.js';

// memory_reflect over `memoir mcp --workspace <dir>` with the official MCP client and no model:
// the answer lists bank/world.md and bank/experience.md and says which prose-only daily log
// got no Retain bullets because no model is set (text and structured content).

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe('memoir mcp --workspace: memory_reflect reports bank pages and skipped logs', () => {
  it('writes the bank pages and names the log skipped for want of a model', async () => {
    const root = join(tempDir('memoir-mcp-reflect-bank-'), 'ws');
    mkdirSync(join(root, 'memory'), { recursive: true });
    const yesterday = isoDay(Date.now() - 86_400_000);
    const today = isoDay(Date.now());
    writeFileSync(
      join(root, 'memory', `${yesterday}.md`),
      `# ${yesterday}\n\n## Retain\n\n- W @Peter: Peter keeps the spare keys in the blue drawer.\n`,
    );
    writeFileSync(join(root, 'memory', `${today}.md`), `# ${today}\n\nPeter fixed the garage door.\n`);
    const server = await connectMemoirMcp({
      home: tempDir('memoir-mcp-reflect-bank-home-'),
      args: ['--workspace', root, '--no-watch', '--reflect-every', 'off'],
    });
    try {
      const result = await server.call('memory_reflect', {});
      const text = textOf(result);
      expect(text).toContain('- page bank/world.md: created');
      expect(text).toContain(`- ## Retain not inferred for memory/${today}.md: no language model is set`);
      const data = dataOf<{ retainSections: { skipped: Array<{ file: string }> } }>(result);
      expect(data.retainSections.skipped.map((skipped) => skipped.file)).toEqual([`memory/${today}.md`]);
      expect(readFileSync(join(root, 'bank', 'world.md'), 'utf8')).toContain('Peter keeps the spare keys');
    } finally {
      await server.close();
    }
  }, 60_000);
});
