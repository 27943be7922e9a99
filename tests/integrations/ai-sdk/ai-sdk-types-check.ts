// Checked by `npm run typecheck` (tsc over tests/), never run: memoir/ai-sdk declares its own
// slice of the AI SDK's types (so the package type-checks without `ai`), and this file holds
// that slice against the real `ai` types. If memoir's middleware or tools stopped fitting
// `wrapLanguageModel`, `generateText` or `streamText`, or a wrong field stopped being an error,
// the type check fails here.
import {
  generateText,
  type LanguageModelMiddleware,
  stepCountIs,
  streamText,
  type ToolSet,
  wrapLanguageModel,
} from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { createMemory } from '../../../src/index.js';
import { memoryMiddleware, memoryTools } from '../../../src/integrations/ai-sdk/index.js';

const memory = createMemory();
const middleware = memoryMiddleware({ memory, scope: { userId: 'sam' }, budget: 500 });

export const asAi: LanguageModelMiddleware = middleware;
export const model = wrapLanguageModel({ model: new MockLanguageModelV3(), middleware });
export const both = wrapLanguageModel({ model: new MockLanguageModelV3(), middleware: [middleware, middleware] });

const tools = memoryTools(memory, { scope: { userId: 'sam' } });
export const toolSet: ToolSet = tools;
export const some = memoryTools(memory, { scope: { userId: 'sam' }, tools: ['memory_get', 'memory_list'] });
export const getTool = some.memory_get;

export async function run(): Promise<string> {
  const generated = await generateText({ model, tools, stopWhen: stepCountIs(3), prompt: 'hi' });
  const streamed = streamText({ model, tools, prompt: 'hi', providerOptions: { memoir: { userId: 'sam' } } });
  const stored = await tools.memory_retain.execute({ content: 'x' }, {});
  return generated.text + (await streamed.text) + stored.text;
}

// @ts-expect-error budget is a number of tokens
memoryMiddleware({ memory, budget: '500' });
// @ts-expect-error there is no option named scop
memoryMiddleware({ memory, scop: { userId: 'sam' } });
// @ts-expect-error captureRoles are user, assistant and tool
memoryMiddleware({ memory, captureRoles: ['system'] });
// @ts-expect-error a scope names userId, agentId and namespace
memoryMiddleware({ memory, scope: { user: 'sam' } });
// @ts-expect-error the filter receives a message and returns a boolean
memoryMiddleware({ memory, filter: (message: { role: 'user'; content: number }) => message.content > 1 });
// @ts-expect-error memory is a memoir client
memoryMiddleware({ memory: {} });
// @ts-expect-error memoryTools knows no memory_recal tool
memoryTools(memory, { tools: ['memory_recal'] });
// @ts-expect-error memory_list was not asked for
export const absent = memoryTools(memory).memory_list;
// @ts-expect-error memory_retain takes content, not text
export const wrongArgument = () => tools.memory_retain.execute({ text: 'x' }, {});
// @ts-expect-error a middleware with a wrong specificationVersion is not an AI SDK middleware
export const wrongVersion: LanguageModelMiddleware = { ...middleware, specificationVersion: 'v2' };
// @ts-expect-error transformParams must return the call's parameters
export const wrongShape: LanguageModelMiddleware = { ...middleware, transformParams: async () => ({ prompt: 'hi' }) };
