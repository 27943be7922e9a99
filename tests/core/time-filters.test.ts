import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/index.js';
import { clientsClosedAfterEach, T0 } from '../helpers/clients.js';

const client = clientsClosedAfterEach();
const DAY = 86_400_000;

async function seeded() {
  const memory = client();
  const at = (daysAgo: number) => new Date(T0 - daysAgo * DAY).toISOString();
  const { ids } = await memory.retain([
    { content: 'Peter deployed the castle server.', occurredAt: at(1) },
    { content: 'Peter deployed the garden server.', occurredAt: at(10) },
    { content: 'Peter deployed the harbour server.', occurredAt: at(40) },
    // 2025-11-30 in the afternoon, UTC (T0 is 2025-12-01T12:00Z).
    { content: 'Peter deployed the tower server.', occurredAt: '2025-11-30T15:00:00Z' },
  ]);
  return { memory, ids };
}

describe('since and until take the times the CLI takes', () => {
  it('relative times count back from the client clock, in recall and in list', async () => {
    const { memory, ids } = await seeded();
    const recalled = async (options: Record<string, unknown>) =>
      (await memory.recall('Peter deployed server', options)).results.map((result) => result.memory.id).sort();
    const listed = async (options: Record<string, unknown>) => (await memory.list(options)).map((m) => m.id).sort();
    expect(await recalled({ since: '30d' })).toEqual([ids[0], ids[1], ids[3]].sort());
    expect(await recalled({ since: '2w', until: '5d' })).toEqual([ids[1]]);
    expect(await recalled({ since: '36h' })).toEqual([ids[0], ids[3]].sort());
    expect(await listed({ since: '1.5d' })).toEqual([ids[0], ids[3]].sort());
    expect(await listed({ until: '30d' })).toEqual([ids[2]]);
    expect(await listed({ since: 'now' })).toEqual([]);
    // Far beyond the years memoir stores: everything.
    expect(await listed({ since: '99999999999w' })).toHaveLength(4);
  });

  it('a bare date as until includes the whole of that day; dates, date-times and epoch milliseconds still work', async () => {
    const { memory, ids } = await seeded();
    const listed = async (options: Record<string, unknown>) => (await memory.list(options)).map((m) => m.id).sort();
    expect(await listed({ since: '2025-11-30', until: '2025-11-30' })).toEqual([ids[0], ids[3]].sort());
    expect(await listed({ until: '2025-11-30T12:00:00Z', since: '2025-11-01' })).toEqual([ids[0], ids[1]].sort());
    expect(await listed({ since: new Date(T0 - 2 * DAY) })).toEqual([ids[0], ids[3]].sort());
    expect(await listed({ since: T0 - 2 * DAY, until: T0 })).toEqual([ids[0], ids[3]].sort());
    expect(await listed({ since: '2025-11-30T16:00:00+01:00' })).toEqual([ids[3]]);
  });

  it('anything else is a ValidationError naming the accepted forms', async () => {
    const memory = client();
    for (const since of ['yesterday-ish', '30 days', '2025-02-30', '-3d']) {
      const error = await memory.recall('x', { since }).then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(ValidationError.isInstance(error), since).toBe(true);
      expect((error as ValidationError).field).toBe('options.since');
      expect((error as ValidationError).message).toContain('a relative time such as 30d');
    }
    await expect(memory.list({ until: '12x' })).rejects.toThrow(/options\.until: expected a relative time/);
    await expect(memory.list({ until: Number.NaN })).rejects.toThrow(/options\.until/);
  });
});
