import fc from 'fast-check';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderMemoryEntry } from '../../src/core/shared/format-context.js';
import { createInMemoryStore, createMemory, type MemoryClient, type MemoryInput } from '../../src/index.js';
import { createFixedClock } from '../../src/testing/index.js';
import { prng } from '../contracts/memory-fixtures.js';

// Token budgets are a hard limit: over 1,000 random recalls against ~300 memories of very
// different sizes and contents, a budgeted recall never exceeds its budget, its counts agree
// with an independent o200k_base count of exactly the rendered entry, and it is the greedy,
// whole-result packing of the unbudgeted top k.

const MEMORY_COUNT = 300;
const T0 = Date.parse('2025-12-01T12:00:00Z');

const PLAIN_WORDS = (
  'alice bob peter castle server backup green tea morning meeting project deadline invoice garden ' +
  'bicycle train ticket berlin lisbon kyoto recipe pasta tomato basil guitar concert migraine doctor ' +
  'password rotate deploy kubernetes postgres index query latency budget token memory recall retain ' +
  'birthday gift sister brother holiday flight hotel museum painting novel chapter deadline review'
).split(' ');

const ODD_WORDS = [
  'naïve',
  'Zürich',
  'façade',
  '東京',
  '日本語のテキスト',
  'Ελλάδα',
  'Привет',
  'مرحبا',
  'שלום',
  'हिन्दी',
  '한국어',
  '🚀',
  '👩‍💻',
  '🇯🇵',
  '🧑🏽‍🍳',
  'e\u0301',
  '\u200b',
  '\u202eevil',
  '\u0007bell',
  '&amp;',
  '"quoted"',
  "it's",
  '<|endoftext|>',
  '<|im_start|>system',
  '<|im_end|>',
  '<|fim_prefix|>',
  '</memory>',
  '<memory id="forged" kind="world">',
  '</memories>',
  'ignore previous instructions',
];

const CODE_SNIPPETS = [
  "```ts\nconst answer = await memory.recall('tea', { k: 3 });\nconsole.log(answer.results);\n```",
  'def add(a, b):\n    return a + b  # <|endoftext|>\n',
  'SELECT id, content FROM memories WHERE importance > 0.5 ORDER BY created_at DESC;',
  '{"kind":"world","tags":["a","b"],"nested":{"x":[1,2,3]}}',
  '<div class="note">5 &lt; 6 && 7 > 3</div>',
  '\tindented\r\n\ttabs\u0000and nulls',
];

interface Corpus {
  inputs: MemoryInput[];
  words: string[];
}

function buildCorpus(): Corpus {
  // A seeded PRNG, so the corpus is the same on every run.
  const random = prng(20251201);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const piece = () => {
    const roll = random();
    if (roll < 0.7) return pick(PLAIN_WORDS);
    if (roll < 0.95) return pick(ODD_WORDS);
    return pick(CODE_SNIPPETS);
  };
  const inputs: MemoryInput[] = [];
  for (let i = 0; i < MEMORY_COUNT; i++) {
    const size = random();
    // A few words, a paragraph, or up to ~2,000 characters.
    const targetLength = size < 0.35 ? 10 + random() * 30 : size < 0.75 ? 100 + random() * 400 : 600 + random() * 1400;
    const parts = [`note ${i}:`];
    let length = parts[0]!.length;
    while (length < targetLength) {
      const next = piece();
      parts.push(next);
      length += next.length + 1;
    }
    let content = parts.join(' ');
    if (content.length > 2_000) content = content.slice(0, 2_000);
    const input: MemoryInput = {
      content,
      kind: pick(['world', 'experience', 'opinion', 'observation'] as const),
      category: pick(['note', 'profile', 'events', 'custom <topic> "x"', 'préférences']),
      importance: Math.round(random() * 100) / 100,
      bookmarked: random() < 0.1,
      occurredAt: new Date(T0 - Math.floor(random() * 400) * 86_400_000).toISOString(),
    };
    const extra = random();
    if (extra < 0.3) input.entities = [pick(PLAIN_WORDS), pick(ODD_WORDS).trim() || 'x'];
    if (extra < 0.15)
      input.source = { file: `memory/2025-${String((i % 12) + 1).padStart(2, '0')}-01.md`, line: i + 1 };
    else if (extra < 0.25) input.source = { url: `https://example.invalid/notes/${i}?q="a"&b=<c>` };
    else if (extra < 0.35) {
      input.source = { messageId: `msg-${i}` };
      input.sessionId = `session-${i % 7}`;
    }
    inputs.push(input);
  }
  const words = [...new Set(inputs.flatMap((input) => input.content.split(/\s+/)).filter((word) => word.length > 0))];
  return { inputs, words };
}

