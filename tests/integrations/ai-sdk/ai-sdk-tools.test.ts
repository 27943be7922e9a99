import { generateText, stepCountIs, streamText, wrapLanguageModel } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, createMemory, type MemoryClient } from '../../../src/index.js';
import { agentToolInputJsonSchema, memoryRetainTool } from '../../../src/integrations/agent-tools.js';
import { DEFAULT_MEMORY_TOOLS, memoryMiddleware, memoryTools } from '../../../src/integrations/ai-sdk/index.js';
import { quiet, STORES, type StoreFactory, storeAndClient } from '../../helpers/stores.js';
import { generateModel, memoriesOf, streamModel, textOf, textStep, toolStep } from './ai-sdk-harness.js';

// memoryTools in the AI SDK's multi-step tool loop: the scripted model calls the tools, the
// AI SDK runs them against a real store, and the next step sees what they returned.

const SAM = { userId: 'sam' };
const BOB = { userId: 'bob' };

/** The text of every tool result (or tool error) the model was shown on its `index`-th call. */
function toolOutputsSeen(model: ReturnType<typeof generateModel>, index: number): string {
  const prompt = model.doGenerateCalls[index]?.prompt ?? [];
  return prompt
    .filter((message) => message.role === 'tool')
    .flatMap((message) => message.content)
    .map((part) => (part.type === 'tool-result' ? JSON.stringify(part.output) : ''))
    .join('\n');
}

describe.each(STORES)('memoryTools on %s', (_name, make: StoreFactory) => {
  let memory: MemoryClient;
  afterEach(async () => {
    await memory?.close();
  });

  it('a multi-step loop: the model stores, recalls, corrects and reads the history; the store changes at each step', async () => {
    memory = storeAndClient(make).memory;
    const tools = memoryTools(memory, { scope: SAM });
    const inner = generateModel(
      toolStep('memory_retain', { content: 'Sam lives in Porto.', category: 'profile', entities: ['Sam'] }, 'c1'),
      toolStep('memory_recall', { query: 'Where does Sam live?', k: 3 }, 'c2'),
      textStep('You live in Porto.'),
    );
    const result = await generateText({
      model: inner,
      tools,
      stopWhen: stepCountIs(5),
      prompt: 'Remember that I live in Porto, then tell me where I live.',
    });
    expect(result.steps).toHaveLength(3);
    expect(result.text).toBe('You live in Porto.');
    const stored = await memoriesOf(memory, SAM);
    expect(stored.map((item) => item.content)).toEqual(['Sam lives in Porto.']);
    expect(stored[0]!.scope.userId).toBe('sam');
    // The model read the store's answer, then the recalled memory as an untrusted block.
    expect(toolOutputsSeen(inner, 1)).toContain(`Stored memory ${stored[0]!.id}`);
    expect(toolOutputsSeen(inner, 2)).toContain('Sam lives in Porto.');
    expect(toolOutputsSeen(inner, 2)).toMatch(/untrusted historical data/);
    // Your code gets the same facts as data.
    const storeResult = result.steps[0]!.toolResults[0]!;
    expect(storeResult.output).toMatchObject({ structured: { id: stored[0]!.id, stored: true } });

    const id = stored[0]!.id;
    const correcting = generateModel(
      toolStep('memory_correct', { memory_id: id, content: 'Sam lives in Lisbon.' }, 'c3'),
      toolStep('memory_history', { memory_id: id }, 'c4'),
      textStep('Updated: Lisbon.'),
    );
    await generateText({ model: correcting, tools, stopWhen: stepCountIs(5), prompt: 'I moved to Lisbon.' });
    const history = await memory.history(id);
    expect(history.versions.map((version) => version.memory.content)).toEqual([
      'Sam lives in Porto.',
      'Sam lives in Lisbon.',
    ]);
    expect(toolOutputsSeen(correcting, 2)).toMatch(/2 versions of the fact/);
  });

  it('forget deletes in the tools’ scope only; another user’s id is not found', async () => {
    memory = storeAndClient(make).memory;
    const { ids: bobIds } = await memory.retain({ content: 'Bob’s passport number is X123.', scope: BOB });
    const { ids: samIds } = await memory.retain({ content: 'Sam’s gym is on Rua Augusta.', scope: SAM });
    const inner = generateModel(
      toolStep('memory_forget', { memory_id: bobIds[0] }, 'c1'),
      toolStep('memory_forget', { memory_id: samIds[0] }, 'c2'),
      textStep('Done.'),
    );
    await generateText({
      model: inner,
      tools: memoryTools(memory, { scope: SAM }),
      stopWhen: stepCountIs(4),
      prompt: 'Forget.',
    });
    expect(toolOutputsSeen(inner, 1)).toMatch(/Nothing deleted/);
    expect(toolOutputsSeen(inner, 2)).toMatch(/Deleted 1 memory/);
    expect(await textOf(memory, BOB)).toContain('X123');
    expect(await textOf(memory, SAM)).toBe('');
  });

  it('a bad call reaches the model as a tool error naming the field, and the loop goes on', async () => {
    memory = storeAndClient(make).memory;
    const inner = generateModel(
      toolStep('memory_forget', {}, 'c1'),
      toolStep('memory_retain', { content: 'x', importance: 7 }, 'c2'),
      textStep('Sorry.'),
    );
    const result = await generateText({
      model: inner,
      tools: memoryTools(memory, { scope: SAM }),
      stopWhen: stepCountIs(4),
      prompt: 'Forget something.',
    });
    expect(result.text).toBe('Sorry.');
    expect(toolOutputsSeen(inner, 1)).toMatch(/memory_forget: memory_id: expected a memory id, or a query/);
    expect(toolOutputsSeen(inner, 2)).toMatch(/importance/);
    expect(await memoriesOf(memory, SAM)).toEqual([]);
  });

  it('with the middleware, a tool loop retains the whole turn once, when it ends', async () => {
    memory = storeAndClient(make).memory;
    const inner = generateModel(
      toolStep('memory_retain', { content: 'Sam’s dog is called Rex.' }, 'c1'),
      textStep('I will remember Rex.'),
    );
    const model = wrapLanguageModel({ model: inner, middleware: memoryMiddleware({ memory, scope: SAM }) });
    await generateText({
      model,
      tools: memoryTools(memory, { scope: SAM }),
      stopWhen: stepCountIs(3),
      prompt: 'My dog is called Rex.',
    });
    await memory.flush();
    const stored = await memoriesOf(memory, SAM);
    const kept = stored.map((item) => item.content);
    // Once: one transcript of the whole loop, and one memory per turn said in it, not per step.
    const transcripts = stored
      .filter((item) => item.category === 'transcript')
      .map((item) => item.content)
      .filter((content) => content.includes('My dog is called Rex.'));
    expect(transcripts).toHaveLength(1);
    expect(transcripts[0]).toContain('→ memory_retain(');
    expect(transcripts[0]).toContain('I will remember Rex.');
    const turns = stored.filter((item) => item.category === 'conversation').map((item) => item.content);
    // The reply that only called a tool said nothing: its call is in the transcript, not a turn.
    expect(turns.sort()).toEqual(['user: My dog is called Rex.', 'assistant: I will remember Rex.'].sort());
    expect(kept).toContain('Sam’s dog is called Rex.');
  });

  it('streamText runs the tools too', async () => {
    memory = storeAndClient(make).memory;
    const inner = streamModel([
      { type: 'stream-start', warnings: [] },
      {
        type: 'tool-call',
        toolCallId: 's1',
        toolName: 'memory_retain',
        input: JSON.stringify({ content: 'Sam reads sci-fi.' }),
      },
      {
        type: 'finish',
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage: {
          inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 1, text: 1, reasoning: undefined },
        },
      },
    ]);
    const result = streamText({ model: inner, tools: memoryTools(memory, { scope: SAM }), prompt: 'I read sci-fi.' });
    await result.consumeStream();
    expect((await result.toolResults).map((item) => item.toolName)).toEqual(['memory_retain']);
    expect(await textOf(memory, SAM)).toBe('Sam reads sci-fi.');
  });
});

