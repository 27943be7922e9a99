import { describe, expect, it } from 'vitest';
import { isDrainControl, isDrained } from '../../src/core/engine/track-calls.js';
import { createMemory, type MemoryClient, StoreError } from '../../src/index.js';
import { quiet, STORES, tempDir } from '../helpers/stores.js';

// close() must wait for every async method of the client, including one added tomorrow. No name
// is listed here: the client is walked at runtime (its members and its namespaces such as
// `procedures`, `core`, `workspace`), each method is called once close() has begun, and every
// one that answers with a promise must be a drained wrapper (engine.track) and be refused.

interface Member {
  path: string;
  owner: object;
  method: (...args: unknown[]) => unknown;
}

/** Every function reachable through the client's own properties and plain namespace objects. */
function membersOf(memory: MemoryClient): Member[] {
  const found: Member[] = [];
  const visit = (object: object, prefix: string) => {
    for (const [key, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(object))) {
      // A getter is a property, not a method; the store and embedder are the ports in use.
      if (!('value' in descriptor)) continue;
      const value: unknown = descriptor.value;
      if (value === memory.store || value === memory.embedder) continue;
      if (typeof value === 'function')
        found.push({ path: `${prefix}${key}`, owner: object, method: value as Member['method'] });
      else if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype)
        visit(value, `${prefix}${key}.`);
    }
  };
  visit(memory, '');
  return found;
}

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  value !== null &&
  (typeof value === 'object' || typeof value === 'function') &&
  typeof (value as PromiseLike<unknown>).then === 'function';

describe.each(STORES)('close() drains every async method of the client (%s)', (_name, makeStore) => {
  it('each method answering with a promise runs through the drain and is refused once close() has begun', async () => {
    const memory = createMemory({ store: makeStore(), logger: quiet, workspace: tempDir('memoir-drain-') });
    await memory.stats();
    const members = membersOf(memory);
    const closing = memory.close();

    const undrained: string[] = [];
    const drained: string[] = [];
    for (const { path, owner, method } of members) {
      let answer: unknown;
      try {
        answer = method.call(owner);
      } catch {
        continue; // answered at once: a synchronous method (it refuses or validates by throwing)
      }
      if (!isThenable(answer)) continue;
      const outcome = await Promise.resolve(answer).then(
        () => undefined,
        (error: unknown) => error,
      );
      if (isDrainControl(method)) continue; // flush() and close() are the drain itself
      const refused = outcome instanceof StoreError && /closed/.test(outcome.message);
      if (isDrained(method) && refused) drained.push(path);
      else
        undrained.push(
          `${path} (${isDrained(method) ? 'drained' : 'not drained'}, ${refused ? 'refused' : 'not refused'})`,
        );
    }
    await closing;

    expect(undrained).toEqual([]);
    // The walk reached the namespaces, not only the top level.
    expect(drained.some((path) => path.startsWith('procedures.'))).toBe(true);
    expect(drained.some((path) => path.startsWith('core.'))).toBe(true);
    expect(drained).toContain('workspace.index');
  });
});
