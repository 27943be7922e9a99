// memoir in a Vercel AI SDK app: `memoryMiddleware` gives the model what it remembers about the
// user and retains each finished exchange; `memoryTools` lets it store and correct memories
// itself. Offline: the model is the AI SDK's own test model (`ai/test`), scripted below, so no
// key and no network are needed. Swap it for `openai('gpt-4.1-mini')` or any provider.
//
//   npm run example:ai-sdk
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateText, stepCountIs, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { createMemory } from '../src/index.js';
import { memoryMiddleware, memoryTools } from '../src/integrations/ai-sdk/index.js';

type Step = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;
type Call = Parameters<MockLanguageModelV3['doGenerate']>[0];

const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 0, text: 0, reasoning: undefined },
};
const say = (text: string): Step => ({
  content: [{ type: 'text', text }],
  finishReason: { unified: 'stop', raw: 'stop' },
  usage,
  warnings: [],
});
const call = (toolName: string, input: object): Step => ({
  content: [{ type: 'tool-call', toolCallId: `call-${toolName}`, toolName, input: JSON.stringify(input) }],
  finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
  usage,
  warnings: [],
});
const systemOf = (options: Call) => (options.prompt[0]?.role === 'system' ? options.prompt[0].content : '');

// The stand-in for a real model: on the first turn it stores what the user said, then answers;
// later it answers from the memories it finds in its system prompt.
const model = new MockLanguageModelV3({
  doGenerate: async (options) => {
    const last = options.prompt.at(-1);
    if (last?.role === 'user' && JSON.stringify(last.content).includes('remember')) {
      return call('memory_retain', {
        content: 'Sam is vegetarian and lives in Porto.',
        category: 'profile',
        entities: ['Sam'],
      });
    }
    if (last?.role === 'tool') return say('Got it: vegetarian, in Porto. I will keep that in mind.');
    const knowsPorto = systemOf(options).includes('lives in Porto');
    return say(knowsPorto ? 'Try Da Terra in Porto: all vegetarian.' : 'Where are you, and any diet?');
  },
  doStream: async (options) => {
    const known = systemOf(options).includes('vegetarian');
    const words = (known ? 'Lentil soup, then a mushroom risotto.' : 'Anything you like.').split(/(?<= )/);
    return {
      stream: new ReadableStream({
        start(controller) {
          controller.enqueue({ type: 'text-start', id: 't' });
          for (const delta of words) controller.enqueue({ type: 'text-delta', id: 't', delta });
          controller.enqueue({ type: 'text-end', id: 't' });
          controller.enqueue({ type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage });
          controller.close();
        },
      }),
    };
  },
});

const home = mkdtempSync(join(tmpdir(), 'memoir-ai-sdk-'));
const memory = createMemory({ home });
try {
  // --- the 10 lines: a model with memory, tools for the user's own memories ---
  const sam = { userId: 'sam' };
  const chat = wrapLanguageModel({ model, middleware: memoryMiddleware({ memory, scope: sam }) });
  const tools = memoryTools(memory, { scope: sam });

  const first = await generateText({
    model: chat,
    tools,
    stopWhen: stepCountIs(3),
    prompt: 'Please remember: I am vegetarian and I live in Porto.',
  });
  console.log(
    `turn 1 (${first.steps.length} steps, tool: ${first.steps[0]?.toolCalls[0]?.toolName}):\n  ${first.text}`,
  );

  const second = await generateText({ model: chat, prompt: 'Any vegetarian dinner ideas for tonight?' });
  console.log(`turn 2:\n  ${second.text}`);

  const third = streamText({ model: chat, prompt: 'What vegetarian dish should I cook tomorrow?' });
  process.stdout.write('turn 3 (streamed):\n  ');
  for await (const delta of third.textStream) process.stdout.write(delta);
  process.stdout.write('\n');

  await memory.flush(); // exchanges are retained in the background
  const kept = await memory.list({ scope: sam });
  console.log(`\n${kept.length} memories for sam:`);
  for (const item of kept) console.log(`  [${item.category}] ${item.content.replace(/\n/g, ' | ').slice(0, 100)}`);
  console.log('\nWhat the model saw before turn 2 (the memory block, marked as untrusted data):');
  console.log(
    systemOf(model.doGenerateCalls[2]!)
      .split('\n')
      .map((line) => `  ${line}`)
      .join('\n'),
  );
} finally {
  await memory.close();
  rmSync(home, { recursive: true, force: true });
}
