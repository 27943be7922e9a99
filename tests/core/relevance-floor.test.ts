import { describe, expect, it } from 'vitest';
import type { Embedder } from '../../src/index.js';
import { clientsClosedAfterEach } from '../helpers/clients.js';

const client = clientsClosedAfterEach();

// A semantic embedder whose vectors are set per text: the query "car" is close to "automobile
// repair" (cosine 0.8), barely related to "tax forms" (0.1), orthogonal to the rest.
function scriptedEmbedder(): Embedder {
  const unit = (x: number, y: number, z: number) => Float32Array.from([x, y, z]);
  const vectors: Record<string, Float32Array> = {
    car: unit(1, 0, 0),
    'The automobile needs a repair.': unit(0.8, 0.6, 0),
    'Tax forms are due in April.': unit(0.1, 0, Math.sqrt(0.99)),
  };
  return {
    specificationVersion: 'v1',
    id: 'scripted-3',
    dimensions: 3,
    semantic: true,
    embed: async (texts) => texts.map((text) => vectors[text] ?? unit(0, 1, 0)),
  };
}

const contents = async (memory: ReturnType<typeof client>, query: string) =>
  (await memory.recall(query)).results.map((result) => result.memory.content);

describe('the relevance floor', () => {
  it('recall("deploy") does not pad its results with memories no list really matched (local embedder)', async () => {
    const memory = client();
    await memory.retain(['Alice moved to Lisbon.', 'Bob plays the cello on Sundays.', 'The garden needs water.']);
    expect(await contents(memory, 'deploy')).toEqual([]);
    await memory.retain('We deploy the web app every Friday.');
    expect(await contents(memory, 'deploy')).toEqual(['We deploy the web app every Friday.']);
    // A lexical match is a match however weak its vector.
    const result = (await memory.recall('Lisbon')).results;
    expect(result.map((r) => r.memory.content)).toEqual(['Alice moved to Lisbon.']);
  });

  it('0 turns it off: every candidate of either list comes back, as the LoCoMo bench measures', async () => {
    const memory = client({ ranking: { minVectorSimilarity: 0 } });
    await memory.retain(['Alice moved to Lisbon.', 'Bob plays the cello on Sundays.']);
    const results = (await memory.recall('deploy')).results;
    expect(results.length).toBeGreaterThan(0);
    expect(results.every((result) => result.breakdown.lexical === null)).toBe(true);
  });

  it('a semantic embedder keeps a close vector-only match and drops a near-unrelated one', async () => {
    const memory = client({ embedder: scriptedEmbedder() });
    await memory.retain(['The automobile needs a repair.', 'Tax forms are due in April.', 'Alice moved to Lisbon.']);
    const results = (await memory.recall('car')).results;
    expect(results.map((result) => result.memory.content)).toEqual(['The automobile needs a repair.']);
    expect(results[0]!.breakdown.lexical).toBeNull();
    expect(results[0]!.breakdown.vector?.score).toBeCloseTo(0.8, 5);
    // The floor is a ranking option: raised, it drops the close match too; lowered, it lets 0.1 in.
    const strict = client({ embedder: scriptedEmbedder(), ranking: { minVectorSimilarity: 0.9 } });
    await strict.retain(['The automobile needs a repair.', 'Tax forms are due in April.']);
    expect(await contents(strict, 'car')).toEqual([]);
    const lax = client({ embedder: scriptedEmbedder(), ranking: { minVectorSimilarity: 0.05 } });
    await lax.retain(['The automobile needs a repair.', 'Tax forms are due in April.', 'Alice moved to Lisbon.']);
    expect(await contents(lax, 'car')).toEqual(['The automobile needs a repair.', 'Tax forms are due in April.']);
  });

  it('minScore still drops low final scores on top of the floor', async () => {
    const memory = client();
    await memory.retain(['We deploy on Fridays.', 'Deploy freezes start in December; no deploy then.']);
    const all = (await memory.recall('deploy')).results;
    expect(all).toHaveLength(2);
    const top = (await memory.recall('deploy', { minScore: all[0]!.score })).results;
    expect(top).toHaveLength(1);
  });
});
