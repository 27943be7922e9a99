import { generateText, stepCountIs, tool, wrapLanguageModel } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { MemoryClient } from '../../../src/index.js';
import { memoryMiddleware } from '../../../src/integrations/ai-sdk/index.js';
import { createScriptedLanguageModel } from '../../../src/testing/index.js';
import { clientIn, DEPLOY_PROCEDURE, isReflection } from '../../helpers/procedure-tasks.js';
import { tempDir } from '../../helpers/stores.js';
import { eventually } from '../mcp-harness.js';
import { generateModel, systemSeen, textStep, toolStep } from './ai-sdk-harness.js';

// Procedures at the AI SDK door (seed 003, issue 40): memoryMiddleware in the AI SDK's own
// multi-step tool loop over its test model, memoir on a real SQLite file in a temporary home.
// A turn that ends after three or more tool calls is learned from (in the call's scope; a tool
// that threw is never a step); the next similar request gets it in its system prompt as
// "Relevant Procedures". Only the models are scripted.

const SAM = { userId: 'sam' };
const BOB = { userId: 'bob' };

/** The tools of a deploy investigation; github_prs fails as a rate-limited API does. */
const tools = {
  slack_search: tool({
    inputSchema: z.object({ channel: z.string() }),
    execute: async () => '3 failure messages from deploybot',
  }),
  jira_search: tool({ inputSchema: z.object({ project: z.string() }), execute: async () => '2 failed tickets' }),
  github_prs: tool({
    inputSchema: z.object({ repo: z.string() }),
    execute: async (): Promise<string> => {
      throw new Error('GitHub API rate limit exceeded');
    },
  }),
  summarize: tool({ inputSchema: z.object({ groupBy: z.string() }), execute: async () => 'grouped by root cause' }),
};

/** The scripted agent: four tool calls, one step each, then the answer. */
function deployAgent(calls = 4) {
  const steps = [
    toolStep('slack_search', { channel: '#releases' }, 'c1'),
    toolStep('jira_search', { project: 'SCOUT' }, 'c2'),
    toolStep('github_prs', { repo: 'scout-api' }, 'c3'),
    toolStep('summarize', { groupBy: 'root cause' }, 'c4'),
  ].slice(0, calls);
  return generateModel(...steps, textStep('3 deployments failed in the last 7 days, 2 from the same migration.'));
}

async function run(memory: MemoryClient, inner: ReturnType<typeof generateModel>, prompt: string, userId: string) {
  const model = wrapLanguageModel({ model: inner, middleware: memoryMiddleware({ memory, requireScope: true }) });
  return generateText({ model, tools, stopWhen: stepCountIs(8), prompt, providerOptions: { memoir: { userId } } });
}

describe('memoryMiddleware procedures', () => {
  let memory: MemoryClient | undefined;
  afterEach(async () => {
    await memory?.close();
    memory = undefined;
  });

  it('learns from a turn of 3+ tool calls in the call’s scope, never a failed call as a step, and injects it next time', async () => {
    memory = clientIn(tempDir('memoir-ai-sdk-procedures-'));
    await run(memory, deployAgent(), 'why did the deploys fail this week?', 'sam');
    await memory.flush();
    const [procedure, ...others] = await memory.procedures.list();
    expect(others).toEqual([]);
    expect(procedure!.scope).toEqual(SAM);
    expect(procedure!.steps.map((step) => step.split('(')[0])).toEqual(['slack_search', 'jira_search', 'summarize']);

    const next = generateModel(textStep('Following the procedure.'));
    await run(memory, next, 'why did the deploys fail again?', 'sam');
    expect(systemSeen(next)).toContain('## Relevant Procedures');
    expect(systemSeen(next)).toContain('slack_search');
    // The turn it was given ended well: a use is counted (recorded after the call answered).
    await eventually(
      async () => (await memory!.procedures.get(procedure!.id))?.successCount,
      (count) => count === 2,
    );
    // Bob's call gets none of Sam's procedures.
    const forBob = generateModel(textStep('Looking.'));
    await run(memory, forBob, 'why did the deploys fail again?', 'bob');
    expect(systemSeen(forBob)).not.toContain('Relevant Procedures');
    expect(await memory.procedures.findRelevant('why did the deploys fail', { scope: BOB })).toEqual([]);
  });

  it('a turn of fewer than 3 tool calls teaches nothing; procedures: false neither learns nor injects', async () => {
    memory = clientIn(tempDir('memoir-ai-sdk-procedures-'));
    await run(memory, deployAgent(2), 'why did the deploys fail this week?', 'sam');
    await memory.flush();
    expect(await memory.procedures.list()).toEqual([]);

    const off = wrapLanguageModel({
      model: deployAgent(),
      middleware: memoryMiddleware({ memory, requireScope: true, procedures: false }),
    });
    await generateText({
      model: off,
      tools,
      stopWhen: stepCountIs(8),
      prompt: 'why did the deploys fail this week?',
      providerOptions: { memoir: { userId: 'sam' } },
    });
    await memory.flush();
    expect(await memory.procedures.list()).toEqual([]);

    // The same turn with the default learns.
    await run(memory, deployAgent(), 'why did the deploys fail this week?', 'sam');
    await memory.flush();
    expect(await memory.procedures.list()).toHaveLength(1);
  });

  it('with a language model on the client, the model writes the procedure from the turn it is shown', async () => {
    const reflector = createScriptedLanguageModel((request) =>
      isReflection(request) ? JSON.stringify(DEPLOY_PROCEDURE) : '{"memories": []}',
    );
    memory = clientIn(tempDir('memoir-ai-sdk-procedures-'), { languageModel: reflector });
    await run(memory, deployAgent(), 'why did the deploys fail this week?', 'sam');
    await memory.flush();
    const [procedure] = await memory.procedures.list();
    expect(procedure!.whatWorks).toEqual(DEPLOY_PROCEDURE.whatWorks);
    const prompt = reflector.calls.find(isReflection)!.messages.at(-1)!.content;
    expect(prompt).toContain('GitHub API rate limit exceeded');
    expect(prompt).toContain('slack_search');
  });
});
