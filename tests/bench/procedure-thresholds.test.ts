import { describe, expect, it } from 'vitest';
import { measureProcedureSimilarities } from '../../bench/procedure-calibration.js';
import { LEXICAL_PROCEDURE_THRESHOLDS } from '../../src/core/procedures/procedure-options.js';
import { createLocalEmbedder } from '../../src/index.js';

// The local embedder's procedure thresholds keep what `npm run bench:procedures` measured
// when they were chosen (docs/guides/procedures.md, "Thresholds depend on the embedder"): a change to the embedder or to how
// procedures are scored that moves these numbers needs a new calibration.
describe('procedure thresholds for the local embedder', () => {
  it('retrieval: most paraphrased requests find their procedure, almost no other one', async () => {
    const { retrieval } = await measureProcedureSimilarities(createLocalEmbedder());
    const passes = (values: number[]) => values.filter((value) => value >= LEXICAL_PROCEDURE_THRESHOLDS.similarity);
    expect(passes(retrieval.positives).length / retrieval.positives.length).toBeGreaterThanOrEqual(0.65);
    expect(passes(retrieval.negatives).length).toBeLessThanOrEqual(2);
  });

  it('update: every redraft of a kind of task updates its procedure, none of another kind does', async () => {
    const { update } = await measureProcedureSimilarities(createLocalEmbedder());
    expect(Math.min(...update.positives)).toBeGreaterThanOrEqual(LEXICAL_PROCEDURE_THRESHOLDS.update);
    expect(Math.max(...update.negatives)).toBeLessThan(LEXICAL_PROCEDURE_THRESHOLDS.update);
  });
});
