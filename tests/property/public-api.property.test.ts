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
import { collect, STORES, storeAndClient, tempDir } from '../helpers/stores.js';

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

// Times every reader must accept once retain did, and times just past what the model stores.
const edgeTimes = fc.oneof(
  { arbitrary: fc.integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 }), weight: 6 },
  fc.integer({ min: -8.64e15, max: 8.64e15 }),
  fc.constantFrom(
    Date.UTC(10000, 0, 1),
    Date.UTC(-1, 0, 1),
    8.64e15,
    -8.64e15,
    253_402_300_799_999,
    253_402_300_800_000,
    -62_167_219_200_000,
    -62_167_219_200_001,
    '+010000-01-01T00:00:00.000Z',
    '0000-01-01T00:00:00.000Z',
    '9999-12-31T23:59:59.999Z',
  ),
  fc.date({ min: new Date(-8.64e15), max: new Date(8.64e15) }),
);

function nestedValue(levels: number): Record<string, unknown> {
  let value: unknown = 'bottom';
  for (let i = 0; i < levels; i++) value = i % 2 === 0 ? { d: value } : [value];
  return { deep: value };
}

function circularValue(): Record<string, unknown> {
  const value: Record<string, unknown> = { a: [1, { b: null }] };
  ((value.a as unknown[])[1] as Record<string, unknown>).b = value;
  return value;
}

// Metadata that is JSON but hostile: nesting near and past the cap, cycles, a __proto__ key.
const hostileMetadata = fc.oneof(
  fc.integer({ min: 60, max: 1300 }).map(nestedValue),
  fc.constant(null).map(circularValue),
  fc.constant(null).map(() => JSON.parse('{"__proto__":{"polluted":true}}') as Record<string, unknown>),
  fc.jsonValue({ maxDepth: 4 }).map((value) => ({ value })),
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
    occurredAt: fc.oneof(fc.date({ noInvalidDate: false }), fc.string(), edgeTimes, fieldJunk),
    validFrom: fc.oneof(edgeTimes, fieldJunk),
    source: fc.oneof(fc.record({ line: fc.integer() }), fieldJunk),
    metadata: fc.oneof(fc.dictionary(fc.string(), junk), hostileMetadata, fieldJunk),
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

  // The list above reaches deep; this one reaches wide: every function a client has, nested
  // ones included (procedures.*, core.*, workspace.*), so a new method is covered the day it lands.
  it('every other function on the client: a result or a MemoirError, whatever it is given', async () => {
    const home = tempDir('memoir-junk-everywhere-');
    const memory = createMemory({ store: createInMemoryStore(), home, logger: { log: () => {} } });
    await memory.retain([
      { content: 'Peter prefers concise replies.', entities: ['Peter'] },
      'The Castle is a home server.',
    ]);
    const covered = new Set([...Object.keys(calls), 'close', 'flush', 'on', 'once', 'off']);
    const targets: [string, (...args: unknown[]) => unknown][] = [];
    for (const [name, member] of Object.entries(memory)) {
      if (covered.has(name) || name === 'store' || name === 'embedder') continue;
      if (typeof member === 'function') targets.push([name, member as never]);
      else if (member !== null && typeof member === 'object')
        for (const [inner, fn] of Object.entries(member))
          if (typeof fn === 'function') targets.push([`${name}.${inner}`, fn as never]);
    }
    expect(targets.length).toBeGreaterThan(40);
    for (const [name, fn] of targets) {
      await fc.assert(
        fc.asyncProperty(fc.oneof(anyArgument, fc.string()), anyArgument, async (a, b) => {
          try {
            const result = await fn(a, b);
            // A watcher a junk call managed to start is stopped again.
            if (
              result !== null &&
              typeof result === 'object' &&
              'close' in result &&
              typeof result.close === 'function'
            )
              await result.close();
          } catch (error) {
            expect(MemoirError.isInstance(error), `${name} threw ${String(error)}`).toBe(true);
          }
        }),
        { numRuns: 40 },
      );
    }
    await memory.close();
  });

  // A counterexample fast-check once found: `map` skips the hole of `[,]`, so it reached the store code.
  it('retain refuses the hole of a sparse batch by its index', async () => {
    const { memory } = await seededClient();
    const before = await snapshot(memory);
    // biome-ignore lint/suspicious/noSparseArray: the hole is the input under test
    for (const batch of [[,], [{ content: 'kept?' }, ,]]) {
      const error = await memory.retain(batch as never, new Map() as never).catch((reason: unknown) => reason);
      expect(MemoirError.isInstance(error), String(error)).toBe(true);
      expect((error as MemoirError & { field?: string }).field).toBe(`input[${batch.length - 1}]`);
    }
    expect(await snapshot(memory)).toBe(before);
    await memory.close();
  });

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

// The other half of the contract: whatever retain accepted, export and import, backup and
// restore (with clearAll between) carry back exactly.
const plausibleInput = fc.record(
  {
    content: fc.string({ minLength: 1 }).filter((text) => text.trim() !== ''),
    occurredAt: edgeTimes,
    validFrom: edgeTimes,
    entities: fc.array(fc.string({ minLength: 1 }), { maxLength: 2 }),
    metadata: fc.oneof(
      { arbitrary: fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 })), weight: 4 },
      { arbitrary: hostileMetadata, weight: 1 },
    ),
  },
  { requiredKeys: ['content'] },
);

describe.each(STORES)('whatever retain accepts round-trips (%s store)', (name, makeStore) => {
  const directory = tempDir('memoir-property-backups-');
  let accepted = 0;

  it('export → import and backup → clearAll → restore give back the same export', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(plausibleInput, { minLength: 1, maxLength: 2 }), async (inputs) => {
        const { memory } = storeAndClient(makeStore, { backupDirectory: directory });
        try {
          const ok = await memory.retain(inputs as never).then(
            () => true,
            (error: unknown) => {
              expect(MemoirError.isInstance(error), String(error)).toBe(true);
              return false;
            },
          );
          if (!ok) return;
          accepted += 1;
          const before = await collect(memory.export());
          const info = await memory.backup('property');
          await memory.clearAll({ confirm: true });
          await memory.restore(info.path, { confirm: true });
          expect(await collect(memory.export())).toEqual(before);
          const other = storeAndClient(makeStore).memory;
          await other.import(before);
          expect(await collect(other.export())).toEqual(before);
          await other.close();
        } finally {
          await memory.close();
        }
      }),
      // Each LanceDB run opens two directories and writes a backup through them: its 60 runs took
      // 101 s of a loaded 2-core machine (47 s before the store port v2; noted on issue 41) where
      // the other stores' 60 take under 10, so it runs 30.
      { numRuns: name === 'lancedb' ? 30 : 60 },
    );
    // The property means something only if retains went through.
    expect(accepted).toBeGreaterThan(name === 'lancedb' ? 5 : 10);
  }, 240_000);
});
