import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup } from '../../src/core/lifecycle/cleanup.js';
import { consolidate } from '../../src/core/lifecycle/consolidate.js';
import { evictForRoom } from '../../src/core/retention/eviction.js';
import { importanceScore, isProtected } from '../../src/core/retention/protection.js';
import { scheduleDaily } from '../../src/core/schedule/schedule.js';
import type { Memory, MemoryInput } from '../../src/core/spec/memory.js';
import { createFixedClock } from '../../src/testing/index.js';
import { makeMemory } from '../contracts/memory-fixtures.js';
import { STORES, type StoreFactory, storeAndClient } from '../helpers/stores.js';

// The Retention Policy Management scenarios, on every store.

const DAY = 86_400_000;
const T0 = Date.parse('2025-06-01T12:00:00.000Z');
const daysAgo = (days: number) => new Date(T0 - days * DAY).toISOString();

// Memories are retained with the clock at the day they were learned: retention counts from
// then (or from their last use), never from `occurredAt`. They are marked `captured`, the one
// origin cleanup and eviction may delete by default (see retention-defaults.test.ts).
const setup = (makeStore: StoreFactory) => {
  const clock = createFixedClock(T0);
  return { clock, ...storeAndClient(makeStore, { clock }) };
};
const captured = { captured: true };

