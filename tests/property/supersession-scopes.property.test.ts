import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createInMemoryStore, createMemory, type MemoryClient } from '../../src/index.js';
import { createCounterIds } from '../../src/testing/index.js';

// Random sequences of facts that change (homes, rents, tools, schedules), told by two users
// through their scoped clients and by an admin client naming a scope, on one store, in any
// order of dates: every supersession link joins two memories of the same scope, always.

const users = ['alice', 'bob'] as const;
const FACTS = [
  (v: string) => `I live in ${v}.`,
  (v: string) => `I moved to ${v}.`,
  (v: string) => `My rent is ${v.length * 300} euros.`,
  (v: string) => `We switched from jest to ${v.toLowerCase()}.`,
  (v: string) => `The weekly sync moved to ${v.length % 2 ? 'Tuesday' : 'Friday'}.`,
  (v: string) => `Peter lives in ${v}.`,
];
const PLACES = ['Berlin', 'Lisbon', 'Vienna', 'Porto', 'Graz', 'Oslo'];

const step = fc.record({
  by: fc.constantFrom<'alice' | 'bob' | 'admin'>('alice', 'bob', 'admin'),
  as: fc.constantFrom(...users),
  fact: fc.nat({ max: FACTS.length - 1 }),
  place: fc.constantFrom(...PLACES),
  year: fc.integer({ min: 2019, max: 2026 }),
  batch: fc.boolean(),
});

describe('supersession never crosses scopes', () => {
  it('links only memories of one scope, whoever tells and in whatever order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 2, maxLength: 24 }), async (steps) => {
        const store = createInMemoryStore();
        const options = { store, ids: createCounterIds(), logger: { log() {} } };
        const clients: Record<string, MemoryClient> = {
          alice: createMemory({ ...options, scope: { userId: 'alice' } }),
          bob: createMemory({ ...options, scope: { userId: 'bob' } }),
          admin: createMemory(options),
        };
        const pending: Array<{
          by: string;
          input: { content: string; occurredAt: string; scope?: { userId: string } };
        }> = [];
        for (const { by, as, fact, place, year, batch } of steps) {
          const input = {
            content: FACTS[fact]!(place),
            occurredAt: `${year}-06-01`,
            ...(by === 'admin' ? { scope: { userId: as } } : {}),
          };
          pending.push({ by, input });
          // A batch mixes facts of one client; the admin's batch mixes both users.
          if (!batch) {
            const group = pending.splice(0).filter((item) => item.by === by);
            if (group.length > 0)
              await clients[by]!.retain(
                group.map((item) => item.input),
                { onDuplicate: 'keep' },
              );
          }
        }
        const all = await clients.admin!.list({ limit: 1000 });
        const scopeOf = new Map(all.map((memory) => [memory.id, memory.scope.userId]));
        for (const memory of all) {
          if (memory.supersededBy !== null) expect(scopeOf.get(memory.supersededBy)).toBe(memory.scope.userId);
          const replaced = memory.metadata.supersedes;
          if (Array.isArray(replaced))
            for (const id of replaced) expect(scopeOf.get(id as string)).toBe(memory.scope.userId);
        }
        await clients.admin!.close();
      }),
      { numRuns: 60 },
    );
  });
});
