import { appendFileSync, existsSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, createMemory, type RecallResponse, workspaceIndexPath } from '../../src/index.js';
import { createTestStore } from '../../src/testing/index.js';
import { fixtureCopy, workspaceClient } from '../helpers/workspace.js';

const QUERIES = [
  'Baileys WS crash fix',
  'where is Peter in late November',
  'Peter prefers concise replies',
  'The Castle basement server',
  'sqlite-vec vector table rebuild',
  'weekly summary Monday',
];

const view = (response: RecallResponse) =>
  response.results.map((result) => [result.memory.id, result.citation, result.score.toFixed(6)]);

async function recallAll(root: string) {
  const memory = workspaceClient(root);
  try {
    await memory.workspace.index();
    const out = [];
    for (const query of QUERIES) out.push(view(await memory.recall(query, { k: 5 })));
    return out;
  } finally {
    await memory.close();
  }
}

describe('workspace indexing', () => {
  it('reads Retain bullets with kind, entities, confidence, dates and path#Lline citations', async () => {
    const root = fixtureCopy();
    const memory = workspaceClient(root);
    const report = await memory.workspace.index();
    expect(report.files).toBe(14);
    expect(existsSync(workspaceIndexPath(root))).toBe(true);

    const { results } = await memory.recall('Baileys WS crash try/catch', { k: 3 });
    const fix = results[0]!;
    expect(fix.citation).toBe('memory/2025-11-27.md#L9');
    expect(fix.memory).toMatchObject({
      kind: 'experience',
      entities: ['warelay'],
      occurredAt: '2025-11-27T00:00:00.000Z',
      content:
        'warelay: I fixed the Baileys WS crash by wrapping connection.update handlers in try/catch (see memory/2025-11-27.md).',
    });
    const lines = readFileSync(join(root, 'memory/2025-11-27.md'), 'utf8').split('\n');
    expect(lines[8]).toContain('I fixed the Baileys WS crash');

    const opinion = (await memory.recall('concise replies WhatsApp', { kinds: ['opinion'], k: 5 })).results.find(
      (result) => result.citation === 'memory/2025-11-27.md#L10',
    );
    expect(opinion?.memory.metadata).toMatchObject({ confidence: 0.95, retained: true });
    expect(opinion?.memory.entities).toEqual(['Peter']);

    // A stated range wins over the day file's date.
    const trip = (await memory.recall('Marrakech Andy birthday', { k: 5 })).results.find(
      (result) => result.citation === 'memory/2025-11-24.md#L7',
    );
    expect(trip?.memory.occurredAt).toBe('2025-11-27T00:00:00.000Z');
    expect(trip?.memory.metadata.timeRange).toEqual({
      start: '2025-11-27T00:00:00.000Z',
      end: '2025-12-01T23:59:59.999Z',
    });
    await memory.close();
  });

  it('indexes paragraphs and list items outside Retain, and entity pages under their entity', async () => {
    const memory = workspaceClient(fixtureCopy());
    await memory.workspace.index();
    const paragraph = (await memory.recall('UPS covers the rack', { k: 3 })).results[0]!;
    expect(paragraph.citation).toBe('memory/2025-11-17.md#L3');
    expect(paragraph.memory.metadata.retained).toBe(false);
    const item = (await memory.recall('TLS certificate renewed', { k: 3 })).results[0]!;
    expect(item.citation).toBe('memory/2025-12-01.md#L6');
    expect(item.memory.content).toBe('Renewed the TLS certificate of The Castle.');
    const pages = await memory.list({ categories: ['entities'], entities: ['Peter'], orderBy: 'occurredAt' });
    const page = pages.find((m) => m.source?.file === 'bank/entities/Peter.md');
    expect(page).toMatchObject({ source: { line: 3 }, entities: ['Peter'], kind: 'world' });
    await memory.close();
  });

  it('keeps a malformed line as plain text with a warning naming file and line', async () => {
    const memory = workspaceClient(fixtureCopy());
    const report = await memory.workspace.index();
    expect(report.warnings).toEqual([
      { file: 'memory/2025-11-20.md', line: 11, message: 'unknown type prefix "X" (expected W, B, O or S)' },
      { file: 'memory/2025-11-20.md', line: 12, message: 'expected a confidence between 0 and 1, got c=1.7' },
    ]);
    expect(memory.warnings.some((line) => line.includes('memory/2025-11-20.md:11'))).toBe(true);
    const tea = (await memory.recall('Peter likes tea', { k: 3 })).results[0]!;
    expect(tea.citation).toBe('memory/2025-11-20.md#L11');
    expect(tea.memory.kind).toBe('experience');
    const dark = (await memory.recall('dark mode everywhere', { k: 3 })).results[0]!;
    expect(dark.citation).toBe('memory/2025-11-20.md#L12');
    expect(dark.memory.metadata.confidence).toBeUndefined();
    await memory.close();
  });

  it('warns about a date that does not exist and about an untyped Retain bullet', async () => {
    const root = fixtureCopy();
    writeFileSync(
      join(root, 'memory/2025-02-30.md'),
      '# Feb 30\n\n## Retain\n- just a note without a prefix\n- W: met on Feb 30, 2025\n',
    );
    const memory = workspaceClient(root);
    const report = await memory.workspace.index();
    expect(report.warnings.filter((w) => w.file === 'memory/2025-02-30.md').map((w) => w.line)).toEqual([1, 4, 5]);
    await memory.close();
  });

  it('delete the index and rebuild it: identical recall results', async () => {
    const root = fixtureCopy();
    const first = await recallAll(root);
    rmSync(join(root, '.memory'), { recursive: true, force: true });
    const second = await recallAll(root);
    expect(second).toEqual(first);
    expect(first.flat().length).toBeGreaterThan(20);
  });

  it('re-reads only changed files; removed lines and deleted files leave the index', async () => {
    const root = fixtureCopy();
    const memory = workspaceClient(root);
    await memory.workspace.index();
    const again = await memory.workspace.index();
    expect(again.changedFiles).toEqual([]);
    expect(again.indexed).toBe(0);

    appendFileSync(join(root, 'memory/2025-12-01.md'), '- B @warelay: I tagged release 2.4 of warelay.\n');
    const file = join(root, 'memory/2025-11-20.md');
    writeFileSync(file, readFileSync(file, 'utf8').replace(/^.*dark mode.*$/m, ''));
    unlinkSync(join(root, 'bank/experience.md'));
    const changed = await memory.workspace.index();
    expect(changed.changedFiles).toEqual(['memory/2025-11-20.md', 'memory/2025-12-01.md']);
    expect(changed.removedFiles).toEqual(['bank/experience.md']);
    expect((await memory.recall('tagged release 2.4', { k: 1 })).results[0]?.citation).toBe('memory/2025-12-01.md#L11');
    const citations = (await memory.list({ limit: 1000 })).map((m) => m.source?.file);
    expect(citations).not.toContain('bank/experience.md');
    expect((await memory.list({ limit: 1000 })).some((m) => m.content.includes('dark mode'))).toBe(false);
    await memory.close();
  });

  it('refuses index() on a client without a workspace, and bad options name the field', async () => {
    const memory = createMemory({ store: createTestStore() });
    await expect(memory.workspace.index()).rejects.toBeInstanceOf(ConfigError);
    await memory.close();
    const ws = workspaceClient(fixtureCopy());
    await expect(ws.workspace.index({ rebuild: 'yes' } as never)).rejects.toThrow(/options\.rebuild/);
    await ws.close();
  });
});
