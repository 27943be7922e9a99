import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, type ReflectStoppedEvent } from '../../src/index.js';
import { createScriptedLanguageModel } from '../../src/testing/index.js';
import { STORES } from '../helpers/stores.js';
import { fixtureCopy, workspaceClient } from '../helpers/workspace.js';

// Reflect is bounded in model tokens and wall time: a run that reaches a bound stops between
// entity pages, keeps what it wrote, leaves the proposals and the memories as they were,
// emits reflect:stopped, and the next run does the rest. The schedule runs it with bounds.

const USAGE = { inputTokens: 300, outputTokens: 100 };

function stoppedEvents(memory: { on(event: 'reflect:stopped', listener: (e: ReflectStoppedEvent) => void): unknown }) {
  const events: ReflectStoppedEvent[] = [];
  memory.on('reflect:stopped', (event) => events.push(event));
  return events;
}

describe.each(STORES)('reflect bounds (%s)', (_name, makeStore) => {
  it('stops at maxTokens between pages, keeps what it wrote, and the next run does the rest', async () => {
    const root = fixtureCopy();
    const model = createScriptedLanguageModel(() => ({ text: 'A summary.', usage: USAGE }));
    const memory = workspaceClient(root, { store: makeStore(), languageModel: model, reflect: { every: 'off' } });
    const events = stoppedEvents(memory);
    const page = (entity: string) => {
      const path = join(root, 'bank', 'entities', `${entity}.md`);
      return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
    };
    const before = new Map(['Andy', 'Peter', 'The-Castle', 'warelay'].map((entity) => [entity, page(entity)]));
    const report = await memory.reflect({ maxTokens: 900 });
    expect(report.stopped?.reason).toBe('tokens');
    expect(model.calls.length).toBe(2);
    expect(report.tokensUsed).toBe(800);
    const pending = report.stopped!.pending;
    expect(pending.length).toBeGreaterThan(0);
    // The pages not reached are as they were (absent, or the hand-written page).
    for (const entity of pending) if (before.has(entity)) expect(page(entity)).toBe(before.get(entity));
    expect(report.entityPages.length).toBe(2);
    // The proposals were not rewritten by a run that stopped.
    expect(existsSync(join(root, 'proposals', 'memory.md'))).toBe(false);
    expect(events).toEqual([expect.objectContaining({ reason: 'tokens', tokensUsed: 800, pending, trigger: 'call' })]);

    const rest = await memory.reflect();
    expect(rest.stopped).toBeUndefined();
    for (const entity of pending) expect(rest.entityPages.map((page) => page.entity)).toContain(entity);
    // (A dated fact of the window: bank/world.md's lines are undated, so in no window.)
    expect(readFileSync(join(root, 'proposals', 'memory.md'), 'utf8')).toContain('Peter returned to Vienna');
    await memory.close();
  });

  it('stops at deadlineMs: a summary in flight is aborted, the run ends soon after', async () => {
    const root = fixtureCopy();
    const model = createScriptedLanguageModel(
      (request) =>
        new Promise((resolve, reject) => {
          const timer = setTimeout(() => resolve({ text: 'Slow summary.', usage: USAGE }), 400);
          request.signal?.addEventListener('abort', () => {
            clearTimeout(timer);
            reject(request.signal?.reason);
          });
        }),
    );
    const memory = workspaceClient(root, { store: makeStore(), languageModel: model, reflect: { every: 'off' } });
    const events = stoppedEvents(memory);
    const started = Date.now();
    const report = await memory.reflect({ deadlineMs: 600 });
    // Generous for a loaded machine: what proves the stop is `stopped` below, and the pending work.
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(report.stopped?.reason).toBe('deadline');
    expect(report.stopped!.pending.length).toBeGreaterThan(0);
    expect(events[0]).toMatchObject({ reason: 'deadline', trigger: 'call' });
    await memory.close();
  });

  it('reflects on its schedule with the configured bounds, and stops on close', async () => {
    const root = fixtureCopy();
    const model = createScriptedLanguageModel(() => ({ text: 'A summary.', usage: USAGE }));
    const memory = workspaceClient(root, {
      store: makeStore(),
      languageModel: model,
      // Every second, at most 500 tokens a run: the first summary uses 400, the second is refused.
      reflect: { every: 1 / 3600, maxTokens: 500 },
    });
    const event = await new Promise<ReflectStoppedEvent>((resolve) => memory.once('reflect:stopped', resolve));
    expect(event).toMatchObject({ reason: 'tokens', tokensUsed: 400, trigger: 'schedule' });
    expect(event.pending.length).toBeGreaterThan(0);
    await memory.close();
    const calls = model.calls.length;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(model.calls.length).toBe(calls);
  });
});

describe('reflect schedule options', () => {
  it("'off' runs nothing; a bad interval or bound is a ConfigError naming the field", async () => {
    const root = fixtureCopy();
    const model = createScriptedLanguageModel(() => ({ text: 'A summary.', usage: USAGE }));
    const memory = workspaceClient(root, { languageModel: model, reflect: { every: 'off' } });
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(model.calls.length).toBe(0);
    await memory.close();
    expect(() => workspaceClient(root, { reflect: { every: 0 } })).toThrow(ConfigError);
    expect(() => workspaceClient(root, { reflect: { every: 0 } })).toThrow(/reflect\.every/);
    expect(() => workspaceClient(root, { reflect: { maxTokens: -1 } })).toThrow(/reflect\.maxTokens/);
    await expect(workspaceClient(root).reflect({ deadlineMs: 0 })).rejects.toThrow(/deadlineMs/);
  });
});
