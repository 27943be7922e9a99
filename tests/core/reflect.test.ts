import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { smallMoveBound } from '../../src/core/reflect/opinion-rule.js';
import { ConfigError, createMemory } from '../../src/index.js';
import { createScriptedLanguageModel, createTestStore } from '../../src/testing/index.js';
import { fixtureCopy, workspaceClient } from '../helpers/workspace.js';

// reflect over the hand-written workspace; the client's clock is 2025-12-03 noon, so the
// default window (7d) starts 2025-11-26.

const read = (root: string, path: string) => readFileSync(join(root, path), 'utf8');

describe('reflect', () => {
  it('writes deterministic entity pages with cited facts in a marked section, keeping the hand-written part', async () => {
    const root = fixtureCopy();
    const memory = workspaceClient(root);
    const report = await memory.reflect();
    expect(report.since).toBe('2025-11-26T12:00:00.000Z');
    expect(report.entityPages.find((page) => page.entity === 'Peter')).toMatchObject({
      file: 'bank/entities/Peter.md',
      status: 'created',
    });
    const page = read(root, 'bank/entities/Peter.md');
    expect(page.startsWith('# Peter\n\nPeter owns the workspace and The Castle.')).toBe(true);
    expect(page).toMatch(/<!-- memoir:facts sha256=[0-9a-f]{16} -->\n## What memoir knows about Peter/);
    // The stay ended on Dec 1 (the clock is Dec 3): history, with the day it ended, not a current fact.
    expect(page).toContain(
      '- 2025-11-27 – 2025-12-01: Peter: Currently in Marrakech (Nov 27–Dec 1, 2025) for Andy’s birthday. (ended 2025-12-01) — [memory/2025-11-24.md#L7](../../memory/2025-11-24.md#L7)',
    );
    expect(page.indexOf('Marrakech')).toBeGreaterThan(page.indexOf('### History'));
    expect(page.indexOf('### World')).toBeLessThan(page.indexOf('### Opinions'));
    // A new page for an entity that had none.
    expect(read(root, 'bank/entities/Andy.md')).toContain('# Andy\n\n<!-- memoir:facts');
    await memory.close();

    const other = fixtureCopy();
    const again = workspaceClient(other);
    await again.reflect();
    await again.close();
    for (const file of [
      'bank/entities/Peter.md',
      'bank/entities/warelay.md',
      'bank/opinions.md',
      'proposals/memory.md',
    ])
      expect(read(other, file)).toBe(read(root, file));
  });

  it('a second reflect changes nothing; a hand edit of a generated section survives, with a warning', async () => {
    const root = fixtureCopy();
    const memory = workspaceClient(root);
    await memory.reflect();
    const second = await memory.reflect();
    expect(second.entityPages.every((page) => page.status === 'unchanged')).toBe(true);
    expect(second.opinions).toEqual([]);

    const path = join(root, 'bank/entities/Peter.md');
    const edited = read(root, 'bank/entities/Peter.md').replace('### World', '### World (checked by Peter)');
    writeFileSync(path, edited);
    writeFileSync(
      join(root, 'memory/2025-12-02.md'),
      '# 2025-12-02\n\n## Retain\n\n- W @Peter @warelay: Peter merged the warelay reconnect fix.\n',
    );
    const third = await memory.reflect();
    expect(third.entityPages.find((page) => page.entity === 'Peter')?.status).toBe('hand-edited');
    expect(third.entityPages.find((page) => page.entity === 'warelay')?.status).toBe('updated');
    expect(third.warnings).toContain(
      'bank/entities/Peter.md: the generated section was edited by hand, so it was left as it is',
    );
    expect(read(root, 'bank/entities/Peter.md')).toBe(edited);
    expect(read(root, 'bank/entities/warelay.md')).toContain('Peter merged the warelay reconnect fix.');
    await memory.close();
  });

  it('moves opinions by small steps, a big drop only on strong contradiction from three files, and keeps it across a rebuild', async () => {
    const root = fixtureCopy();
    const memory = workspaceClient(root);
    const first = await memory.reflect();
    const concise = first.opinions.find((change) => change.citation === 'memory.md#L6')!;
    expect(concise.before).toBe(0.9);
    expect(concise.after).toBeGreaterThan(0.9);
    expect(concise.after).toBeLessThan(0.94);
    expect(concise.supporting.length).toBeGreaterThanOrEqual(1);
    expect(concise.contradicting).toEqual([]);

    const against = 'Peter no longer prefers concise replies on WhatsApp; long content goes into files anyway.';
    writeFileSync(join(root, 'memory/2025-12-02.md'), `# 2025-12-02\n\n## Retain\n\n- W @Peter: ${against}\n`);
    const one = (await memory.reflect()).opinions.find((change) => change.citation === 'memory.md#L6')!;
    expect(one.contradicting).toHaveLength(1);
    expect(one.bigDrop).toBe(false);
    expect(one.before - one.after).toBeLessThan(0.05);

    for (const day of ['2025-12-01', '2025-12-03'])
      writeFileSync(join(root, `memory/${day}-note.md`), `# ${day}\n\n## Retain\n\n- W @Peter: ${against}\n`);
    writeFileSync(
      join(root, 'memory/2025-12-02.md'),
      `# 2025-12-02\n\n## Retain\n\n- W @Peter: ${against} Said again.\n`,
    );
    const many = (await memory.reflect()).opinions.find((change) => change.citation === 'memory.md#L6')!;
    expect(many.contradicting).toHaveLength(3);
    expect(many.bigDrop).toBe(true);
    // Further than one reflect may move it otherwise.
    expect(many.before - many.after).toBeGreaterThan(smallMoveBound(many.before));

    const opinions = read(root, 'bank/opinions.md');
    expect(opinions).toContain(
      `- c=${many.after} (was ${many.before}, 2025-12-03) Peter: Prefers concise replies on WhatsApp`,
    );
    const recalled = await memory.recall('What does Peter prefer?', { k: 10 });
    const held = recalled.results.find((result) => result.citation === 'memory.md#L6')!;
    expect(held.confidence).toBe(many.after);
    expect(held.evidence).toContain(`against:${many.contradicting[0]}`);
    await memory.close();

    // The index is derived: rebuilt from the files, the opinion holds the same confidence.
    const { rmSync } = await import('node:fs');
    rmSync(join(root, '.memory'), { recursive: true, force: true });
    const rebuilt = workspaceClient(root);
    await rebuilt.workspace.index();
    const after = await rebuilt.recall('What does Peter prefer?', { k: 10 });
    expect(after.results.find((result) => result.citation === 'memory.md#L6')?.confidence).toBe(many.after);
    await rebuilt.close();
  });

  it('proposes durable facts and firm preferences for memory.md, and leaves memory.md alone', async () => {
    const root = fixtureCopy();
    const before = read(root, 'memory.md');
    const memory = workspaceClient(root);
    const report = await memory.reflect();
    expect(report.coreProposals.lines).toContain(
      '- W @Peter: Peter returned to Vienna on Dec 1, 2025. <!-- from memory/2025-12-01.md#L10 -->',
    );
    // Already in memory.md in other words: not proposed again.
    expect(report.coreProposals.lines.some((line) => line.includes('Prefers concise replies'))).toBe(false);
    expect(read(root, 'proposals/memory.md')).toContain('Move a line into memory.md to accept it');
    expect(read(root, 'memory.md')).toBe(before);
    await memory.close();
  });

  it('with a model, the page opens with its summary', async () => {
    const root = fixtureCopy();
    const model = createScriptedLanguageModel((request) => ({
      text: request.messages[0]!.content.startsWith('Entity: Peter')
        ? 'Peter lives in Vienna and likes short replies.'
        : 'A summary.',
    }));
    const memory = workspaceClient(root, { languageModel: model });
    await memory.reflect();
    expect(read(root, 'bank/entities/Peter.md')).toContain(
      '## What memoir knows about Peter\n\nPeter lives in Vienna and likes short replies.\n\n### World',
    );
    await memory.close();
  });

  it('refuses without a workspace, and a bad since names the field', async () => {
    const memory = createMemory({ store: createTestStore() });
    await expect(memory.reflect()).rejects.toBeInstanceOf(ConfigError);
    await memory.close();
    const ws = workspaceClient(fixtureCopy());
    await expect(ws.reflect({ since: 'soon' })).rejects.toThrow(/options\.since/);
    await ws.close();
  });
});
