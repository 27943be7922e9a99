import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createInMemoryStore, createMemory, loadConfig, type MemoryOptions } from '../../src/index.js';
import { createFixedClock } from '../../src/testing/index.js';
import { collect, quiet, STORES } from '../helpers/stores.js';

// The retention and workflow operations as the client exposes them.

const DAY = 86_400_000;
const T0 = Date.parse('2025-12-01T12:00:00Z');

/** An in-memory client that logs nothing, with its clock fixed at T0. */
const clientAtT0 = (options: MemoryOptions = {}) =>
  createMemory({ store: createInMemoryStore(), clock: createFixedClock(T0), logger: quiet, ...options });

describe('client maintenance', () => {
  it('maxMemories: storing at the limit evicts the lowest-ranked memory that may expire', async () => {
    const memory = clientAtT0({ maxMemories: 3, retentionAppliesTo: ['retained'] });
    await memory.retain([
      { content: 'old and unimportant', importance: 0.1, occurredAt: T0 - 300 * DAY },
      { content: 'pinned', importance: 0, occurredAt: T0 - 900 * DAY, bookmarked: true },
      { content: 'recent and important', importance: 0.9 },
    ]);
    await memory.retain('new arrival');
    const contents = (await memory.list()).map((item) => item.content).sort();
    expect(contents).toEqual(['new arrival', 'pinned', 'recent and important']);
    await memory.close();
  });

  it('cleanup() honours retentionDays and protects bookmarked and manual memories', async () => {
    const clock = createFixedClock(T0 - 40 * DAY);
    const backupDirectory = mkdtempSync(join(tmpdir(), 'memoir-cleanup-backups-'));
    const memory = clientAtT0({ retentionDays: 30, clock, backupDirectory });
    await memory.retain([
      { content: 'stale capture', metadata: { captured: true } },
      { content: 'kept by hand', metadata: { captured: true, manual_save: true } },
      { content: 'the user’s own fact', occurredAt: T0 - 100 * DAY },
    ]);
    clock.set(T0 - DAY);
    await memory.retain({ content: 'fresh', metadata: { captured: true } });
    clock.set(T0);
    const result = await memory.cleanup();
    expect(result.deleted).toBe(1);
    expect(result.bytesFreed).toBeGreaterThan(0);
    expect((await memory.list()).map((item) => item.content).sort()).toEqual([
      'fresh',
      'kept by hand',
      'the user’s own fact',
    ]);
    await memory.close();
    rmSync(backupDirectory, { recursive: true, force: true });
  });

  it('consolidate() keeps one of a cluster of near-identical memories', async () => {
    const memory = createMemory({ store: createInMemoryStore(), logger: quiet });
    const screen =
      'Login screen of the admin console with the username field, the password field, the remember me box, the blue sign in button and the forgot password link under it';
    await memory.retain(
      Array.from({ length: 5 }, (_, index) => ({ content: `${screen} (capture ${index})`, category: 'screen' })),
    );
    await memory.retain({ content: 'Quarterly invoice totals for the billing team', category: 'note' });
    const result = await memory.consolidate();
    expect(result).toMatchObject({ clusters: 1, deleted: 4 });
    const left = await memory.list({ categories: ['screen'] });
    expect(left).toHaveLength(1);
    expect(left[0]!.metadata.consolidated).toEqual([expect.objectContaining({ count: 4 })]);
    await memory.close();
  });

  // What the daily run does, at which hour, and that it keeps no process alive: client-schedule.test.ts.
  it('schedule: a client with a daily run retains and closes; an hour past 23 is refused', async () => {
    const memory = createMemory({ store: createInMemoryStore(), schedule: { hour: 3 }, logger: quiet });
    await memory.retain('something');
    await memory.close();
    expect(() => createMemory({ store: createInMemoryStore(), schedule: { hour: 24 } })).toThrow(/hour/);
  });

  it('detectWorkflows, createWorkflowFromSession, suggest, warn and analyzePatterns through the client', async () => {
    const clock = createFixedClock(T0);
    const memory = clientAtT0({ clock });
    const steps = ['navigate', 'fill_form', 'click_submit'];
    for (const [run, session] of ['s1', 's2', 's3'].entries()) {
      await memory.retain(
        steps.map((tool, index) => ({
          content: `${tool} step ${index} of run ${run}`,
          category: 'action',
          kind: 'experience' as const,
          sessionId: session,
          entities: [tool],
          occurredAt: T0 - (3 - run) * DAY + index * 60_000,
          metadata: { tool, success: true },
        })),
      );
    }
    clock.set(T0);
    const found = await memory.detectWorkflows();
    expect(found[0]?.steps).toEqual(steps);
    expect((await memory.list({ categories: ['workflow'] })).length).toBe(1);
    const procedure = await memory.createWorkflowFromSession('s1', 'submit the form');
    expect(procedure).toMatchObject({ source: 'session', title: 'submit the form' });
    expect(procedure.steps).toHaveLength(3);
    expect(await memory.store.get('procedure', [procedure.id])).toHaveLength(1);
    const suggestions = await memory.suggest('fill the form and submit it');
    expect(suggestions.length).toBeGreaterThan(0);
    const warning = await memory.warn({ tool: 'navigate' });
    expect(warning).toMatchObject({ attempts: 3, failures: 0 });
    const patterns = await memory.analyzePatterns();
    expect(patterns.high.map((entry) => entry.tool)).toContain('fill_form');
    await memory.close();
  });
});

