import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/stores.js';
import { connectMemoirMcp, eventually, textOf } from './mcp-harness.js';

// `memoir mcp --workspace <dir>` in a child process, driven by the official MCP client: the
// workspace is indexed before the first call (recall finds its facts at once), and the index
// follows the files while the server runs — an edit is recalled with its new words and not its
// old ones, and a deleted file's facts leave.

function workspace(): string {
  const root = join(tempDir('memoir-mcp-ws-'), 'ws');
  mkdirSync(join(root, 'memory'), { recursive: true });
  writeFileSync(join(root, 'memory.md'), '# Core memory\n\n- W @Peter: Peter owns this workspace.\n');
  return root;
}

const day = (root: string, date: string, lines: string[]) =>
  writeFileSync(
    join(root, 'memory', `${date}.md`),
    `# ${date}\n\n## Retain\n\n${lines.map((line) => `- ${line}`).join('\n')}\n`,
  );

const recallText = async (server: Awaited<ReturnType<typeof connectMemoirMcp>>, query: string) =>
  textOf(await server.call('memory_recall', { query, k: 5 }));

describe('memoir mcp --workspace: a live source', () => {
  it('recalls a workspace fact right after start, an edit made while it runs, and not a deleted file', async () => {
    const root = workspace();
    day(root, '2025-12-01', ['W @Peter: Peter keeps the spare keys in the blue drawer.']);
    day(root, '2025-12-02', ['W @Andy: Andy adopted a grey cat named Pixel.']);
    const server = await connectMemoirMcp({
      home: tempDir('memoir-mcp-ws-home-'),
      args: ['--workspace', root, '--watch-debounce', '100'],
    });
    try {
      // Indexed before serving: no reflect, no index call needed.
      const first = await recallText(server, 'where are the spare keys');
      expect(first).toContain('blue drawer');
      expect(first).toContain('memory/2025-12-01.md#L5');

      day(root, '2025-12-01', ['W @Peter: Peter keeps the spare keys in the green cabinet.']);
      const edited = await eventually(
        () => recallText(server, 'where are the spare keys'),
        (text) => text.includes('green cabinet'),
        20_000,
      );
      expect(edited).not.toContain('blue drawer');

      expect(await recallText(server, 'Andy cat name')).toContain('Pixel');
      rmSync(join(root, 'memory', '2025-12-02.md'));
      await eventually(
        () => recallText(server, 'Andy cat name'),
        (text) => !text.includes('Pixel'),
        20_000,
      );

      // A file added while it runs, in a folder made while it runs.
      mkdirSync(join(root, 'bank', 'entities'), { recursive: true });
      writeFileSync(join(root, 'bank', 'entities', 'Andy.md'), '# Andy\n\nAndy plays the cello on Sundays.\n');
      await eventually(
        () => recallText(server, 'what instrument does Andy play'),
        (text) => text.includes('cello'),
        20_000,
      );
      expect(server.stderr()).toContain('watching for changes');

      // memory_reflect on demand works over the live workspace.
      const reflected = await server.call('memory_reflect', { since: '2025-11-01' });
      expect(reflected.isError).toBeFalsy();
      expect(textOf(reflected)).toContain('bank/entities/Peter.md');
    } finally {
      await server.close();
    }
  }, 90_000);

  it('--no-watch indexes once at start; workspace-only flags without --workspace are a usage error', async () => {
    const root = workspace();
    day(root, '2025-12-01', ['W @Peter: Peter keeps the spare keys in the blue drawer.']);
    const server = await connectMemoirMcp({
      home: tempDir('memoir-mcp-ws-home-'),
      args: ['--workspace', root, '--no-watch', '--reflect-every', 'off'],
    });
    try {
      expect(await recallText(server, 'where are the spare keys')).toContain('blue drawer');
      expect(server.stderr()).not.toContain('watching for changes');
    } finally {
      await server.close();
    }
    await expect(
      connectMemoirMcp({ home: tempDir('memoir-mcp-ws-home-'), args: ['--reflect-every', 'off'] }),
    ).rejects.toThrow();
  }, 60_000);
});
