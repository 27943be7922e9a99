import { describe, expect, it } from 'vitest';
import { createInMemoryStore, createMemory } from '../../src/index.js';

// The retention and workflow operations as the client exposes them.

const DAY = 86_400_000;
const T0 = Date.parse('2025-12-01T12:00:00Z');
const quiet = { log: () => {} };

describe('client maintenance', () => {
  it('maxMemories: storing at the limit evicts the lowest-ranked unprotected memory', async () => {
    const memory = createMemory({
      store: createInMemoryStore(),
      maxMemories: 3,
      clock: { now: () => T0 },
      logger: quiet,
    });
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
    const memory = createMemory({
      store: createInMemoryStore(),
      retentionDays: 30,
      clock: { now: () => T0 },
      logger: quiet,
    });
    await memory.retain([
      { content: 'stale capture', occurredAt: T0 - 40 * DAY },
      { content: 'kept by hand', occurredAt: T0 - 100 * DAY, metadata: { manual_save: true } },
      { content: 'fresh', occurredAt: T0 - DAY },
    ]);
    const result = await memory.cleanup();
    expect(result.deleted).toBe(1);
    expect(result.bytesFreed).toBeGreaterThan(0);
    expect((await memory.list()).map((item) => item.content).sort()).toEqual(['fresh', 'kept by hand']);
    await memory.close();
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

  it('schedule: a daily run is set up without keeping the process alive, and close stops it', async () => {
    const memory = createMemory({ store: createInMemoryStore(), schedule: { hour: 3 }, logger: quiet });
    await memory.retain('something');
    await memory.close();
    expect(() => createMemory({ store: createInMemoryStore(), schedule: { hour: 24 } })).toThrow(/hour/);
  });

  it('detectWorkflows, createWorkflowFromSession, suggest, warn and analyzePatterns through the client', async () => {
    let now = T0;
    const memory = createMemory({ store: createInMemoryStore(), clock: { now: () => now }, logger: quiet });
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
    now = T0;
    const found = await memory.detectWorkflows();
    expect(found[0]?.steps).toEqual(steps);
    expect((await memory.list({ categories: ['workflow'] })).length).toBe(1);
    const procedure = await memory.createWorkflowFromSession('s1', 'submit the form');
    expect(procedure).toMatchObject({ source: 'session', title: 'submit the form' });
    expect(procedure.steps).toHaveLength(3);
    expect(await memory.store.procedures.get([procedure.id])).toHaveLength(1);
    const suggestions = await memory.suggest('fill the form and submit it');
    expect(suggestions.length).toBeGreaterThan(0);
    const warning = await memory.warn({ tool: 'navigate' });
    expect(warning).toMatchObject({ attempts: 3, failures: 0 });
    const patterns = await memory.analyzePatterns();
    expect(patterns.high.map((entry) => entry.tool)).toContain('fill_form');
    await memory.close();
  });
});