describe.each(STORES)('retention (%s)', (_name, makeStore) => {
  it('Auto-delete memories older than retention period', async () => {
    const { store, memory, clock } = setup(makeStore);
    const learnedAt = async (days: number, inputs: MemoryInput[]) => {
      clock.set(T0 - days * DAY);
      const { ids } = await memory.retain(inputs);
      clock.set(T0);
      return ids;
    };
    const fresh = [
      ...(await learnedAt(1, [
        { content: 'Opened the deploy dashboard for the billing service.', metadata: captured },
      ])),
      ...(await learnedAt(29, [{ content: 'Reviewed the pull request about search ranking.', metadata: captured }])),
    ];
    const old = [
      ...(await learnedAt(31, [
        {
          content: 'Screen capture of the old staging console with @Peter.',
          entities: ['Peter'],
          sessionId: 'session_old',
          metadata: captured,
        },
      ])),
      ...(await learnedAt(45, [
        { content: 'Browsed the vendor pricing page.', sessionId: 'session_old', metadata: captured },
      ])),
      ...(await learnedAt(100, [{ content: 'Typed a long note into the scratch buffer.', metadata: captured }])),
    ];
    const lines: string[] = [];
    const logger = { log: (_level: string, message: string) => void lines.push(message) };
    const before = await store.stats();
    expect(before.memories).toBe(5);
    expect((await store.get('session', ['session_old']))[0]?.memoryCount).toBe(2);

    const result = await cleanup(store, { retentionDays: 30, now: T0, logger });

    expect(result.deleted).toBe(3);
    expect([...result.ids].sort()).toEqual([...old].sort());
    expect(result.bytesFreed).toBeGreaterThan(0);
    expect(lines.join('\n')).toMatch(/deleted 3 memories, freed ~\d+ bytes/);
    const after = await store.stats();
    expect(after.memories).toBe(2);
    expect((await store.get('memory', fresh)).length).toBe(2);
    // Tallies follow the deletions: the session has no memories left, Peter's entity is gone.
    expect((await store.get('session', ['session_old']))[0]?.memoryCount).toBe(0);
    expect(after.entities).toBe(0);
    // Running again finds nothing to delete.
    expect((await cleanup(store, { retentionDays: 30, now: T0 })).deleted).toBe(0);
    await memory.close();
  });

  it('Keep important memories beyond retention period', async () => {
    const { store, memory, clock } = setup(makeStore);
    clock.set(daysAgo(100));
    const kept = await memory.retain([
      { content: 'Pinned: the production database runbook.', bookmarked: true, metadata: captured },
      { content: 'Manually saved: the team offsite agenda.', metadata: { ...captured, manual_save: true } },
      { content: 'Flagged in metadata as bookmarked.', metadata: { ...captured, bookmarked: true } },
      // Not auto-captured: the caller's own memory stays unless its origin is opted in.
      { content: 'A fact the user retained about their car.' },
    ]);
    const auto = await memory.retain([
      { content: 'Auto-captured screen of an email inbox.', metadata: captured },
      { content: 'Auto-captured terminal output.', metadata: { ...captured, manual_save: false } },
    ]);
    clock.set(T0);
    const stored = await store.get('memory', kept.ids.slice(0, 3));
    expect(stored.every(isProtected)).toBe(true);

    const result = await cleanup(store, { retentionDays: 30, now: T0 });

    expect([...result.ids].sort()).toEqual([...auto.ids].sort());
    expect((await store.get('memory', kept.ids)).map((item) => item.id)).toEqual(kept.ids);
    expect(await store.count()).toBe(4);
    // Opted in, the caller's own old memory goes too; the protected ones never do.
    const optedIn = await cleanup(store, { retentionDays: 30, now: T0, appliesTo: ['captured', 'retained'] });
    expect(optedIn.ids).toEqual([kept.ids[3]]);
    await memory.close();
  });

  it('Enforce maximum collection size', { timeout: 60_000 }, async () => {
    const { store, memory } = setup(makeStore);
    const LIMIT = 10_000;
    // The lowest-ranked memory: unimportant, a year old, never recalled.
    const [lowest] = (
      await memory.retain([
        { content: 'Stale screen of a closed tab.', importance: 0, occurredAt: daysAgo(365), metadata: captured },
      ])
    ).ids;
    // Ranked even lower, but protected.
    const [pinned] = (
      await memory.retain([
        { content: 'Pinned but unimportant.', importance: 0, occurredAt: daysAgo(400), bookmarked: true },
      ])
    ).ids;
    const target = LIMIT - 2;
    for (let start = 0; start < target; start += 1_000) {
      const size = Math.min(1_000, target - start);
      await memory.retain(
        Array.from({ length: size }, (_, i) => ({
          content: `screen memory number ${start + i}`,
          category: 'screen',
          importance: 0.2 + ((start + i) % 7) / 10,
          occurredAt: daysAgo((start + i) % 90),
          metadata: captured,
        })),
      );
    }
    expect(await store.count()).toBe(LIMIT);
    const lowestMemory = (await store.get('memory', [lowest!]))[0]!;
    expect(importanceScore(lowestMemory, T0)).toBeLessThan(0.1);

    const evicted = await store.transaction(() => evictForRoom(store, { maxMemories: LIMIT, incoming: 1, now: T0 }));
    const stored = await memory.retain('A new screen memory: the settings page.');

    expect(evicted).toEqual([lowest]);
    expect(await store.count()).toBe(LIMIT);
    expect(await store.get('memory', [lowest!])).toEqual([]);
    expect((await store.get('memory', [pinned!, stored.ids[0]!])).length).toBe(2);
    // Under the limit nothing is evicted.
    expect(await evictForRoom(store, { maxMemories: LIMIT + 1, incoming: 1, now: T0 })).toEqual([]);
    await memory.close();
  });

  it('Deduplicate similar memories', async () => {
    const { store, memory } = setup(makeStore);
    const base =
      'Screen capture: Acme portal login page with username field, password field, remember me checkbox, ' +
      'sign in button, forgot password link, language selector, cookie banner, company logo in the header ' +
      'and a footer with privacy policy, terms of service and support contact links';
    const dupes = await memory.retain(
      Array.from({ length: 50 }, (_, i) => ({
        content: `${base} (capture ${i + 1})`,
        category: 'screen',
        entities: ['Acme'],
        occurredAt: new Date(T0 - (50 - i) * 60_000).toISOString(),
        importance: i === 7 ? 0.9 : 0.5,
      })),
    );
    const distinct = await memory.retain([
      {
        content: 'Quarterly budget spreadsheet open in the finance app with totals per department.',
        category: 'screen',
      },
      { content: 'Terminal running the integration test suite with two failures.', category: 'screen' },
      { content: 'Calendar view showing the design review on Thursday afternoon.', category: 'screen' },
    ]);
    expect((await store.list('entity'))[0]?.memoryCount).toBe(50);

    const result = await consolidate(store, { now: T0, category: 'screen' });

    expect(result).toEqual({
      clusters: 1,
      deleted: 49,
      kept: [dupes.ids[7]],
      ids: expect.arrayContaining(dupes.ids.filter((_, i) => i !== 7)),
      dryRun: false,
    });
    const left = await store.list('memory');
    expect(left.map((item) => item.id).sort()).toEqual([dupes.ids[7]!, ...distinct.ids].sort());
    const kept = left.find((item) => item.id === dupes.ids[7])!;
    const record = (kept.metadata.consolidated as Array<{ at: string; ids: string[]; count: number }>)[0]!;
    expect(record.at).toBe(new Date(T0).toISOString());
    expect(record.count).toBe(49);
    expect([...record.ids].sort()).toEqual(dupes.ids.filter((_, i) => i !== 7).sort());
    expect((await store.getEmbeddings([kept.id])).size).toBe(1);
    expect((await store.list('entity'))[0]?.memoryCount).toBe(1);
    // A second run has nothing left to merge.
    expect(await consolidate(store, { now: T0 + DAY, category: 'screen' })).toEqual({
      clusters: 0,
      deleted: 0,
      kept: [],
      ids: [],
      dryRun: false,
    });
    await memory.close();
  });

  it('keeps protected near-duplicates and prefers them as representative', async () => {
    const { store, memory } = setup(makeStore);
    const base =
      'Screen capture of the Acme dashboard with revenue chart, churn table, weekly signups widget, ' +
      'active users gauge, region filter, export button, date range picker and a sidebar with saved reports';
    const { ids } = await memory.retain(
      Array.from({ length: 5 }, (_, i) => ({
        content: `${base} (capture ${i + 1})`,
        // A screen: repeats differ in their capture count, which consolidate does not read as
        // another fact (for other categories other numbers mean another fact).
        category: 'screen',
        bookmarked: i === 3,
        metadata: i === 4 ? { manual_save: true } : {},
        occurredAt: new Date(T0 - (10 - i) * 60_000).toISOString(),
      })),
    );
    // A dry run finds the same and changes nothing.
    const planned = await consolidate(store, { now: T0, dryRun: true });
    expect(planned).toMatchObject({ clusters: 1, deleted: 3, kept: [ids[3]], dryRun: true });
    expect(await store.list('memory')).toHaveLength(5);
    const result = await consolidate(store, { now: T0 });
    expect(result).toEqual({ clusters: 1, deleted: 3, kept: [ids[3]], ids: planned.ids, dryRun: false });
    expect((await store.list('memory')).map((item) => item.id).sort()).toEqual([ids[3]!, ids[4]!].sort());
    await memory.close();
  });
});

