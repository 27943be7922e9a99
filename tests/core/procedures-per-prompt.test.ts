import { describe, expect, it } from 'vitest';
import { createMemory } from '../../src/index.js';
import { quiet, tempDir } from '../helpers/stores.js';

// Seed 003: "max_per_prompt = 2" — at most two procedures are put into one prompt. The doors
// (the OpenClaw plugin, the AI SDK middleware) inject what findRelevant returns without a k.

async function withDeployProcedures(maxPerPrompt?: number) {
  const memory = createMemory({
    home: tempDir('memoir-procedures-per-prompt-'),
    logger: quiet,
    ...(maxPerPrompt === undefined ? {} : { procedures: { maxPerPrompt } }),
  });
  for (const what of ['web app', 'API server', 'docs site', 'mobile app']) {
    await memory.procedures.save({
      title: `Deploy the ${what}`,
      triggerExamples: [`deploy the ${what}`],
      steps: ['go'],
    });
  }
  return memory;
}

describe('procedures per prompt', () => {
  it('findRelevant gives at most maxPerPrompt (default 2) of four matching procedures', async () => {
    const memory = await withDeployProcedures();
    try {
      expect(await memory.procedures.findRelevant('deploy the app')).toHaveLength(2);
      expect(await memory.procedures.findRelevant('deploy the app', { k: 3 })).toHaveLength(3);
    } finally {
      await memory.close();
    }
    const one = await withDeployProcedures(1);
    try {
      expect(await one.procedures.findRelevant('deploy the app')).toHaveLength(1);
    } finally {
      await one.close();
    }
  });
});
