/**
 * memoir for the Vercel AI SDK (`ai` 6, an optional peer): a middleware for
 * `wrapLanguageModel` that recalls before each call and retains each finished exchange, and
 * the memory tools as AI SDK tools. Nothing here imports `ai`: the types are the slice of its
 * specification memoir uses, so the package type-checks without it. Guide: docs/guides/ai-sdk.md.
 *
 * @example
 * ```ts
 * import { generateText, stepCountIs, wrapLanguageModel } from 'ai';
 * import { createMemory } from 'memoir';
 * import { memoryMiddleware, memoryTools } from 'memoir/ai-sdk';
 *
 * const memory = createMemory();
 * const model = wrapLanguageModel({ model: openai('gpt-4.1-mini'), middleware: memoryMiddleware({ memory, scope: { userId } }) });
 * const { text } = await generateText({ model, tools: memoryTools(memory, { scope: { userId } }), stopWhen: stepCountIs(5), prompt });
 * ```
 *
 * @module
 */

export type { MemoirCallOptions } from './ai-sdk-call.js';
export { memoryMiddleware } from './ai-sdk-middleware.js';
export type {
  CapturedMessage,
  CaptureRole,
  MemoryCallInfo,
  MemoryMiddlewareOptions,
  MemoryMiddlewareProcedureOptions,
  ScopeResolver,
  SessionResolver,
} from './ai-sdk-options.js';
export {
  DEFAULT_MEMORY_TOOLS,
  type MemoryAiTool,
  type MemoryToolModelOutput,
  type MemoryToolName,
  type MemoryToolOutput,
  type MemoryTools,
  type MemoryToolsOptions,
  memoryTools,
} from './ai-sdk-tools.js';
export type {
  AiSdkCallOptions,
  AiSdkGenerateResult,
  AiSdkPromptMessage,
  AiSdkPromptPart,
  AiSdkResponsePart,
  AiSdkStreamResult,
  MemoryMiddleware,
} from './ai-sdk-types.js';