describe('importanceScore', () => {
  const at = new Date(T0).toISOString();
  const memory = (patch: Partial<Memory>): Memory =>
    makeMemory({
      id: 'm',
      abstract: 'a',
      content: 'a',
      occurredAt: at,
      createdAt: at,
      updatedAt: at,
      validFrom: at,
      fingerprint: 'f',
      ...patch,
    });

  it('combines importance, a 30-day half-life and log-scaled access count in 0..1', () => {
    expect(importanceScore(memory({ importance: 1, accessCount: 1_000 }), T0)).toBe(1);
    expect(importanceScore(memory({ importance: 0, occurredAt: daysAgo(10_000) }), T0)).toBeCloseTo(0, 5);
    expect(importanceScore(memory({ importance: 0, occurredAt: daysAgo(30) }), T0)).toBeCloseTo(0.15, 5);
    const fresh = importanceScore(memory({}), T0);
    expect(importanceScore(memory({ occurredAt: daysAgo(60) }), T0)).toBeLessThan(fresh);
    expect(importanceScore(memory({ accessCount: 5 }), T0)).toBeGreaterThan(fresh);
    expect(
      importanceScore(memory({ occurredAt: daysAgo(60), lastAccessedAt: new Date(T0).toISOString() }), T0),
    ).toBeCloseTo(fresh, 5);
  });
});

describe('scheduleDaily', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('fires at the hour, then daily, with unref’d timers and errors sent to onError', async () => {
    vi.useFakeTimers({ now: new Date(2025, 0, 1, 1, 30, 0, 0) });
    const timers: Array<{ hasRef?: () => boolean }> = [];
    const realTimeout = globalThis.setTimeout;
    const realInterval = globalThis.setInterval;
    vi.spyOn(globalThis, 'setTimeout').mockImplementation(((...args: Parameters<typeof setTimeout>) => {
      const timer = realTimeout(...args);
      timers.push(timer as never);
      return timer;
    }) as typeof setTimeout);
    vi.spyOn(globalThis, 'setInterval').mockImplementation(((...args: Parameters<typeof setInterval>) => {
      const timer = realInterval(...args);
      timers.push(timer as never);
      return timer;
    }) as typeof setInterval);

    const runs: Date[] = [];
    const errors: unknown[] = [];
    const job = scheduleDaily(
      async () => {
        runs.push(new Date(Date.now()));
        if (runs.length === 2) throw new Error('boom');
      },
      { hour: 3, onError: (error) => errors.push(error) },
    );

    await vi.advanceTimersByTimeAsync(90 * 60_000 - 1);
    expect(runs).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toHaveLength(1);
    expect([runs[0]!.getHours(), runs[0]!.getMinutes()]).toEqual([3, 0]);
    await vi.advanceTimersByTimeAsync(DAY);
    expect(runs).toHaveLength(2);
    expect(runs[1]!.getTime() - runs[0]!.getTime()).toBe(DAY);
    expect(errors).toEqual([new Error('boom')]);
    await vi.advanceTimersByTimeAsync(DAY);
    expect(runs).toHaveLength(3);

    expect(timers.length).toBeGreaterThanOrEqual(2);
    for (const timer of timers) expect(timer.hasRef?.()).toBe(false);

    job.stop();
    await vi.advanceTimersByTimeAsync(3 * DAY);
    expect(runs).toHaveLength(3);
  });

  it('waits for tomorrow when the hour has passed, and never throws', async () => {
    vi.useFakeTimers({ now: new Date(2025, 0, 1, 3, 0, 0, 0) });
    const runs: number[] = [];
    const job = scheduleDaily(
      () => {
        runs.push(Date.now());
        throw new Error('sync failure');
      },
      { hour: 3, clock: { now: () => Date.now() } },
    );
    await vi.advanceTimersByTimeAsync(DAY - 1);
    expect(runs).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toHaveLength(1);
    job.stop();
    expect(() => scheduleDaily(async () => {}, { hour: 24 })).toThrow(/hour/);
  });
});