describe.each(STORES)('stats and export/import (%s)', (_name, makeStore) => {
  it('View memory usage dashboard', async () => {
    const memory = createMemory({ store: makeStore(), maxSizeMb: 1, logger: quiet });
    await memory.retain([
      { content: 'login screen', category: 'screen', sessionId: 's1' },
      { content: 'clicked sign in', category: 'action', sessionId: 's1', metadata: { tool: 'mouse_click' } },
      { content: 'clicked sign in again', category: 'action', sessionId: 's1', metadata: { tool: 'mouse_click' } },
      { content: 'typed the password', category: 'action', sessionId: 's2', metadata: { tool: 'keyboard_type' } },
      { content: 'deploy workflow', category: 'workflow', sessionId: 's2' },
    ]);
    await memory.recall('sign in');
    await memory.recall('sign in');
    await memory.recall('password');
    const stats = await memory.stats();
    expect(stats.byCategory).toEqual({ screen: 1, action: 3, workflow: 1 });
    expect(stats.byKind).toEqual({ world: 5 });
    expect(stats.quota.maxSizeMb).toBe(1);
    expect(stats.quota.usedPercent).toBeGreaterThan(0);
    expect(stats.topActions[0]).toEqual({ name: 'mouse_click', count: 2 });
    expect(stats.sessionActivity).toEqual({ count: 2, averageMemories: 2.5 });
    expect(stats.recall.count).toBe(3);
    expect(stats.recall.averageMs).toBeGreaterThan(0);
    // The repeated query was embedded once: one hit, two misses, in a real LRU cache.
    expect(stats.embeddingCache).toMatchObject({ hits: 1, misses: 2, size: 2 });
    expect(stats.embeddingCache.hitRate).toBeCloseTo(1 / 3, 10);
    await memory.close();
  });

  it('Export memories for backup (and import them back, identical)', async () => {
    const first = createMemory({ store: makeStore(), logger: quiet });
    await first.retain([
      { content: 'alpha', metadata: { priority: 'high' }, sessionId: 's1' },
      { content: 'beta', entities: ['Peter'] },
    ]);
    const lines = await collect(first.export());
    const second = createMemory({ store: makeStore(), logger: quiet });
    expect(await second.import(lines)).toMatchObject({ memories: 2, skippedEmbeddings: 0 });
    const again = await collect(second.export());
    expect(again.sort()).toEqual([...lines].sort());
    await first.close();
    await second.close();
  });
});

describe('configuration', () => {
  it('createMemory() with no store takes its settings from MEMOIR_* variables, below explicit options', async () => {
    const home = mkdtempSync(join(tmpdir(), 'memoir-config-'));
    const saved = { ...process.env };
    Object.assign(process.env, {
      MEMOIR_HOME: home,
      MEMOIR_RETENTION_DAYS: '7',
      MEMOIR_CAPTURE_ENABLED: 'true',
      MEMOIR_LOG_LEVEL: 'error',
    });
    try {
      const clock = createFixedClock(T0 - 10 * DAY);
      const memory = createMemory({ clock });
      await memory.retain({ content: 'learned ten days ago', metadata: { captured: true } });
      clock.set(T0 - 2 * DAY);
      await memory.retain({ content: 'learned two days ago', metadata: { captured: true } });
      clock.set(T0);
      expect((await memory.cleanup()).deleted).toBe(1);
      expect(memory.capture({ tool: 'mouse_click' }).stored).toBe(true);
      await memory.close();
      expect(existsSync(join(home, 'memoir.sqlite'))).toBe(true);
      const explicit = createMemory({ retentionDays: 365, clock: createFixedClock(T0), capture: { enabled: false } });
      expect((await explicit.cleanup()).deleted).toBe(0);
      expect(explicit.capture({ tool: 'mouse_click' })).toEqual({ stored: false, reason: 'disabled' });
      await explicit.close();
      process.env.MEMOIR_RETENTION_DAYS = '-5';
      expect(() => createMemory()).toThrow(/retentionDays/);
    } finally {
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
      Object.assign(process.env, saved);
      rmSync(home, { recursive: true, force: true });
    }
  });
});

describe('Configuration Management', () => {
  it('Load default configuration', () => {
    const { config, sources } = loadConfig({ env: { HOME: '/home/sam' }, file: undefined });
    expect(config).toMatchObject({ captureEnabled: false, retentionDays: 30, maxSizeMb: 500 });
    expect(sources.retentionDays).toEqual({ kind: 'default' });
  });

  it('Override config with environment variables', () => {
    const { config, sources } = loadConfig({
      env: { MEMORY_STORAGE_PATH: '/custom/path', MEMOIR_RETENTION_DAYS: '14' },
    });
    expect(config.home).toBe('/custom/path');
    expect(config.retentionDays).toBe(14);
    expect(sources.home).toEqual({ kind: 'env', variable: 'MEMORY_STORAGE_PATH' });
  });

  it('Validate configuration on load', () => {
    expect(() => loadConfig({ env: { MEMOIR_RETENTION_DAYS: '-5' } })).toThrow(
      expect.objectContaining({ code: 'CONFIG_INVALID', field: 'retentionDays', suggestion: expect.any(String) }),
    );
  });
});
