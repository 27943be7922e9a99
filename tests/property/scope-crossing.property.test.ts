import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createInMemoryStore,
  createMemory,
  MemoirError,
  type MemoryClient,
  NotFoundError,
  type RetainResult,
} from '../../src/index.js';
import { createCounterIds } from '../../src/testing/index.js';

// Random sequences of calls by two scoped clients on one store, with ids of either scope
// and per-call scopes of either user: a client never gets, changes or finds the other's memories.

const users = ['alice', 'bob'] as const;
type User = (typeof users)[number];

const step = fc.record({
  by: fc.constantFrom(...users),
  op: fc.constantFrom('retain', 'recall', 'list', 'get', 'update', 'invalidate', 'forget', 'narrow'),
  text: fc.constantFrom('home server', 'dark mode', 'garage door', 'deploy pipeline'),
  target: fc.nat(),
  scopeOf: fc.constantFrom<User | 'none'>('alice', 'bob', 'none'),
});

type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;

async function run(steps: Step[]) {
  const store = createInMemoryStore();
  const options = { store, ids: createCounterIds(), logger: { log() {} } };
  const clients: Record<User, MemoryClient> = {
    alice: createMemory({ ...options, scope: { userId: 'alice' } }),
    bob: createMemory({ ...options, scope: { userId: 'bob' } }),
  };
  const admin = createMemory(options);
  const owner = new Map<string, User>();
  const allIds = () => [...owner.keys()];
  const other = (user: User): User => (user === 'alice' ? 'bob' : 'alice');
  for (const { by, op, text, target, scopeOf } of steps) {
    const client = clients[by];
    const ids = allIds();
    const id = ids.length > 0 ? ids[target % ids.length]! : 'missing';
    const theirs = owner.get(id) === other(by);
    const callScope = scopeOf === 'none' ? undefined : { userId: scopeOf };
    const outcome = await (async () => {
      switch (op) {
        case 'retain':
          return client.retain({ content: `${by} ${text} ${target}`, ...(callScope ? { scope: callScope } : {}) });
        case 'recall':
          return client.recall(text, callScope ? { scope: callScope, k: 100 } : { k: 100 });
        case 'list':
          return client.list({ limit: 1000, ...(callScope ? { scope: callScope } : {}) });
        case 'narrow':
          return client.recall(text, { scope: { agentId: 'x' } });
        case 'get':
          return client.get(id);
        case 'update':
          return client.update(id, { content: `${by} rewrote it` });
        case 'invalidate':
          return client.invalidate(id, 'stale');
        case 'forget':
          return client.forget(id);
      }
    })().then(
      (value) => ({ value, error: null as unknown }),
      (error: unknown) => ({ value: null, error }),
    );
    if (outcome.error !== null) {
      expect(MemoirError.isInstance(outcome.error)).toBe(true);
    }
    if (op === 'retain') {
      if (scopeOf !== 'none' && scopeOf !== by) expect(outcome.error).not.toBeNull();
      const stored = (outcome.value as RetainResult | null)?.memories ?? [];
      for (const memory of stored) owner.set(memory.id, memory.scope.userId as User);
    }
    // Whatever came back belongs to the caller.
    const seen =
      op === 'recall' || op === 'narrow'
        ? (outcome.value as { results: Array<{ memory: { scope: { userId?: string } } }> } | null)?.results.map(
            (result) => result.memory,
          )
        : op === 'list'
          ? (outcome.value as Array<{ scope: { userId?: string } }> | null)
          : op === 'get' || op === 'update' || op === 'invalidate'
            ? outcome.value
              ? [outcome.value as { scope: { userId?: string } }]
              : []
            : [];
    for (const memory of seen ?? []) expect(memory.scope.userId).toBe(by);
    if (theirs && ['get', 'update', 'invalidate'].includes(op))
      expect(NotFoundError.isInstance(outcome.error)).toBe(true);
    if (theirs && op === 'forget') expect(outcome.value).toBe(0);
    // An owner's own forget deletes exactly that memory; nothing else leaves the model.
    if (owner.get(id) === by && op === 'forget') {
      expect(outcome.value).toBe(1);
      owner.delete(id);
    }
    // A new version made by update is the caller's too.
    if (op === 'update' && outcome.value) owner.set((outcome.value as { id: string }).id, by);
  }
  // Every memory written and not forgotten by its owner is still there, in its owner's scope:
  // a memory that silently disappeared (or moved) fails here.
  for (const [id, user] of owner) {
    const memory = await admin.get(id);
    expect(memory.scope.userId).toBe(user);
    expect((await clients[user].get(id)).id).toBe(id);
    await expect(clients[other(user)].get(id)).rejects.toSatisfy(NotFoundError.isInstance);
  }
  // And nothing is in the store that no one wrote.
  expect((await admin.list({ limit: 1000, includeInvalid: true })).map((memory) => memory.id).sort()).toEqual(
    [...owner.keys()].sort(),
  );
  await clients.alice.close();
  await clients.bob.close();
}

describe('scope-crossing ids and scopes (property)', () => {
  it('no sequence of calls lets one user read, change or delete the other’s memories, and none goes missing', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), (steps) => run(steps)),
      { numRuns: 60 },
    );
  }, 120_000);
});