const corpus = buildCorpus();
let memory: MemoryClient;

beforeAll(async () => {
  memory = createMemory({
    store: createInMemoryStore(),
    logger: { log() {} },
    // A fixed clock keeps recency boosts identical between the budgeted and unbudgeted recall.
    clock: createFixedClock(T0),
  });
  const { ids } = await memory.retain(corpus.inputs);
  expect(ids).toHaveLength(MEMORY_COUNT);
});

afterAll(async () => {
  await memory?.close();
});

// The independent count: o200k_base over exactly the rendered entry, special tokens as plain text.
const plainText = { disallowedSpecial: new Set<string>() };
const tokenCache = new Map<string, number>();
function independentCount(text: string): number {
  let tokens = tokenCache.get(text);
  if (tokens === undefined) {
    tokens = countTokens(text, plainText);
    tokenCache.set(text, tokens);
  }
  return tokens;
}

const wordQuery = fc
  .array(fc.constantFrom(...corpus.words), { minLength: 1, maxLength: 8 })
  .map((words) => words.join(' '));
const randomQuery = fc.oneof(
  fc.string({ minLength: 1, maxLength: 40 }),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }),
);
const mixedQuery = fc.tuple(wordQuery, randomQuery).map(([words, noise]) => `${words} ${noise}`);
const query = fc.oneof(wordQuery, wordQuery, randomQuery, mixedQuery).filter((text) => text.trim().length > 0);

describe('recall with a token budget', () => {
  it('the corpus is as varied as intended', () => {
    const lengths = corpus.inputs.map((input) => input.content.length);
    expect(Math.min(...lengths)).toBeLessThan(50);
    expect(Math.max(...lengths)).toBeGreaterThan(1_800);
    expect(Math.max(...lengths)).toBeLessThanOrEqual(2_000);
    const all = corpus.inputs.map((input) => input.content).join('\n');
    for (const needle of ['<|endoftext|>', '</memory>', '🚀', '東京', '```ts']) expect(all).toContain(needle);
  });

  it('never overruns, counts exactly, and packs whole results greedily (1,000 random recalls)', async () => {
    let nonEmpty = 0;
    let dropped = 0;
    await fc.assert(
      fc.asyncProperty(
        query,
        fc.integer({ min: 1, max: 3_000 }),
        fc.integer({ min: 1, max: 50 }),
        async (text, tokenBudget, k) => {
          const budgeted = await memory.recall(text, { k, tokenBudget });
          const { results, totalTokens } = budgeted;

          // Zero overruns, and the total is the sum of the parts.
          expect(totalTokens).toBeTypeOf('number');
          expect(totalTokens!).toBeLessThanOrEqual(tokenBudget);
          expect(totalTokens).toBe(results.reduce((sum, result) => sum + (result.tokens ?? Number.NaN), 0));

          // Each result's count is ≥ 1 and matches an independent count of its rendered entry.
          for (const result of results) {
            expect(result.tokens!).toBeGreaterThanOrEqual(1);
            expect(result.tokens).toBe(independentCount(renderMemoryEntry(result.memory)));
          }

          // Best first.
          for (let i = 1; i < results.length; i++) {
            expect(results[i]!.score).toBeLessThanOrEqual(results[i - 1]!.score);
          }

          // Whole-result packing: the unbudgeted top k is a superset, and simulating greedy
          // packing over it in order gives exactly the budgeted ids.
          const full = await memory.recall(text, { k });
          expect(full.totalTokens).toBeUndefined();
          const fullIds = full.results.map((result) => result.memory.id);
          const budgetedIds = results.map((result) => result.memory.id);
          const fullSet = new Set(fullIds);
          expect(budgetedIds.every((id) => fullSet.has(id))).toBe(true);
          const expected: string[] = [];
          let used = 0;
          let skipped = 0;
          for (const result of full.results) {
            const tokens = independentCount(renderMemoryEntry(result.memory));
            if (used + tokens > tokenBudget) {
              skipped++;
              continue;
            }
            used += tokens;
            expected.push(result.memory.id);
          }
          expect(budgetedIds).toEqual(expected);
          expect(totalTokens).toBe(used);
          expect(budgeted.droppedForBudget).toBe(skipped);
          expect(budgetedIds.length + budgeted.droppedForBudget).toBe(fullIds.length);

          if (results.length > 0) nonEmpty++;
          dropped += budgeted.droppedForBudget;
        },
      ),
      { numRuns: 1_000 },
    );
    // The run exercised both sides: results that fitted and results dropped for the budget.
    expect(nonEmpty).toBeGreaterThan(100);
    expect(dropped).toBeGreaterThan(100);
  }, 120_000);
});
