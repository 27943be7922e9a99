import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createInMemoryStore, createMemory, type MemoryInput } from '../../src/index.js';
import { createCounterIds } from '../../src/testing/index.js';

// Random sequences of the user's facts and of words the user did not say about the same
// attributes — a tool output the agent captured, a quote of someone named, an opinion, a raw
// conversation episode, an imported document, another speaker's "I" — in any order of dates:
// only the user's own statements ever end the user's facts.

const SAID = [
  (v: string) => `I live in ${v}.`,
  (v: string) => `I moved to ${v}.`,
  (v: string) => `My rent is ${v.length * 300} euros.`,
  (v: string) => `We use ${v.length % 2 ? 'yarn' : 'pnpm'} as our package manager.`,
  (v: string) => `I work at ${v} Labs.`,
];
const PLACES = ['Berlin', 'Lisbon', 'Vienna', 'Porto', 'Graz', 'Oslo'];
type Source = 'user' | 'captured' | 'quote' | 'opinion' | 'episode' | 'document' | 'speaker';

function input(source: Source, text: string, occurredAt: string): MemoryInput {
  switch (source) {
    case 'user':
      return { content: text, occurredAt };
    case 'captured':
      return { content: `Fetched page says: ${text}`, occurredAt, metadata: { captured: true } };
    case 'quote':
      return { content: `Mallory said: "${text}"`, occurredAt };
    case 'opinion':
      return { content: text, occurredAt, kind: 'opinion' };
    case 'episode':
      return { content: text, occurredAt, metadata: { episode: true } };
    case 'document':
      return { content: text, occurredAt, source: { file: 'notes/imported.md', origin: 'document' } };
    case 'speaker':
      return { content: text, occurredAt, source: { speaker: 'Mallory' } };
  }
}

const step = fc.record({
  source: fc.constantFrom<Source>('user', 'captured', 'quote', 'opinion', 'episode', 'document', 'speaker'),
  fact: fc.nat({ max: SAID.length - 1 }),
  place: fc.constantFrom(...PLACES),
  year: fc.integer({ min: 2019, max: 2026 }),
});

describe("only the user's word changes the user's facts", () => {
  it('no link ever has an untrusted memory as the newer side', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 2, maxLength: 20 }), async (steps) => {
        const memory = createMemory({ store: createInMemoryStore(), ids: createCounterIds(), logger: { log() {} } });
        const sourceOf = new Map<string, Source>();
        for (const { source, fact, place, year } of steps) {
          const { ids } = await memory.retain(input(source, SAID[fact]!(place), `${year}-06-01`), {
            onDuplicate: 'keep',
          });
          sourceOf.set(ids[0]!, source);
        }
        for (const stored of await memory.list({ limit: 1000 })) {
          const own = sourceOf.get(stored.id);
          // The user's facts end only by the user's word; a speaker's only by that speaker's.
          if (stored.supersededBy !== null) expect(sourceOf.get(stored.supersededBy)).toBe(own);
          if (own !== 'user' && own !== 'speaker') expect(stored.metadata.supersedes).toBeUndefined();
        }
        await memory.close();
      }),
      { numRuns: 60 },
    );
  });
});
