import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createInMemoryStore,
  createMemory,
  formatContext,
  loadConfig,
  MemoirError,
  type MemoryClient,
} from '../../src/index.js';

// Random junk into every public function must produce either a result or a MemoirError,
// and a rejected call must leave the store exactly as it was.

const junk = fc.anything({
  withBigInt: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withTypedArray: true,
  withNullPrototype: true,
  withSparseArray: true,
  withBoxedValues: true,
  maxDepth: 3,
});

const fieldJunk = fc.oneof(
  junk,
  fc.constantFrom('', ' ', '\u0000', 'x'.repeat(300), -1, 2, Number.NaN, Number.POSITIVE_INFINITY, 1e308, [], {}, null),
);

// Objects shaped like real inputs, with some fields wrong: these reach deeper than pure noise.
const inputShaped = fc.record(
  {
    content: fc.oneof(fc.string(), fieldJunk),
    kind: fc.oneof(fc.constantFrom('world', 'experience', 'opinion', 'observation', 'belief'), fieldJunk),
    category: fieldJunk,
    importance: fc.oneof(fc.double(), fieldJunk),
    entities: fc.oneof(fc.array(fc.string()), fieldJunk),
    scope: fc.oneof(fc.record({ userId: fc.string() }), fieldJunk),
    occurredAt: fc.oneof(fc.date({ noInvalidDate: false }), fc.string(), fieldJunk),
    source: fc.oneof(fc.record({ line: fc.integer() }), fieldJunk),
    metadata: fc.oneof(fc.dictionary(fc.string(), junk), fieldJunk),
  },
  { requiredKeys: [] },
);

const optionsShaped = fc.record(
  {
    k: fieldJunk,
    minScore: fc.oneof(fc.double(), fieldJunk),
    tokenBudget: fieldJunk,
    kinds: fieldJunk,
    since: fc.oneof(fc.string(), fieldJunk),
    scope: fieldJunk,
    includeInvalid: fieldJunk,
    limit: fieldJunk,
  },
  { requiredKeys: [] },
);

const anyArgument = fc.oneof(junk, inputShaped, optionsShaped, fc.array(inputShaped, { maxLength: 3 }));

async function snapshot(memory: MemoryClient) {
  const memories = await memory.list({ limit: 1000 });
  const stats = await memory.stats();
  return JSON.stringify({ memories, stats });
}

async function seededClient() {
  const memory = createMemory({ store: createInMemoryStore(), logger: { log: () => {} } });
  const { ids } = await memory.retain([
    { content: 'Peter prefers concise replies.', entities: ['Peter'], kind: 'opinion' },
    { content: 'The Castle is a home server.', entities: ['The Castle'] },
  ]);
  return { memory, ids };
}

type Call = (memory: MemoryClient, a: unknown, b: unknown, ids: string[]) => unknown;

const calls: Record<string, Call> = {
  retain: (memory, a, b) => memory.retain(a as never, b as never),
  get: (memory, a) => memory.get(a as never),
  list: (memory, a) => memory.list(a as never),
  update: (memory, a, b, ids) => memory.update((typeof a === 'string' ? a : ids[0]) as never, b as never),
  forget: (memory, a) => memory.forget(a as never),
  invalidate: (memory, a, b, ids) => memory.invalidate((typeof a === 'string' ? a : ids[0]) as never, b as never),
  recall: (memory, a, b) => memory.recall(a as never, b as never),
  formatContext: (memory, a, b) => memory.formatContext(a as never, b as never),
};

describe('junk into every public function', () => {
  for (const [name, call] of Object.entries(calls)) {
    it(`${name}: only MemoirErrors, and a rejected call changes nothing`, async () => {
      const { memory, ids } = await seededClient();
      await fc.assert(
        fc.asyncProperty(anyArgument, anyArgument, async (a, b) => {
          const before = await snapshot(memory);
          let threw: unknown;
          try {
            await call(memory, a, b, ids);
          } catch (error) {
            threw = error;
          }
          await memory.flush();
          if (threw === undefined) return;
          expect(MemoirError.isInstance(threw), `${name} threw ${String(threw)}`).toBe(true);
          expect(await snapshot(memory)).toBe(before);
        }),
        { numRuns: 150 },
      );
      await memory.close();
    });
  }

  it('createMemory: only MemoirErrors', () => {
    fc.assert(
      fc.property(fc.oneof(junk, optionsShaped), (options) => {
        try {
          createMemory(options as never);
        } catch (error) {
          expect(MemoirError.isInstance(error), String(error)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('formatContext and loadConfig: only MemoirErrors', () => {
    fc.assert(
      fc.property(anyArgument, anyArgument, (a, b) => {
        for (const call of [
          () => formatContext(a as never, b as never),
          () => loadConfig({ env: {}, overrides: a } as never),
        ]) {
          try {
            call();
          } catch (error) {
            expect(MemoirError.isInstance(error), String(error)).toBe(true);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