describe('memoryTools: names and schemas', () => {
  const { memory } = storeAndClient(STORES[0]![1]);

  it('gives the shared tools under their MCP names, with the same descriptions and argument schemas', () => {
    const tools = memoryTools(memory, { scope: SAM });
    expect(Object.keys(tools)).toEqual([...DEFAULT_MEMORY_TOOLS]);
    expect(tools.memory_retain.description).toBe(memoryRetainTool.description);
    expect(tools.memory_retain.inputSchema).toBe(memoryRetainTool.inputSchema);
    expect(agentToolInputJsonSchema(memoryRetainTool)).toMatchObject({
      required: ['content'],
      properties: { content: { type: 'string' } },
    });
  });

  it('gives the tools asked for', () => {
    expect(Object.keys(memoryTools(memory, { scope: SAM, tools: ['memory_get', 'memory_list'] }))).toEqual([
      'memory_get',
      'memory_list',
    ]);
  });

  it.each([
    ['tools: ["memory_recal"]', { scope: { userId: 'sam' }, tools: ['memory_recal'] }, 'tools[0]'],
    ['tools: []', { scope: { userId: 'sam' }, tools: [] }, 'tools'],
    ['tools: ["memory_store"] (now memory_retain)', { scope: { userId: 'sam' }, tools: ['memory_store'] }, 'tools[0]'],
    ['scope: { user }', { scope: { user: 'sam' } }, 'scope'],
    ['scope: {}', { scope: {} }, 'scope'],
    ['scope: { userId: undefined }', { scope: { userId: undefined } }, 'scope'],
    ['no scope on an unscoped client', {}, 'scope'],
  ])('%s → ConfigError naming %s', (_label, options, field) => {
    const thrown = (() => {
      try {
        memoryTools(memory, options as never);
      } catch (error) {
        return error;
      }
    })();
    expect(ConfigError.isInstance(thrown)).toBe(true);
    expect((thrown as ConfigError).field).toBe(field);
  });

  it('on a scoped client, a scope outside its own → ConfigError naming the field; one inside narrows it', async () => {
    const sams = createMemory({ store: memory.store, scope: SAM, logger: quiet });
    const thrown = (() => {
      try {
        memoryTools(sams, { scope: BOB });
      } catch (error) {
        return error;
      }
    })();
    expect(ConfigError.isInstance(thrown)).toBe(true);
    expect((thrown as ConfigError).field).toBe('scope.userId');
    const tools = memoryTools(sams, { scope: { ...SAM, namespace: 'travel' } });
    await tools.memory_retain.execute({ content: 'Sam keeps the passport in the blue folder' }, {});
    expect((await sams.list({ scope: { namespace: 'travel' } })).map((each) => each.scope)).toEqual([
      { userId: 'sam', namespace: 'travel' },
    ]);
  });

  it('a value that is not a client → ConfigError naming memory', () => {
    expect(() => memoryTools({} as never)).toThrow(/memory/);
  });
});
