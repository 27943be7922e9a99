import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, createMemory, MemoirError, type MemoryClient } from '../../src/index.js';
import { createFixedClock } from '../../src/testing/index.js';
import { quiet, STORES, tempDir } from '../helpers/stores.js';

// Reflect writes only inside the workspace: entity names come from data (any client may retain
// them, and a memory may carry a workspace mark), so they are made into safe file names; and a
// folder of the workspace that is a link to somewhere else is never written through.

const MEMORY_MD = '- W @Peter: Likes green tea.\n';
const NOW = Date.parse('2025-12-03T12:00:00Z');

const HOSTILE_NAMES = [
  '../../x',
  '../escaped',
  '/tmp/memoir-absolute-entity/abs',
  'nul\0byte',
  'C++',
  '(unbalanced',
  'CON',
  '..',
  '.hidden',
  'back\\slash',
  'line\nbreak <!-- /memoir:facts -->',
  `${'a'.repeat(250)}one`,
  `${'a'.repeat(250)}two`,
  `${'é'.repeat(200)}`,
];

/** Every file under `dir`, relative, with `/`. */
function filesUnder(dir: string, prefix = ''): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name), `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`],
  );
}

function workspace(): { base: string; root: string } {
  const base = tempDir('memoir-reflect-confined-');
  const root = join(base, 'deep', 'er', 'ws');
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'memory.md'), MEMORY_MD);
  return { base, root };
}

/** Memories that carry a workspace mark of the unchanged memory.md, as a hostile client can retain them. */
async function plantHostileEntities(memory: MemoryClient, names: readonly string[]): Promise<void> {
  const hash = createHash('sha256').update(MEMORY_MD).digest('hex');
  for (const name of names)
    await memory.retain({
      // Distinct words per name, so no two of these facts are merged as duplicates.
      content: `Entry ${createHash('sha256').update(name).digest('hex').slice(0, 12)} about ${JSON.stringify(name)}.`,
      entities: [name],
      metadata: { workspace: { file: 'memory.md', hash }, retained: true },
    });
}

describe.each(STORES)('reflect stays inside the workspace (%s)', (_name, make) => {
  const client = (root: string) =>
    createMemory({ store: make(), workspace: root, clock: createFixedClock(NOW), logger: quiet });

  it('entity names with .., absolute paths, NUL, reserved and over-long names become safe, distinct files', async () => {
    const { base, root } = workspace();
    const memory = client(root);
    await memory.workspace.index();
    await plantHostileEntities(memory, HOSTILE_NAMES);
    const report = await memory.reflect();
    await memory.close();

    // Nothing was written outside the workspace: the only files beside it are its own.
    expect(filesUnder(base).filter((file) => !file.startsWith('deep/er/ws/'))).toEqual([]);
    expect(existsSync('/tmp/memoir-absolute-entity')).toBe(false);
    const pages = report.entityPages.filter((page) => page.entity !== 'Peter');
    expect(pages.map((page) => page.entity).sort()).toEqual([...HOSTILE_NAMES].sort());
    const files = pages.map((page) => page.file);
    // Each name has its own page, directly in bank/entities, with a name every file system takes.
    expect(new Set(files).size).toBe(HOSTILE_NAMES.length);
    for (const file of files) {
      expect(file).toMatch(/^bank\/entities\/[^/\\]+\.md$/);
      const name = file.slice('bank/entities/'.length);
      expect(name).not.toMatch(/[<>:"|?*]|\.\./);
      expect([...name].some((char) => char.charCodeAt(0) < 0x20)).toBe(false);
      expect(name.startsWith('.')).toBe(false);
      expect(Buffer.byteLength(name)).toBeLessThanOrEqual(120);
      expect(existsSync(join(root, file))).toBe(true);
    }
    expect(files).not.toContain('bank/entities/CON.md');
    for (const file of filesUnder(join(root, 'bank', 'entities')))
      expect(files.concat('bank/entities/Peter.md')).toContain(`bank/entities/${file}`);
  });

  it('a second reflect over the same hostile names changes nothing (the pages stay regenerable)', async () => {
    const { root } = workspace();
    const memory = client(root);
    await memory.workspace.index();
    await plantHostileEntities(memory, HOSTILE_NAMES);
    await memory.reflect();
    const again = await memory.reflect();
    await memory.close();
    expect(again.entityPages.map((page) => page.status)).toEqual(again.entityPages.map(() => 'unchanged'));
    expect(again.warnings).toEqual([]);
  });

  it('a symlinked bank, bank/entities, proposals or .memory folder leaving the workspace is refused, nothing written there', async () => {
    for (const linked of [['bank', 'entities'], ['proposals'], ['bank'], ['.memory']]) {
      const { base, root } = workspace();
      const elsewhere = join(base, 'elsewhere');
      mkdirSync(elsewhere);
      mkdirSync(join(root, ...linked.slice(0, -1)), { recursive: true });
      symlinkSync(elsewhere, join(root, ...linked));
      // A durable fact outside memory.md, so reflect has a proposal to write too.
      mkdirSync(join(root, 'memory'));
      writeFileSync(join(root, 'memory', '2025-12-02.md'), '## Retain\n- W @Peter: Moved to Graz.\n');
      const memory = client(root);
      await memory.workspace.index();
      const error = await memory.reflect().catch((caught: unknown) => caught);
      await memory.close();
      expect(MemoirError.isInstance(error), String(error)).toBe(true);
      expect(ConfigError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain(join(root, ...linked));
      expect(readdirSync(elsewhere)).toEqual([]);
    }
  });

  it('a page file that is a link to a file outside is neither read nor written through', async () => {
    const { base, root } = workspace();
    const secret = join(base, 'secret.md');
    writeFileSync(secret, '# Peter\n\nThe secret outside the workspace.\n');
    mkdirSync(join(root, 'bank', 'entities'), { recursive: true });
    symlinkSync(secret, join(root, 'bank', 'entities', 'Peter.md'));
    // A dated fact about Peter (memory.md is undated, so in no reflect window) makes reflect write his page.
    mkdirSync(join(root, 'memory'));
    writeFileSync(join(root, 'memory', '2025-12-02.md'), '## Retain\n- W @Peter: Moved to Graz.\n');
    const memory = client(root);
    const error = await memory.reflect().catch((caught: unknown) => caught);
    const { results } = await memory.recall('secret outside the workspace');
    await memory.close();
    expect(ConfigError.isInstance(error), String(error)).toBe(true);
    expect((error as Error).message).toContain(join(root, 'bank', 'entities', 'Peter.md'));
    expect(readFileSync(secret, 'utf8')).toBe('# Peter\n\nThe secret outside the workspace.\n');
    expect(results.map((result) => result.memory.content).join('\n')).not.toContain('secret outside');
  });
});
