/**
 * OpenAI and OpenAI-compatible servers (Ollama, LM Studio, vLLM, llama.cpp, gateways): an
 * Embedder and a LanguageModel. The `openai` package (an optional peer dependency,
 * `npm install openai`) loads on the first call, never at import.
 *
 * Keys come from the `apiKey` option (a literal or a `${NAME}` reference to an environment
 * variable) or `OPENAI_API_KEY`; a custom `baseURL` needs none. Every request runs under one
 * deadline, `timeoutMs`, that covers the response body, retries and the waits between them;
 * retries (`maxRetries`) honour `retry-after` up to `maxRetryAfterMs`. Failures are
 * ProviderErrors with `status`, `retryable` and a suggestion; an aborted signal rejects with
 * its reason.
 *
 * @example
 * ```ts
 * import { createMemory } from 'memoir';
 * import { createOpenAIChatModel, createOpenAIEmbedder } from 'memoir/openai';
 * const memory = createMemory({ embedder: createOpenAIEmbedder(), languageModel: createOpenAIChatModel() });
 * ```
 *
 * @module memoir/openai
 */
export { createOpenAIEmbedder, type OpenAIEmbedder, type OpenAIEmbedderUsage } from './openai-embedder.js';
export { createOpenAIChatModel } from './openai-language-model.js';
export type {
  OpenAIChatModelOptions,
  OpenAIConnectionOptions,
  OpenAIEmbedderOptions,
  OpenAIEnvironment,
} from './openai-options.js';
