import { z } from 'zod';
import { isHttpUrl } from '../../core/utils/http-url.js';

/**
 * An environment to read variables from, shaped like `process.env`.
 *
 * @group Adapters
 */
export type OpenAIEnvironment = Readonly<Record<string, string | undefined>>;

/**
 * Connection options shared by {@link createOpenAIEmbedder} and {@link createOpenAIChatModel}.
 *
 * @group Adapters
 */
export interface OpenAIConnectionOptions {
  /**
   * API key, sent as `Authorization: Bearer <key>`. A literal, or `${NAME}` to read it from
   * the environment variable `NAME` when the factory runs (so a config file can hold the
   * reference instead of the secret). Default: `OPENAI_API_KEY`. Not needed with a custom
   * `baseURL`: local servers (Ollama, LM Studio, vLLM, llama.cpp) ignore it, so a placeholder
   * is sent.
   */
  apiKey?: string;
  /**
   * Base URL of an OpenAI-compatible API, including its prefix, e.g.
   * `http://127.0.0.1:11434/v1` for Ollama or `http://127.0.0.1:1234/v1` for LM Studio.
   * Default: `OPENAI_BASE_URL`, else `https://api.openai.com/v1`.
   */
  baseURL?: string;
  /**
   * Deadline of one request in milliseconds: from sending it to the last byte of the answer,
   * retries and the waits between them included. A server that sends headers and then
   * trickles the body is cut off at this bound too; the call then rejects with a retryable
   * ProviderError. Each batch of an embedder's `batchSize` texts is one request.
   */
  timeoutMs?: number;
  /**
   * Retries of a failed attempt (connection error, 408, 409, 429, 5xx, or as the server's
   * `x-should-retry` says), inside the `timeoutMs` deadline. The wait before a retry is the
   * server's `retry-after-ms` or `retry-after`, else a backoff of 0.5 s doubling to 8 s;
   * never more than `maxRetryAfterMs`, and no retry is started that the deadline would cut off.
   * Default 3.
   */
  maxRetries?: number;
  /**
   * Longest wait before a retry in milliseconds, whatever the server's `retry-after` asks
   * (a server answering `Retry-After: 3600` would otherwise hold the call an hour per retry).
   * When the server asked for more, the final ProviderError's suggestion names its wait.
   * Default 5000.
   */
  maxRetryAfterMs?: number;
  /**
   * Extra HTTP headers sent with every request, e.g. for a gateway. Values may use `${NAME}`
   * references to environment variables, like `apiKey`.
   */
  headers?: Record<string, string>;
  /**
   * Environment to read `OPENAI_API_KEY`, `OPENAI_BASE_URL`, `OPENAI_ORG_ID`,
   * `OPENAI_PROJECT_ID` and `${NAME}` references from. Default `process.env`.
   */
  env?: OpenAIEnvironment;
}

/**
 * Options of {@link createOpenAIEmbedder}.
 *
 * @group Adapters
 */
export interface OpenAIEmbedderOptions extends OpenAIConnectionOptions {
  /** Embedding model. Default `text-embedding-3-small`. */
  model?: string;
  /**
   * Length of the vectors. Known for OpenAI's models (1536 for `text-embedding-3-small` and
   * `text-embedding-ada-002`, 3072 for `text-embedding-3-large`), and required for any other
   * model, e.g. 768 for Ollama's `nomic-embed-text`. With a `text-embedding-3` model, a smaller
   * value asks the API for shortened vectors.
   */
  dimensions?: number;
  /** Texts per request; larger calls are split. Default 256 (OpenAI accepts up to 2048). */
  batchSize?: number;
  /** Whether the model's vectors capture meaning; see `Embedder.semantic`. Default true. */
  semantic?: boolean;
  /** Deadline of one request (one batch), body, retries and waits included, in milliseconds. Default 30000. */
  timeoutMs?: number;
}

/**
 * Options of {@link createOpenAIChatModel}.
 *
 * @group Adapters
 */
export interface OpenAIChatModelOptions extends OpenAIConnectionOptions {
  /** Chat model. Default `gpt-4o-mini`. */
  model?: string;
  /** Sampling temperature, 0 to 2, when a request doesn't set one. Default 0. */
  temperature?: number;
  /** Upper bound on output tokens when a request doesn't set one. Default: the server's. */
  maxOutputTokens?: number;
  /** Deadline of one request, body, retries and waits included, in milliseconds. Default 60000 (chat answers take longer). */
  timeoutMs?: number;
}

const httpUrl = z.string().refine(isHttpUrl, 'expected an http(s) URL such as http://127.0.0.1:11434/v1');

const connectionShape = {
  apiKey: z.string().min(1, 'expected a non-empty string'),
  baseURL: httpUrl,
  maxRetries: z.number().int().min(0).max(10).default(3),
  maxRetryAfterMs: z.number().int().min(0).max(600_000).default(5000),
  headers: z.record(z.string(), z.string()).optional(),
  env: z
    .custom<OpenAIEnvironment>((value) => typeof value === 'object' && value !== null, 'expected an object of strings')
    .optional(),
};

const timeoutMs = (fallback: number) => z.number().int().min(1).max(3_600_000).default(fallback);

/** Schema of {@link OpenAIEmbedderOptions}. */
export const openAIEmbedderOptionsSchema = z
  .object({
    ...connectionShape,
    apiKey: connectionShape.apiKey.optional(),
    baseURL: connectionShape.baseURL.optional(),
    timeoutMs: timeoutMs(30_000),
    model: z.string().min(1, 'expected a model name').default('text-embedding-3-small'),
    dimensions: z.number().int().min(1).max(65_536).optional(),
    batchSize: z.number().int().min(1).max(2048).default(256),
    semantic: z.boolean().default(true),
  })
  .strict();

/** Schema of {@link OpenAIChatModelOptions}. */
export const openAIChatModelOptionsSchema = z
  .object({
    ...connectionShape,
    apiKey: connectionShape.apiKey.optional(),
    baseURL: connectionShape.baseURL.optional(),
    timeoutMs: timeoutMs(60_000),
    model: z.string().min(1, 'expected a model name').default('gpt-4o-mini'),
    temperature: z.number().min(0).max(2).default(0),
    maxOutputTokens: z.number().int().min(1).optional(),
  })
  .strict();

// The interfaces above are what users read; these checks keep the schemas in step with them.
type Same<A, B> = [Required<A>] extends [Required<B>] ? ([Required<B>] extends [Required<A>] ? true : false) : false;
type Assert<T extends true> = T;
/** Compile-time check that {@link openAIEmbedderOptionsSchema} accepts exactly {@link OpenAIEmbedderOptions}. */
export type EmbedderOptionsInSync = Assert<Same<OpenAIEmbedderOptions, z.input<typeof openAIEmbedderOptionsSchema>>>;
/** Compile-time check that {@link openAIChatModelOptionsSchema} accepts exactly {@link OpenAIChatModelOptions}. */
export type ChatOptionsInSync = Assert<Same<OpenAIChatModelOptions, z.input<typeof openAIChatModelOptionsSchema>>>;
