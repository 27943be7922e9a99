import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { affectsIndex } from '../../src/core/workspace/workspace-watch.js';
import {
  type BackgroundErrorEvent,
  ConfigError,
  createLocalEmbedder,
  createMemory,
  type Embedder,
  type MemoryClient,
  type WorkspaceIndexedEvent,
} from '../../src/index.js';
import { createTestStore } from '../../src/testing/index.js';
import { STORES, tempDir } from '../helpers/stores.js';
import { workspaceClient } from '../helpers/workspace.js';

// memory.workspace.watch(): the index follows the files while the client runs — an edit is
// recalled with its new words and not its old ones, a deleted file's items leave, a burst of
// writes is one run, and a failing run is an `error` event while the watch goes on.

function emptyWorkspace(): string {
  const root = join(tempDir('memoir-watch-'), 'ws');
  mkdirSync(join(root, 'memory'), { recursive: true });
  writeFileSync(join(root, 'memory.md'), '# Core memory\n\n- W @Peter: Peter owns this workspace.\n');
  return root;
}

const day = (root: string, date: string, lines: string[]) =>
  writeFileSync(
    join(root, 'memory', `${date}.md`),
    `# ${date}\n\n## Retain\n\n${lines.map((line) => `- ${line}`).join('\n')}\n`,
  );

