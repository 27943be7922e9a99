import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, createMemory, type MemoryClient } from '../../src/index.js';
import { createFixedClock } from '../../src/testing/index.js';
import { STORES, tempDir } from '../helpers/stores.js';

// The workspace reads and writes only inside its root: `memory.md`, `memory/`, `bank/` or any
// file under them that is a symbolic link leaving the root is not followed (skipped with a
// warning, never indexed, never recalled into a prompt, never written through); a link that
// stays inside is followed.

const NOW = Date.parse('2025-12-03T12:00:00Z');
const SECRET = 'Outside secret: the vault code is 4711.';

interface Layout {
  base: string;
  root: string;
  outsideDir: string;
  outsideFile: string;
}

function layout(): Layout {
  const base = tempDir('memoir-ws-links-');
  const root = join(base, 'ws');
  const outsideDir = join(base, 'outside');
  mkdirSync(join(root, 'memory'), { recursive: true });
  mkdirSync(outsideDir);
  writeFileSync(join(outsideDir, '2025-12-01.md'), `- ${SECRET}\n`);
  writeFileSync(join(outsideDir, 'page.md'), `- ${SECRET}\n`);
  const outsideFile = join(outsideDir, 'memory.md');
  writeFileSync(outsideFile, `- ${SECRET}\n`);
  writeFileSync(join(root, 'memory', '2025-12-02.md'), '- Peter likes green tea.\n');
  return { base, root, outsideDir, outsideFile };
}

describe.each(STORES)('workspace symlinks (%s)', (_name, make) => {
  function client(root: string): MemoryClient & { warnings: string[] } {
    const warnings: string[] = [];
    const memory = createMemory({
      store: make(),
      workspace: root,
      clock: createFixedClock(NOW),
      logger: { log: (level, message) => void (level === 'warn' && warnings.push(message)) },
    });
    return Object.assign(memory, { warnings });
  }

  async function indexedText(memory: MemoryClient): Promise<string> {
    const all = await memory.list({ limit: 1000 });
    return all.map((item) => item.content).join('\n');
  }

  const cases: Array<[string, (l: Layout) => void, string]> = [
    [
      'memory.md to an outside file (absolute target)',
      (l) => symlinkSync(l.outsideFile, join(l.root, 'memory.md')),
      'memory.md',
    ],
    [
      'memory.md to an outside file (relative ../ target)',
      (l) => symlinkSync('../outside/memory.md', join(l.root, 'memory.md')),
      'memory.md',
    ],
    ['bank/ to an outside folder', (l) => symlinkSync(l.outsideDir, join(l.root, 'bank')), 'bank'],
    [
      'memory/ to an outside folder',
      (l) => {
        rmSync(join(l.root, 'memory'), { recursive: true });
        symlinkSync(l.outsideDir, join(l.root, 'memory'));
      },
      'memory',
    ],
    [
      'a page under bank/entities to an outside file',
      (l) => {
        mkdirSync(join(l.root, 'bank', 'entities'), { recursive: true });
        symlinkSync(join(l.outsideDir, 'page.md'), join(l.root, 'bank', 'entities', 'Vault.md'));
      },
      'bank/entities/Vault.md',
    ],
    [
      'a folder inside memory/ to an outside folder',
      (l) => symlinkSync('../../outside', join(l.root, 'memory', 'archive')),
      'memory/archive',
    ],
  ];

  it.each(cases)('%s is not followed: skipped with a warning, never indexed or recalled', async (_case, link, file) => {
    const l = layout();
    link(l);
    const memory = client(l.root);
    const report = await memory.workspace.index();
    const { results } = await memory.recall('vault code secret', { k: 5 });
    const text = await indexedText(memory);
    await memory.close();
    expect(report.skipped.map((entry) => entry.file)).toEqual([file]);
    expect(report.skipped[0]!.reason).toContain('outside');
    expect(memory.warnings.some((warning) => warning.includes(file) && warning.includes('outside'))).toBe(true);
    expect(text).not.toContain('vault code');
    expect(results.map((result) => result.memory.content).join('\n')).not.toContain('vault code');
    if (file !== 'memory') expect(text).toContain('Peter likes green tea.');
  });

  it('a link that stays inside the workspace is followed; a link loop does not hang', async () => {
    const l = layout();
    mkdirSync(join(l.root, 'notes'));
    writeFileSync(join(l.root, 'notes', 'inside.md'), '- Inside note: the castle has a basement.\n');
    symlinkSync('../notes/inside.md', join(l.root, 'memory', 'inside.md'));
    mkdirSync(join(l.root, 'bank'));
    symlinkSync('..', join(l.root, 'bank', 'loop'));
    const memory = client(l.root);
    const report = await memory.workspace.index();
    const text = await indexedText(memory);
    await memory.close();
    expect(report.skipped).toEqual([]);
    expect(text).toContain('Inside note: the castle has a basement.');
  });

  it('a file indexed before and then replaced by a link leaving the workspace leaves the index', async () => {
    const l = layout();
    writeFileSync(join(l.root, 'memory.md'), '- W Peter lives in Vienna.\n');
    const memory = client(l.root);
    await memory.workspace.index();
    expect(await indexedText(memory)).toContain('Peter lives in Vienna.');
    rmSync(join(l.root, 'memory.md'));
    symlinkSync(l.outsideFile, join(l.root, 'memory.md'));
    const report = await memory.workspace.index();
    const text = await indexedText(memory);
    await memory.close();
    expect(report.removedFiles).toEqual(['memory.md']);
    expect(text).not.toContain('Peter lives in Vienna.');
    expect(text).not.toContain('vault code');
  });

  it('the core block does not read memory.md through a link leaving the workspace, and refuses to write through it', async () => {
    const l = layout();
    symlinkSync(l.outsideFile, join(l.root, 'memory.md'));
    const memory = client(l.root);
    const state = await memory.core.get();
    const error = await memory.core.append('- W Peter likes tea.').catch((caught: unknown) => caught);
    await memory.close();
    expect(state.text).not.toContain('vault code');
    expect(ConfigError.isInstance(error), String(error)).toBe(true);
    expect((error as Error).message).toContain(join(l.root, 'memory.md'));
    expect(readFileSync(l.outsideFile, 'utf8')).toBe(`- ${SECRET}\n`);
  });

  it('over-long file names, NUL bytes in a file and a .. named folder are read without escaping', async () => {
    const l = layout();
    writeFileSync(join(l.root, 'memory', `${'n'.repeat(240)}.md`), '- A note with a very long file name.\n');
    writeFileSync(join(l.root, 'memory', 'nul.md'), '- Before\0after the NUL byte.\n');
    mkdirSync(join(l.root, 'bank', 'x..y'), { recursive: true });
    writeFileSync(join(l.root, 'bank', 'x..y', 'odd.md'), '- An odd folder name.\n');
    const memory = client(l.root);
    const report = await memory.workspace.index();
    const text = await indexedText(memory);
    await memory.close();
    expect(report.skipped).toEqual([]);
    expect(text).toContain('A note with a very long file name.');
    expect(text).toContain('An odd folder name.');
    expect(text).toContain('after the NUL byte.');
  });
});
