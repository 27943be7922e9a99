import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemory, type MemoryClient } from '../../src/index.js';
import { createFixedClock } from '../../src/testing/index.js';
import { STORES, tempDir } from '../helpers/stores.js';

// A huge workspace file (hundreds of thousands of bullets, tens of megabytes) never makes the
// whole workspace unindexable: it is refused by itself, with a reason naming the file and the
// limit, and every other file is indexed. A big file under the limits is indexed in batches.

const NOW = Date.parse('2025-12-03T12:00:00Z');

function workspace(): string {
  const root = join(tempDir('memoir-ws-big-'), 'ws');
  mkdirSync(join(root, 'memory'), { recursive: true });
  writeFileSync(join(root, 'memory', '2025-12-02.md'), '- Peter likes green tea.\n');
  return root;
}

function bullets(count: number, text: (index: number) => string): string {
  const lines: string[] = [];
  for (let index = 0; index < count; index++) lines.push(`- ${text(index)}`);
  return `${lines.join('\n')}\n`;
}

describe.each(STORES)('big workspace files (%s)', (_name, make) => {
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

  it('a memory.md of 200,000 bullets and a 50 MB bank file are refused by name; the rest is indexed', async () => {
    const root = workspace();
    writeFileSync(
      join(root, 'memory.md'),
      bullets(200_000, (index) => `W Item ${index} of the flood.`),
    );
    mkdirSync(join(root, 'bank'));
    // 50 MB without holding it in memory: one line written again and again.
    const fd = openSync(join(root, 'bank', 'huge.md'), 'w');
    const line = Buffer.from(`- ${'x'.repeat(1021)}\n`);
    for (let written = 0; written < 50 * 1024 * 1024; written += line.length) writeSync(fd, line);
    closeSync(fd);
    // Small in bytes, too many items: 300,000 one-character bullets.
    writeFileSync(
      join(root, 'memory', 'many.md'),
      bullets(300_000, () => 'a'),
    );

    const memory = client(root);
    const report = await memory.workspace.index();
    const contents = (await memory.list({ limit: 100 })).map((item) => item.content);
    await memory.close();
    expect(report.skipped.map((entry) => entry.file)).toEqual(['bank/huge.md', 'memory.md', 'memory/many.md']);
    for (const entry of report.skipped) expect(entry.reason).toMatch(/over the limit/);
    expect(report.skipped[0]!.reason).toContain('MAX_WORKSPACE_FILE_BYTES');
    expect(report.skipped[2]!.reason).toContain('MAX_WORKSPACE_FILE_ITEMS');
    expect(memory.warnings.some((warning) => warning.includes('memory.md') && warning.includes('over the limit'))).toBe(
      true,
    );
    expect(contents).toEqual(['Peter likes green tea.']);
    expect(report.changedFiles).toEqual(['memory/2025-12-02.md']);
  }, 120_000);

  it('a file of 3,000 bullets (several batches) is indexed whole, and re-indexed after an edit', async () => {
    const root = workspace();
    const path = join(root, 'memory', 'log.md');
    writeFileSync(
      path,
      bullets(3_000, (index) => `Log line ${index} about topic${index}.`),
    );
    const memory = client(root);
    const first = await memory.workspace.index();
    expect(first.indexed).toBe(3_001);
    expect(first.skipped).toEqual([]);
    writeFileSync(
      path,
      bullets(2_000, (index) => `Log line ${index} about topic${index}.`),
    );
    const second = await memory.workspace.index();
    const count = (await memory.stats()).memories;
    await memory.close();
    expect(second.changedFiles).toEqual(['memory/log.md']);
    expect(second.removed).toBe(1_000);
    expect(count).toBe(2_001);
  }, 120_000);
});