/** Every `workspace:indexed` event, and a wait for the next one that satisfies `done`. */
function indexedEvents(memory: MemoryClient) {
  const events: WorkspaceIndexedEvent[] = [];
  memory.on('workspace:indexed', (event) => events.push(event));
  return {
    events,
    next: (done: (event: WorkspaceIndexedEvent) => boolean = () => true, timeoutMs = 15_000) =>
      new Promise<WorkspaceIndexedEvent>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no workspace:indexed within ${timeoutMs} ms`)), timeoutMs);
        const listener = (event: WorkspaceIndexedEvent) => {
          if (!done(event)) return;
          clearTimeout(timer);
          memory.off('workspace:indexed', listener);
          resolve(event);
        };
        memory.on('workspace:indexed', listener);
      }),
  };
}

const contents = async (memory: MemoryClient) => (await memory.list({ limit: 1000 })).map((item) => item.content);

describe.each(STORES)('workspace watch (%s)', (_name, makeStore) => {
  it('an edit made while it runs is recalled with its new words, and the old ones leave', async () => {
    const root = emptyWorkspace();
    day(root, '2025-12-01', ['W @Peter: Peter keeps the spare keys in the blue drawer.']);
    const memory = workspaceClient(root, { store: makeStore(), reflect: { every: 'off' } });
    const { next } = indexedEvents(memory);
    const watch = memory.workspace.watch({ debounceMs: 100 });
    await memory.workspace.index();
    expect((await memory.recall('where are the spare keys')).results[0]?.memory.content).toContain('blue drawer');

    const edited = next((event) => event.changedFiles.includes('memory/2025-12-01.md'));
    day(root, '2025-12-01', ['W @Peter: Peter keeps the spare keys in the green cabinet.']);
    await edited;
    const after = await memory.recall('where are the spare keys');
    expect(after.results[0]?.memory.content).toContain('green cabinet');
    expect((await contents(memory)).join('\n')).not.toContain('blue drawer');

    const added = next((event) => event.changedFiles.includes('memory/2025-12-02.md'));
    day(root, '2025-12-02', ['W @Andy: Andy adopted a grey cat named Pixel.']);
    await added;
    expect((await memory.recall('Andy cat name')).results[0]?.memory.content).toContain('Pixel');

    const removed = next((event) => event.removedFiles.includes('memory/2025-12-02.md'));
    rmSync(join(root, 'memory', '2025-12-02.md'));
    await removed;
    expect((await contents(memory)).join('\n')).not.toContain('Pixel');
    await watch.close();
    await memory.close();
  });

  it('a burst of writes inside the debounce is one run', async () => {
    const root = emptyWorkspace();
    const memory = workspaceClient(root, { store: makeStore(), reflect: { every: 'off' } });
    const { events } = indexedEvents(memory);
    const watch = memory.workspace.watch({ debounceMs: 1500 });
    await memory.workspace.index();
    for (let index = 0; index < 8; index++) {
      day(root, '2025-12-01', [`W @Peter: Draft number ${index} of the packing list.`]);
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    await watch.idle();
    expect(events.length).toBe(1);
    expect(events[0]!.changedFiles).toEqual(['memory/2025-12-01.md']);
    expect((await contents(memory)).filter((text) => text.includes('packing list'))).toEqual([
      'Peter: Draft number 7 of the packing list.',
    ]);
    await watch.close();
    await memory.close();
  });

  it('a run that fails is an error event, never a throw, and the watch goes on', async () => {
    const root = emptyWorkspace();
    const local = createLocalEmbedder();
    // An embedder that fails on one word: the run indexing it rejects.
    const embedder: Embedder = {
      specificationVersion: 'v1',
      id: local.id,
      dimensions: local.dimensions,
      embed: (texts, options) =>
        texts.some((text) => text.includes('POISON'))
          ? Promise.reject(new Error('embedder down'))
          : local.embed(texts, options),
    };
    const memory = workspaceClient(root, { store: makeStore(), embedder, reflect: { every: 'off' } });
    const errors: BackgroundErrorEvent[] = [];
    memory.on('error', (event) => errors.push(event));
    const { next } = indexedEvents(memory);
    const watch = memory.workspace.watch({ debounceMs: 100 });
    await memory.workspace.index();
    day(root, '2025-12-01', ['W @Peter: POISON line that cannot be embedded.']);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await watch.idle();
    expect(errors.map((event) => event.operation)).toContain('workspace.watch');
    const healed = next((event) => event.changedFiles.includes('memory/2025-12-01.md'));
    day(root, '2025-12-01', ['W @Peter: Peter fixed the embedder.']);
    await healed;
    expect((await contents(memory)).join('\n')).toContain('Peter fixed the embedder.');
    await watch.close();
    await memory.close();
  });
});

describe('workspace watch', () => {
  it('ignores the index, hidden files and other files; folders and Markdown count', () => {
    expect(affectsIndex('.memory/index.sqlite-wal')).toBe(false);
    expect(affectsIndex('memory/.2025-12-01.md.swp')).toBe(false);
    expect(affectsIndex('memory/2025-12-01.md~')).toBe(false);
    expect(affectsIndex('bank/photo.png')).toBe(false);
    expect(affectsIndex('memory/2025-12-01.md')).toBe(true);
    expect(affectsIndex('bank/entities/Peter.MD')).toBe(true);
    expect(affectsIndex('memory')).toBe(true);
    expect(affectsIndex('')).toBe(true);
  });

  it('refuses without a workspace, and on a root that is not a folder, with a ConfigError', async () => {
    const memory = createMemory({ store: createTestStore() });
    expect(() => memory.workspace.watch()).toThrow(ConfigError);
    await memory.close();
    const missing = createMemory({
      store: createTestStore(),
      workspace: join(tempDir('memoir-watch-missing-'), 'nope'),
      reflect: { every: 'off' },
    });
    expect(() => missing.workspace.watch()).toThrow(/not a folder/);
    expect(() => missing.workspace.watch({ debounceMs: -1 })).toThrow(/debounceMs/);
    await missing.close();
  });

  it('close() of the client stops the watch: later edits index nothing', async () => {
    const root = emptyWorkspace();
    const memory = workspaceClient(root, { reflect: { every: 'off' } });
    const { events } = indexedEvents(memory);
    memory.workspace.watch({ debounceMs: 50 });
    await memory.workspace.index();
    await memory.close();
    day(root, '2025-12-01', ['W @Peter: Written after close.']);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(events).toEqual([]);
  });
});

// The live workspace under hostile change, on a real folder with real links: what the watch reads
// is what index() would read, and it keeps watching whatever happens to the folder.
describe('workspace watch under hostile change', () => {
  async function watching(root: string, debounceMs = 100) {
    // The index lives outside the folder: the last case deletes the whole folder.
    const memory = workspaceClient(root, { store: createTestStore(), reflect: { every: 'off' } });
    const indexed = indexedEvents(memory);
    const watch = memory.workspace.watch({ debounceMs });
    await memory.workspace.index();
    return { memory, watch, ...indexed };
  }

  it('a file swapped for a link leading out of the workspace is skipped and reported, never read; its items leave', async () => {
    const root = emptyWorkspace();
    day(root, '2025-12-01', ['W @Peter: Peter keeps the spare keys in the blue drawer.']);
    const outside = join(tempDir('memoir-watch-outside-'), 'secret.md');
    writeFileSync(outside, '# 2025-12-01\n\n## Retain\n\n- W @Eve: The launch code is 0000-SECRET.\n');
    const { memory, watch, next } = await watching(root);
    const swapped = next((event) => event.skipped.some((item) => item.file === 'memory/2025-12-01.md'));
    rmSync(join(root, 'memory', '2025-12-01.md'));
    symlinkSync(outside, join(root, 'memory', '2025-12-01.md'));
    const event = await swapped;
    expect(event.skipped.find((item) => item.file === 'memory/2025-12-01.md')?.reason).toMatch(/outside|link/i);
    const text = (await contents(memory)).join('\n');
    expect(text).not.toContain('SECRET');
    expect(text).not.toContain('blue drawer');
    await watch.close();
    await memory.close();
  });

  it('a file that becomes a folder is a deletion', async () => {
    const root = emptyWorkspace();
    day(root, '2025-12-01', ['W @Peter: Peter keeps the spare keys in the blue drawer.']);
    const { memory, watch, next } = await watching(root);
    const gone = next((event) => event.removedFiles.includes('memory/2025-12-01.md'));
    rmSync(join(root, 'memory', '2025-12-01.md'));
    mkdirSync(join(root, 'memory', '2025-12-01.md'));
    await gone;
    expect((await contents(memory)).join('\n')).not.toContain('blue drawer');
    await watch.close();
    await memory.close();
  });

  it('a thousand edits in a second are one re-index pass, with the last text', async () => {
    const root = emptyWorkspace();
    // No two edits are further apart than the debounce, however slowly a loaded machine runs the
    // loop (it took 3.3 s once under a load of 15 on two cores): a pause of a second and a half
    // between two writes is what would make two passes right.
    const { memory, watch, events } = await watching(root, 1500);
    for (let index = 0; index < 1000; index++) {
      day(root, `2025-12-${String((index % 20) + 1).padStart(2, '0')}`, [`W @Peter: Edit number ${index}.`]);
      // Spread over about a second, as an editor's autosave or a sync client would.
      if (index % 50 === 49) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    await watch.idle();
    expect(events).toHaveLength(1);
    expect(events[0]!.changedFiles).toHaveLength(20);
    const edits = (await contents(memory)).filter((text) => text.includes('Edit number'));
    expect(edits).toHaveLength(20);
    expect(edits).toContain('Peter: Edit number 999.');
    await watch.close();
    await memory.close();
  });

  it('a 50 MB file that appears is refused as index() refuses it, and the rest is indexed', async () => {
    const root = emptyWorkspace();
    const { memory, watch, next } = await watching(root);
    const refused = next((event) => event.skipped.some((item) => item.file === 'memory/2025-12-02.md'));
    day(root, '2025-12-01', ['W @Peter: Peter keeps the spare keys in the blue drawer.']);
    writeFileSync(join(root, 'memory', '2025-12-02.md'), `# 2025-12-02\n\n- ${'x'.repeat(50 * 1024 * 1024)}\n`);
    const event = await refused;
    expect(event.skipped.find((item) => item.file === 'memory/2025-12-02.md')?.reason).toMatch(
      /MAX_WORKSPACE_FILE_BYTES/,
    );
    await watch.idle();
    const text = (await contents(memory)).join('\n');
    expect(text).toContain('blue drawer');
    expect(text).not.toContain('xxxxxxxx');
    await watch.close();
    await memory.close();
  });

  it('the whole folder deleted and created again: its items leave, then the new folder is watched', async () => {
    const root = emptyWorkspace();
    day(root, '2025-12-01', ['W @Peter: Peter keeps the spare keys in the blue drawer.']);
    const { memory, watch, next } = await watching(root);
    const gone = next((event) => event.removedFiles.includes('memory/2025-12-01.md'));
    rmSync(root, { recursive: true, force: true });
    await gone;
    expect((await contents(memory)).join('\n')).not.toContain('blue drawer');
    const back = next((event) => event.changedFiles.includes('memory/2025-12-05.md'), 20_000);
    mkdirSync(join(root, 'memory'), { recursive: true });
    day(root, '2025-12-05', ['W @Andy: Andy adopted a grey cat named Pixel.']);
    await back;
    expect((await contents(memory)).join('\n')).toContain('Pixel');
    // Watched again: a later edit is picked up too.
    const edited = next((event) => event.changedFiles.includes('memory/2025-12-05.md'));
    day(root, '2025-12-05', ['W @Andy: Andy adopted a black cat named Onyx.']);
    await edited;
    expect((await contents(memory)).join('\n')).toContain('Onyx');
    await watch.close();
    await memory.close();
  });
});
