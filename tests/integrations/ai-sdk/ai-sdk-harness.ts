import { simulateReadableStream } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import type { Memory, MemoryClient, Scope } from '../../../src/index.js';

// The AI SDK's own test language model, scripted per step, and the few readings the AI SDK
// tests share. Only the model is scripted: memoir, its store and the AI SDK run for real.

type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;
type StreamPart = Parameters<typeof simulateReadableStream<unknown>>[0]['chunks'][number];

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** A step that answers with text. */
export function textStep(text: string): GenerateResult {
  return {
    content: [{ type: 'text', text }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage,
    warnings: [],
  };
}

/** A step that calls one tool. */
export function toolStep(toolName: string, input: Record<string, unknown>, id = 'call-1'): GenerateResult {
  return {
    content: [{ type: 'tool-call', toolCallId: id, toolName, input: JSON.stringify(input) }],
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage,
    warnings: [],
  };
}

/** A generate model that plays `steps` in order, one per call. */
export function generateModel(...steps: GenerateResult[]): MockLanguageModelV3 {
  let next = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => {
      const step = steps[next++];
      if (!step) throw new Error(`the scripted model has no step ${next}`);
      return step;
    },
  });
}

/** The stream parts of a text answer, one delta per word. */
export function textParts(words: string[]): StreamPart[] {
  return [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't1' },
    ...words.map((word) => ({ type: 'text-delta', id: 't1', delta: word })),
    { type: 'text-end', id: 't1' },
    { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
  ];
}

/** A stream model sending `parts`, `delayMs` apart. */
export function streamModel(parts: StreamPart[], delayMs: number | null = null): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doStream: async () => ({
      stream: simulateReadableStream({ chunks: parts, chunkDelayInMs: delayMs }) as ReadableStream<never>,
    }),
  });
}

/** The system prompt the model saw on its `index`-th call, '' when it had none. */
export function systemSeen(model: MockLanguageModelV3, index = 0): string {
  const call = model.doGenerateCalls[index] ?? model.doStreamCalls[index];
  const first = call?.prompt[0];
  return first?.role === 'system' ? first.content : '';
}

/** Every memory of a scope (transcripts and episodes included), oldest first. */
export async function memoriesOf(memory: MemoryClient, scope: Scope): Promise<Memory[]> {
  const memories = await memory.list({ scope, limit: 1000 });
  return memories.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/** The text of every memory of a scope, joined. */
export async function textOf(memory: MemoryClient, scope: Scope): Promise<string> {
  return (await memoriesOf(memory, scope)).map((item) => item.content).join('\n---\n');
}
