import { readdirSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createInMemoryStore, createMemory } from '../../src/index.js';
import { createFixedClock } from '../../src/testing/index.js';
import { quiet, STORES, storeAndClient, tempDir } from '../helpers/stores.js';

// Seed 001: retention expires "auto-captured, non-important old memories" only. With default
// settings, cleanup(), eviction and the daily schedule never delete what a caller chose to
// keep; they count a memory's age from when memoir learned it or last used it, not from the
// time the memory talks about; and the first run that deletes anything backs up first.

const DAY = 86_400_000;
const T0 = Date.parse('2025-06-01T12:00:00.000Z');

describe.each(STORES)('retention defaults (%s)', (_name, makeStore) => {
  const backups = tempDir('memoir-retention-backups-');
  let run = 0;
  const setup = (options: Parameters<typeof storeAndClient>[1] = {}) => {
    const clock = createFixedClock(T0);
    const backupDirectory = `${backups}/run-${++run}`;
    const { store, memory } = storeAndClient(makeStore, {
      clock,
      backupDirectory,
      capture: { enabled: true, minIntervalSeconds: 0 },
      ...options,
    });
    return { store, memory, clock, backupDirectory };
  };

  it('cleanup() with default settings deletes only old auto-captured memories, after a verified backup', async () => {
    const { memory, clock, backupDirectory } = setup();
    const kept = await memory.retain([
      { content: 'Peter was born in Lisbon.', occurredAt: '1990-05-01' },
      { content: 'Peter prefers tea to coffee.', kind: 'opinion', occurredAt: '2001-01-01' },
      { content: 'How to deploy: run make release.', category: 'workflow', occurredAt: '2010-03-03' },
      { content: 'The old staging console lived on port 8080.', category: 'screen', occurredAt: '2000-01-01' },
    ]);
    memory.capture({ tool: 'open_dashboard', parameters: { service: 'billing' } });
    memory.capture({ tool: 'scroll', parameters: { by: 300 } });
    await memory.flush();
    const captured = (await memory.list({ limit: 100 })).filter((item) => item.metadata.captured === true);
    expect(captured).toHaveLength(2);

    // Nothing is old yet by memoir's clock: not even the fact about 1990.
    expect((await memory.cleanup()).deleted).toBe(0);

    clock.advance(40 * DAY);
    const result = await memory.cleanup();
    expect([...result.ids].sort()).toEqual(captured.map((item) => item.id).sort());
    const left = (await memory.list({ limit: 100 })).map((item) => item.id).sort();
    expect(left).toEqual([...kept.ids].sort());

    // A verified backup was made before anything was deleted, and brings the captures back.
    const files = readdirSync(backupDirectory).filter((file) => file.includes('auto-before-cleanup'));
    expect(files).toHaveLength(1);
    await memory.restore(`${backupDirectory}/${files[0]}`, { confirm: true });
    expect((await memory.list({ limit: 100 })).length).toBe(kept.ids.length + captured.length);
    await memory.close();
  });

  it('a memory recalled lately is not old: age counts from when memoir learned or last used it', async () => {
    const { memory, clock } = setup({ retentionAppliesTo: ['captured', 'retained'] });
    const { ids } = await memory.retain([
      { content: 'The VPN gateway is vpn.example.org.', occurredAt: '1990-05-01' },
      { content: 'The printer on floor two is broken.', occurredAt: '1990-05-01' },
    ]);
    clock.advance(25 * DAY);
    await memory.recall('VPN gateway');
    await memory.flush();
    clock.advance(10 * DAY);
    // Learned 35 days ago: the printer note goes (its owner opted in for retained memories);
    // the VPN note was used 10 days ago and stays.
    expect((await memory.cleanup()).ids).toEqual([ids[1]]);
    expect((await memory.list()).map((item) => item.id)).toEqual([ids[0]]);
    await memory.close();
  });

  it('retentionAppliesTo opts other memories in, per origin; bookmarked and manual ones are never deleted', async () => {
    const { memory, clock } = setup({ retentionAppliesTo: ['retained'] });
    const mine = await memory.retain([
      { content: 'A note I retained myself.' },
      { content: 'A pinned note.', bookmarked: true },
      { content: 'A manually saved note.', metadata: { manual_save: true } },
    ]);
    memory.capture({ tool: 'click', parameters: { x: 1 } });
    await memory.flush();
    clock.advance(31 * DAY);
    expect((await memory.cleanup()).ids).toEqual([mine.ids[0]]);
    const left = await memory.list({ limit: 100 });
    expect(left.filter((item) => item.metadata.captured === true)).toHaveLength(1);
    expect(left.map((item) => item.id)).toEqual(expect.arrayContaining([mine.ids[1], mine.ids[2]]));
    await memory.close();
  });

  it('eviction at maxMemories follows the same rules: only captured memories make room by default', async () => {
    const { memory, clock } = setup({ maxMemories: 3 });
    const facts = await memory.retain([
      { content: 'Fact one, unimportant and ancient.', importance: 0, occurredAt: '1990-01-01' },
      { content: 'Fact two, unimportant and ancient.', importance: 0, occurredAt: '1990-01-01' },
    ]);
    memory.capture({ tool: 'click', parameters: { x: 2 } });
    await memory.flush();
    clock.advance(DAY);
    await memory.retain('Fact three, new.');
    const left = await memory.list({ limit: 100 });
    expect(left.some((item) => item.metadata.captured === true)).toBe(false);
    expect(left.map((item) => item.id)).toEqual(expect.arrayContaining(facts.ids));
    // With nothing left that may be evicted, the caller's memory is stored and nothing of theirs deleted.
    await memory.retain('Fact four, over the limit.');
    expect((await memory.list({ limit: 100 })).length).toBe(4);
    await memory.close();
  });
});

describe('the daily schedule', () => {
  const backupDirectory = tempDir('memoir-schedule-backups-');
  afterEach(() => vi.useRealTimers());

  it('runs cleanup with the same rules: the caller’s old facts stay, old captures go', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'setInterval'] });
    const clock = createFixedClock(T0);
    const memory = createMemory({
      store: createInMemoryStore(),
      clock,
      logger: quiet,
      backupDirectory,
      schedule: { hour: 3 },
      capture: { enabled: true },
    });
    const errors: unknown[] = [];
    memory.on('error', (event) => errors.push(event.error));
    const fact = await memory.retain({ content: 'Ada was born in 1815.', occurredAt: '1815-12-10' });
    memory.capture({ tool: 'click', parameters: { x: 3 } });
    await memory.flush();
    clock.advance(45 * DAY);
    // The schedule counts from the client's clock: the next 03:00 local is at most a day away.
    await vi.advanceTimersByTimeAsync(DAY);
    vi.useRealTimers();
    await memory.flush();
    await vi.waitFor(async () => expect((await memory.list()).map((item) => item.id)).toEqual(fact.ids));
    expect(errors).toEqual([]);
    await memory.close();
  });
});
