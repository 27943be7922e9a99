import { afterAll, describe, expect, it } from 'vitest';
import { createMemory, type MemoryClient, ValidationError } from '../../src/index.js';
import { quiet, STORES } from '../helpers/stores.js';

// `count` and `listEntities`: the totals and pages the web view's lists stand on. Counted by the
// store with the filters `list` takes, inside the client's scope, on every store.

describe.each(STORES)('count and listEntities on %s', (_name, make) => {
  const store = make();
  const admin = createMemory({ store, logger: quiet });
  const alice = createMemory({ store, logger: quiet, scope: { userId: 'alice' } });
  const bob = createMemory({ store, logger: quiet, scope: { userId: 'bob' } });
  afterAll(async () => {
    await Promise.all([alice.close(), bob.close()]);
    await admin.close();
  });

  const ready = (async () => {
    await alice.retain([
      { content: 'Alice lives in Lisbon', entities: ['Lisbon'], kind: 'world', occurredAt: '2025-01-10T00:00:00.000Z' },
      {
        content: 'Alice likes green tea',
        entities: ['Tea'],
        kind: 'opinion',
        category: 'preferences',
        occurredAt: '2025-02-10T00:00:00.000Z',
      },
      {
        content: 'Alice met Peter at the castle',
        entities: ['Peter', 'Lisbon'],
        kind: 'experience',
        occurredAt: '2025-03-10T00:00:00.000Z',
      },
    ]);
    await bob.retain([
      { content: 'Bob lives in Porto', entities: ['Porto'], kind: 'world', occurredAt: '2025-01-12T00:00:00.000Z' },
      { content: 'Bob met Peter too', entities: ['Peter'], kind: 'experience', occurredAt: '2025-04-01T00:00:00.000Z' },
    ]);
    await alice.core.append('Alice prefers short answers.');
  })();

  async function countMatchesList(client: MemoryClient, options: Parameters<MemoryClient['count']>[0]) {
    const counted = await client.count(options);
    const listed = await client.list({ ...options, limit: 1000 });
    expect(counted).toBe(listed.length);
    return counted;
  }

  it('counts what list lists, filter by filter', async () => {
    await ready;
    expect(await countMatchesList(admin, {})).toBe(5);
    expect(await countMatchesList(alice, {})).toBe(3);
    expect(await countMatchesList(alice, { kinds: ['world'] })).toBe(1);
    expect(await countMatchesList(alice, { categories: ['preferences'] })).toBe(1);
    expect(await countMatchesList(alice, { entities: ['lisbon'] })).toBe(2);
    expect(await countMatchesList(alice, { since: '2025-02-01', until: '2025-02-28' })).toBe(1);
    expect(await countMatchesList(admin, { entities: ['Peter'] })).toBe(2);
  });

  it('stays inside the scope: a scoped client never counts another tenant, an admin narrows', async () => {
    await ready;
    expect(await bob.count({ entities: ['Peter'] })).toBe(1);
    expect(await alice.count({ scope: { userId: 'bob' } })).toBe(0);
    expect(await admin.count({ scope: { userId: 'bob' } })).toBe(2);
  });

  it('counts invalidated memories unless told not to', async () => {
    await ready;
    const [target] = await bob.list({ entities: ['Porto'] });
    await bob.invalidate(target!.id, 'moved');
    expect(await bob.count()).toBe(2);
    expect(await bob.count({ includeInvalid: false })).toBe(1);
  });

  it('pages the entities of the scope, without the core block record', async () => {
    await ready;
    const names = (await alice.listEntities()).map((entity) => entity.name).sort();
    expect(names).toEqual(['Lisbon', 'Peter', 'Tea']);
    const lisbon = (await alice.listEntities()).find((entity) => entity.name === 'Lisbon');
    expect(lisbon?.memoryCount).toBe(2);
    const first = await alice.listEntities({ limit: 2 });
    const second = await alice.listEntities({ limit: 2, offset: 2 });
    expect([...first, ...second].map((entity) => entity.name).sort()).toEqual(['Lisbon', 'Peter', 'Tea']);
    expect((await bob.listEntities()).map((entity) => entity.name).sort()).toEqual(['Peter', 'Porto']);
    expect(await alice.listEntities({ scope: { userId: 'bob' } })).toEqual([]);
    expect((await admin.listEntities({ scope: { userId: 'bob' } })).length).toBe(2);
  });

  it('refuses bad options with a ValidationError naming the field', async () => {
    await expect(alice.count({ kinds: ['rumour' as 'world'] })).rejects.toSatisfy(
      (error) => ValidationError.isInstance(error) && /kinds/.test(error.message),
    );
    await expect(alice.count({ limit: 3 } as never)).rejects.toBeInstanceOf(ValidationError);
    await expect(alice.listEntities({ limit: 0 })).rejects.toSatisfy(
      (error) => ValidationError.isInstance(error) && /limit/.test(error.message),
    );
  });
});
