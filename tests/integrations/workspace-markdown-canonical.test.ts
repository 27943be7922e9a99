import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createWorkspace } from '../../src/index.js';
import { tempDir } from '../helpers/stores.js';
import { connectMemoirMcp, dataOf, runMemoir as memoir } from './mcp-harness.js';

// Seed 004: "Markdown is canonical; the index is always rebuildable". What is retained into a
// workspace — through the library, MCP (`memoir mcp --workspace`, the official client) and the
// CLI (`memoir retain --workspace`, a child process) — lands in the day's Markdown and is
// indexed from there, so deleting `.memory/` and re-indexing recalls every one of them with its
// `memory/YYYY-MM-DD.md#L…` citation.

const CITATION = /^memory\/\d{4}-\d{2}-\d{2}\.md#L\d+$/;

function dayFiles(root: string): string {
  const folder = join(root, 'memory');
  if (!existsSync(folder)) return '';
  return readdirSync(folder)
    .sort()
    .map((name) => readFileSync(join(folder, name), 'utf8'))
    .join('\n');
}

describe('a workspace: Markdown is canonical, the index is rebuildable', () => {
  it('recalls what the library, MCP and the CLI retained after .memory/ is deleted and re-indexed', async () => {
    const root = join(tempDir('memoir-ws-canonical-'), 'ws');
    mkdirSync(root, { recursive: true });
    const home = tempDir('memoir-ws-canonical-home-');

    const library = createWorkspace({ root });
    try {
      await library.retain({ content: 'Peter keeps the spare keys in the blue drawer.', entities: ['Peter'] });
      await library.retain({
        content: 'Peter prefers concise replies on WhatsApp.',
        kind: 'opinion',
        entities: ['Peter'],
        metadata: { confidence: 0.8 },
      });
      await library.retain({
        content: 'Deploy checklist:\n- run the migrations\n\n## not a heading\nthen restart the @orders service',
        kind: 'experience',
      });
      await library.retain({
        messages: [
          { role: 'user', content: 'I moved the weekly sync to Thursdays at nine.' },
          { role: 'assistant', content: 'Noted: the weekly sync is on Thursdays at nine now.' },
        ],
        sessionId: 'chat-1',
      });
    } finally {
      await library.close();
    }

    const server = await connectMemoirMcp({ home, args: ['--workspace', root, '--no-watch'] });
    try {
      const stored = await server.call('memory_retain', {
        content: 'Andy adopted a grey cat named Pixel.',
        entities: ['Andy'],
      });
      expect(stored.isError).toBeFalsy();
      expect(dataOf(stored)).toBeTruthy();
    } finally {
      await server.close();
    }

    const cli = await memoir(
      home,
      'retain',
      'The staging deploy runs from the release branch.',
      '--workspace',
      root,
      '--entity',
      'staging',
    );
    expect(cli.stderr).toBe('');
    expect(cli.code).toBe(0);

    // Everything is in the day's Markdown, typed as seed 004 writes it.
    const markdown = dayFiles(root);
    expect(markdown).toContain('## Retain');
    expect(markdown).toMatch(/^- W @Peter: Peter keeps the spare keys in the blue drawer\./m);
    expect(markdown).toMatch(/^- O\(c=0\.8\) @Peter: Peter prefers concise replies on WhatsApp\./m);
    expect(markdown).toMatch(/^- W @Andy: Andy adopted a grey cat named Pixel\./m);
    expect(markdown).toContain('The staging deploy runs from the release branch.');
    expect(markdown).toContain('I moved the weekly sync to Thursdays at nine.');

    rmSync(join(root, '.memory'), { recursive: true, force: true });
    const indexed = await memoir(home, 'index', '--workspace', root);
    expect(indexed.code).toBe(0);

    // Recalled through the library over the index the CLI rebuilt (one child process less per query).
    const reader = createWorkspace({ root });
    const expectRecalled = async (query: string, content: string) => {
      const { results } = await reader.recall(query, { k: 50 });
      const hit = results.find((result) => result.memory.content === content);
      expect(hit, `${content} recalled for "${query}"`).toBeDefined();
      expect(hit!.citation).toMatch(CITATION);
      return hit!;
    };
    const keys = await expectRecalled('spare keys', 'Peter keeps the spare keys in the blue drawer.');
    expect(keys.memory.entities).toEqual(['Peter']);
    const opinion = await expectRecalled('concise replies', 'Peter prefers concise replies on WhatsApp.');
    expect(opinion.memory.kind).toBe('opinion');
    await expectRecalled(
      'deploy checklist migrations',
      'Deploy checklist:\n- run the migrations\n\n## not a heading\nthen restart the @orders service',
    );
    // The conversation's turns, kept as said (the speaker first), each its own memory.
    await expectRecalled('weekly sync Thursdays', 'user: I moved the weekly sync to Thursdays at nine.');
    await expectRecalled('weekly sync Thursdays', 'assistant: Noted: the weekly sync is on Thursdays at nine now.');
    await expectRecalled('grey cat Pixel', 'Andy adopted a grey cat named Pixel.');
    await expectRecalled('staging deploy branch', 'The staging deploy runs from the release branch.');
    await reader.close();
  }, 240_000);
});
