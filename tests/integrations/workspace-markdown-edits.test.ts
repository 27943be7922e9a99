import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createLocalEmbedder,
  createMemory,
  createWorkspace,
  type Embedder,
  type GenerateRequest,
} from '../../src/index.js';
import { createFixedClock, createScriptedLanguageModel } from '../../src/testing/index.js';
import { tempDir } from '../helpers/stores.js';
import { connectMemoirMcp, dataOf, runMemoir as memoir, textOf } from './mcp-harness.js';

// Seed 004, the index always rebuildable: an edit or a forget through any door edits the
// Markdown (a rebuild does not bring the old words or the forgotten line back); two processes
// writing one day file lose nothing; `memoir mcp --workspace` and the CLI share one index.

function workspaceRoot(): string {
  const root = join(tempDir('memoir-ws-edits-'), 'ws');
  mkdirSync(join(root, 'memory'), { recursive: true });
  return root;
}

function markdown(root: string): string {
  return readdirSync(join(root, 'memory'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => readFileSync(join(root, 'memory', name), 'utf8'))
    .join('\n');
}

describe('a workspace: edits and forgets reach the Markdown', () => {
  it('update, invalidate and forget (library and CLI) rewrite or remove the lines; a rebuild agrees', async () => {
    const root = workspaceRoot();
    const home = tempDir('memoir-ws-edits-home-');
    writeFileSync(
      join(root, 'memory', '2025-11-27.md'),
      '# 2025-11-27\n\n## Retain\n\n- W @Peter: Peter parks in the north garage.\n- W @Ana: Ana runs the Tuesday standup.\n',
    );
    const memory = createWorkspace({ root });
    let kept: string;
    let handWritten: string;
    try {
      await memory.workspace.index();
      const { ids } = await memory.retain([
        { content: 'The release train leaves on Wednesdays.', entities: ['release'] },
        { content: 'The office plant is a fern called Gerald.' },
        { content: 'Staging runs on the old cluster.' },
      ]);
      const [release, plant, staging] = ids as [string, string, string];
      kept = release;
      await memory.update(release, { content: 'The release train leaves on Thursdays.' });
      await memory.invalidate(staging, 'staging moved to the new cluster');
      expect(await memory.forget(plant)).toBe(1);
      // A line a person wrote is forgotten from the file too.
      const garage = (await memory.recall('north garage', { k: 3 })).results[0]!;
      expect(garage.citation).toBe('memory/2025-11-27.md#L5');
      expect(await memory.forget(garage.memory.id)).toBe(1);
      handWritten = (await memory.recall('Tuesday standup', { k: 3 })).results[0]!.memory.id;
    } finally {
      await memory.close();
    }
    let text = markdown(root);
    expect(text).toContain('The release train leaves on Thursdays.');
    expect(text).not.toContain('Wednesdays');
    expect(text).not.toContain('fern called Gerald');
    expect(text).not.toContain('north garage');
    expect(text).toContain('Ana runs the Tuesday standup.');
    expect(text).toContain('"invalidationReason":"staging moved to the new cluster"');

    // The CLI's forget and update edit the same file.
    const forgot = await memoir(home, 'forget', handWritten, '--workspace', root);
    expect(forgot.stderr).toBe('');
    expect(forgot.code).toBe(0);
    const updated = await memoir(
      home,
      'update',
      kept,
      '--content',
      'The release train leaves on Fridays.',
      '--workspace',
      root,
    );
    expect(updated.code).toBe(0);
    text = markdown(root);
    expect(text).not.toContain('Tuesday standup');
    expect(text).toContain('The release train leaves on Fridays.');
    expect(text).not.toContain('Thursdays');

    rmSync(join(root, '.memory'), { recursive: true, force: true });
    const rebuilt = createWorkspace({ root });
    try {
      await rebuilt.workspace.index();
      const all = await rebuilt.list({ limit: 100 });
      const contents = all.map((item) => item.content).sort();
      expect(contents).toContain('The release train leaves on Fridays.');
      expect(contents).toContain('Staging runs on the old cluster.');
      expect(contents.join('\n')).not.toMatch(/Gerald|north garage|Tuesday standup|Wednesdays|Thursdays/);
      const release = all.find((item) => item.id === kept)!;
      expect(release.source?.file).toMatch(/^memory\/\d{4}-\d{2}-\d{2}\.md$/);
      const staging = all.find((item) => item.content === 'Staging runs on the old cluster.')!;
      expect(staging.invalidationReason).toBe('staging moved to the new cluster');
      expect(staging.validTo).not.toBeNull();
      // Recall answers what holds now: the invalidated one only when asked.
      const now = await rebuilt.recall('staging cluster', { k: 5 });
      expect(now.results.map((result) => result.memory.content)).not.toContain('Staging runs on the old cluster.');
    } finally {
      await rebuilt.close();
    }
  }, 120_000);

  it("what a model extracts from a conversation is written too, and reextract's replacements are marked invalid there", async () => {
    const root = workspaceRoot();
    const state = { fact: 'Sam moved the weekly sync to Thursdays.' };
    // Only the model is scripted: it extracts one fact from whatever conversation it is shown.
    const languageModel = createScriptedLanguageModel((request: GenerateRequest) => {
      const text = request.messages.map((message) => message.content).join('\n');
      if (!text.includes('Extract the memories worth keeping'))
        return JSON.stringify({ decision: 'CREATE', reason: 'new' });
      const content = state.fact;
      return JSON.stringify({
        memories: [{ category: 'events', abstract: content, overview: `- ${content}`, content, entities: ['Sam'] }],
      });
    });
    const memory = createWorkspace({ root, languageModel });
    try {
      const result = await memory.retain({
        messages: [
          { role: 'user', name: 'Sam', content: 'From now on the weekly sync is on Thursdays.' },
          { role: 'assistant', content: 'Noted.' },
          { role: 'user', name: 'Sam', content: 'Same room as before.' },
          { role: 'assistant', content: 'Got it.' },
        ],
        sessionId: 'sync-chat',
      });
      expect(result.memories.map((m) => m.content)).toContain('Sam moved the weekly sync to Thursdays.');
      expect(result.memories[0]!.source?.file).toMatch(/^memory\/\d{4}-\d{2}-\d{2}\.md$/);
      expect(markdown(root)).toContain('Sam moved the weekly sync to Thursdays.');
      state.fact = 'Sam holds the weekly sync on Thursdays at nine.';
      const again = await memory.reextract({ sessionId: 'sync-chat' });
      expect(again.invalidated).toHaveLength(1);
    } finally {
      await memory.close();
    }
    expect(markdown(root)).toContain('Sam holds the weekly sync on Thursdays at nine.');
    rmSync(join(root, '.memory'), { recursive: true, force: true });
    const rebuilt = createWorkspace({ root });
    try {
      await rebuilt.workspace.index();
      const all = await rebuilt.list({ limit: 100 });
      const first = all.find((item) => item.content === 'Sam moved the weekly sync to Thursdays.')!;
      expect(first.validTo).not.toBeNull();
      const second = all.find((item) => item.content === 'Sam holds the weekly sync on Thursdays at nine.')!;
      expect(second.validTo).toBeNull();
      expect(second.category).toBe('events');
    } finally {
      await rebuilt.close();
    }
  }, 60_000);

  it("a deleted session's turns leave the day file too", async () => {
    const root = workspaceRoot();
    const memory = createWorkspace({ root });
    try {
      await memory.retain({
        messages: [
          { role: 'user', content: 'My locker code is 4411.' },
          { role: 'assistant', content: 'I will remember the locker code.' },
        ],
        sessionId: 'locker-chat',
      });
      await memory.retain('The team lunch is on Friday.');
      expect(markdown(root)).toContain('My locker code is 4411.');
      expect(await memory.deleteSession('locker-chat', { confirm: true })).toBeGreaterThan(0);
      await memory.flush();
    } finally {
      await memory.close();
    }
    const text = markdown(root);
    expect(text).not.toContain('locker');
    expect(text).toContain('The team lunch is on Friday.');
  }, 60_000);

  it('createMemory({ workspace }) keeps its index in the workspace, where createWorkspace reads it', async () => {
    const root = workspaceRoot();
    const home = tempDir('memoir-ws-edits-home-');
    const memory = createMemory({ workspace: root, home });
    try {
      await memory.retain('The boiler was serviced in October.');
    } finally {
      await memory.close();
    }
    expect(existsSync(join(root, '.memory', 'index.sqlite'))).toBe(true);
    expect(existsSync(join(home, 'memoir.sqlite'))).toBe(false);
    const other = createWorkspace({ root });
    try {
      // Read without indexing first: the same index.
      const { results } = await other.recall('boiler serviced', { k: 1 });
      expect(results[0]?.memory.content).toBe('The boiler was serviced in October.');
      expect(results[0]!.citation).toMatch(/^memory\/\d{4}-\d{2}-\d{2}\.md#L\d+$/);
    } finally {
      await other.close();
    }
  }, 60_000);

  it('a background embedder still embeds after retain returns: writing the Markdown does not embed in the call', async () => {
    const root = workspaceRoot();
    const local = createLocalEmbedder();
    let inCall = true;
    let embeddedInCall = 0;
    const slow: Embedder = {
      specificationVersion: 'v1',
      id: local.id,
      dimensions: local.dimensions,
      background: true,
      embed: async (texts, options) => {
        if (inCall) embeddedInCall += texts.length;
        return local.embed(texts, options);
      },
    };
    const memory = createWorkspace({ root, embedder: slow });
    try {
      const { ids } = await memory.retain('The backup drive sits in the hallway cupboard.');
      inCall = false;
      expect(embeddedInCall).toBe(0);
      await memory.flush();
      const vectors = await memory.store.getEmbeddings([ids[0]!]);
      expect(vectors.get(ids[0]!)).toBeTruthy();
      expect(markdown(root)).toContain('hallway cupboard');
    } finally {
      await memory.close();
    }
  }, 60_000);

  it('what maxMemories evicts to make room leaves the day file too', async () => {
    const root = workspaceRoot();
    const memory = createWorkspace({ root, maxMemories: 2, retentionAppliesTo: ['retained'] });
    try {
      await memory.retain({ content: 'The old wiki lives on the intranet.', importance: 0.1 });
      await memory.retain({ content: 'The on-call phone is in the red box.', importance: 0.9 });
      await memory.retain({ content: 'The release notes go out on Mondays.', importance: 0.9 });
    } finally {
      await memory.close();
    }
    const text = markdown(root);
    expect(text).not.toContain('old wiki');
    expect(text).toContain('red box');
    expect(text).toContain('release notes');
    rmSync(join(root, '.memory'), { recursive: true, force: true });
    const rebuilt = createWorkspace({ root });
    try {
      await rebuilt.workspace.index();
      expect((await rebuilt.list({ limit: 10 })).map((item) => item.content).sort()).toEqual([
        'The on-call phone is in the red box.',
        'The release notes go out on Mondays.',
      ]);
    } finally {
      await rebuilt.close();
    }
  }, 60_000);

  it('what cleanup and consolidate delete leaves the day file too', async () => {
    const root = workspaceRoot();
    const clock = createFixedClock('2025-01-02T09:00:00Z');
    const memory = createWorkspace({ root, clock, retentionDays: 30, retentionAppliesTo: ['retained'] });
    try {
      await memory.retain('The old wiki lives on the intranet.');
      clock.set('2025-03-01T09:00:00Z');
      await memory.retain('The staging database restarts every night at two.');
      await memory.retain('The staging database restarts every night at two!');
      const merged = await memory.consolidate({ threshold: 0.9 });
      expect(merged.deleted).toBe(1);
      const cleaned = await memory.cleanup();
      expect(cleaned.deleted).toBe(1);
      await memory.flush();
    } finally {
      await memory.close();
    }
    expect(markdown(root)).not.toContain('old wiki');
    expect(markdown(root).split('staging database').length - 1).toBe(1);
    rmSync(join(root, '.memory'), { recursive: true, force: true });
    const rebuilt = createWorkspace({ root });
    try {
      await rebuilt.workspace.index();
      expect((await rebuilt.list({ limit: 10 })).map((item) => item.content)).toEqual([
        'The staging database restarts every night at two.',
      ]);
    } finally {
      await rebuilt.close();
    }
  }, 60_000);

  it('two processes retaining into one day file at once lose no line', async () => {
    const root = workspaceRoot();
    const home = tempDir('memoir-ws-edits-home-');
    const texts = Array.from({ length: 6 }, (_, index) => `Parallel note number ${index} about the ${index}th shelf.`);
    const results = await Promise.all(
      texts.map((text) => memoir(home, 'retain', text, '--workspace', root, '--occurred-at', '2025-12-01')),
    );
    for (const result of results) expect(result.stderr).toBe('');
    const day = readFileSync(join(root, 'memory', '2025-12-01.md'), 'utf8');
    for (const text of texts) expect(day.split(text).length - 1).toBe(1);
    expect(day.match(/^## Retain$/gm)).toHaveLength(1);

    rmSync(join(root, '.memory'), { recursive: true, force: true });
    const rebuilt = createWorkspace({ root });
    try {
      await rebuilt.workspace.index();
      const contents = (await rebuilt.list({ limit: 100 })).map((item) => item.content).sort();
      expect(contents).toEqual([...texts].sort());
    } finally {
      await rebuilt.close();
    }
  }, 120_000);

  it('memoir mcp --workspace and the CLI, open at once, read and write one index', async () => {
    const root = workspaceRoot();
    const home = tempDir('memoir-ws-edits-home-');
    // No watch: what the server recalls from the CLI it reads from the index they share.
    const server = await connectMemoirMcp({ home, args: ['--workspace', root, '--no-watch'] });
    try {
      const [stored, cli] = await Promise.all([
        server.call('memory_retain', { content: 'The VPN certificate expires in March.', entities: ['VPN'] }),
        memoir(home, 'retain', 'The printer on floor two needs toner.', '--workspace', root),
      ]);
      expect(stored.isError).toBeFalsy();
      // What the server stored is in the workspace's index, where the CLI reads it.
      const out = await memoir(home, 'recall', 'VPN certificate', '--workspace', root, '--json');
      const results = (JSON.parse(out.stdout) as { results: Array<{ citation: string; memory: { content: string } }> })
        .results;
      expect(results[0]?.memory.content).toBe('The VPN certificate expires in March.');
      expect(results[0]!.citation).toMatch(/^memory\/\d{4}-\d{2}-\d{2}\.md#L\d+$/);
      // What the CLI stored meanwhile the server recalls from that same index.
      expect(cli.code).toBe(0);
      const recalled = textOf(await server.call('memory_recall', { query: 'printer toner floor two', k: 3 }));
      expect(recalled).toContain('The printer on floor two needs toner.');
      expect(recalled).toMatch(/memory\/\d{4}-\d{2}-\d{2}\.md#L\d+/);
      // MCP's memory_forget takes the line out of the file.
      expect(markdown(root)).toContain('VPN certificate');
      const forgot = await server.call('memory_forget', { memory_id: dataOf<{ id: string }>(stored).id });
      expect(forgot.isError).toBeFalsy();
      expect(markdown(root)).not.toContain('VPN certificate');
      expect(markdown(root)).toContain('The printer on floor two needs toner.');
    } finally {
      await server.close();
    }
    // Nothing went to the home's own store.
    expect(readdirSync(home)).not.toContain('memoir.sqlite');
  }, 120_000);
});
