import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/index.js';
import { clientIn, recordingLogger } from '../helpers/procedure-tasks.js';
import { tempDir } from '../helpers/stores.js';

// One vocabulary (docs/vocabulary.md): a ranked answer's size is `k` at every door. The
// library's old names (`topK` of findRelevant, `limit` of fromRecording) keep working with a
// one-time warning, and the old and the new name with different values are refused, naming both.

const PROCEDURES = [
  { title: 'Deploy the web app', triggerExamples: ['deploy the web app'], steps: ['run npm run deploy'] },
  { title: 'Deploy the API server', triggerExamples: ['deploy the api server'], steps: ['run make deploy'] },
  { title: 'Deploy the docs site', triggerExamples: ['deploy the docs site'], steps: ['run npm run docs:deploy'] },
];

async function libraryWithProcedures(logger = recordingLogger()) {
  const memory = clientIn(tempDir(), { logger });
  for (const procedure of PROCEDURES) await memory.procedures.save(procedure);
  return { memory, logger };
}

describe('option vocabulary: the library', () => {
  it('findRelevant takes k, and still takes the old topK with a warning logged once', async () => {
    const { memory, logger } = await libraryWithProcedures();
    const byK = await memory.procedures.findRelevant('deploy', { k: 1, threshold: 0 });
    expect(byK).toHaveLength(1);
    expect(logger.lines.filter((line) => line.level === 'warn')).toEqual([]);

    const byTopK = await memory.procedures.findRelevant('deploy', { topK: 1, threshold: 0 });
    expect(byTopK.map((found) => found.procedure.id)).toEqual(byK.map((found) => found.procedure.id));
    await memory.procedures.findRelevant('deploy', { topK: 2, threshold: 0 });
    const warnings = logger.lines.filter((line) => line.level === 'warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.message).toMatch(/topK is deprecated; use k/);
    await memory.close();
  });

  it('findRelevant refuses topK and k with different values, naming both; the same value is accepted', async () => {
    const { memory } = await libraryWithProcedures();
    const error = await memory.procedures.findRelevant('deploy', { topK: 1, k: 2 }).catch((caught: unknown) => caught);
    expect(ValidationError.isInstance(error)).toBe(true);
    const refused = error as ValidationError;
    expect(refused.field).toBe('options.topK');
    expect(refused.message).toMatch(/topK is the old name of k/);
    expect(refused.message).toMatch(/\(1 and 2\)/);
    expect(refused.hint).toEqual({ code: 'renamed', field: 'topK', to: 'k' });
    expect(await memory.procedures.findRelevant('deploy', { topK: 2, k: 2, threshold: 0 })).toHaveLength(2);
    await memory.close();
  });

  it('fromRecording takes k; the old limit and a different k are refused, naming both, before any search', async () => {
    const { memory } = await libraryWithProcedures();
    const error = await memory.procedures.fromRecording('open a terminal', { limit: 1, k: 2 }).catch((e: unknown) => e);
    expect(ValidationError.isInstance(error)).toBe(true);
    expect((error as ValidationError).message).toMatch(/limit is the old name of k/);
    // Values JSON cannot write (a BigInt) are described, not serialised: still the ValidationError.
    const odd = await memory.procedures
      .fromRecording('open a terminal', { limit: '', k: 0n } as never)
      .catch((e: unknown) => e);
    expect(ValidationError.isInstance(odd), String(odd)).toBe(true);
    expect((odd as ValidationError).message).toMatch(/limit is the old name of k, .* \("" and bigint\)/);
    await memory.close();
  });

  it('errors that need another client carry a structured hint a door can render', async () => {
    const memory = clientIn(tempDir(), { scope: { userId: 'sam' } });
    const reindex = await memory.reindex().catch((caught: unknown) => caught);
    expect(ValidationError.isInstance(reindex)).toBe(true);
    expect((reindex as ValidationError).hint).toEqual({ code: 'unscoped' });
    const reflect = await memory.reflect().catch((caught: unknown) => caught);
    expect((reflect as ValidationError).hint).toEqual({ code: 'workspace' });
    const cleared = await memory.clearAll({ confirm: false as true }).catch((caught: unknown) => caught);
    expect((cleared as ValidationError).hint).toEqual({ code: 'confirm' });
    await memory.close();
  });
});
