import { z } from 'zod';

/** An environment to read variables from, shaped like `process.env`. */
export type OpenAIEnvironment = Readonly<Record<string, string | undefined>>;

/** Connection options shared by {@link createOpenAIEmbedder} and {@link createOpenAIChatModel}. */
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
   * How long one HTTP attempt may wait for the response headers, in milliseconds. Retries
   * get a fresh timeout each, so a call can take up to about `(maxRetries + 1) × timeoutMs`
   * plus backoff.
   */
  timeoutMs?: number;
  /**
   * Retries of a failed attempt (connection error, timeout, 408, 409, 429, 5xx), with the
   * `openai` SDK's backoff, which honours the server's `retry-after` and `retry-after-ms`
   * headers. Default 3.
   */
  maxRetries?: number;
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

/** Options of {@link createOpenAIEmbedder}. */
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
  /** How long one HTTP attempt may wait for the response headers, in milliseconds. Default 30000. */
  timeoutMs?: number;
}

/** Options of {@link createOpenAIChatModel}. */
export interface OpenAIChatModelOptions extends OpenAIConnectionOptions {
  /** Chat model. Default `gpt-4o-mini`. */
  model?: string;
  /** Sampling temperature, 0 to 2, when a request doesn't set one. Default 0. */
  temperature?: number;
  /** Upper bound on output tokens when a request doesn't set one. Default: the server's. */
  maxOutputTokens?: number;
  /** How long one HTTP attempt may wait for the response headers, in milliseconds. Default 60000 (chat answers take longer). */
  timeoutMs?: number;
}

const httpUrl = z.string().refine((value) => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}, 'expected an http(s) URL such as http://127.0.0.1:11434/v1');

const connectionShape = {
  apiKey: z.string().min(1, 'expected a non-empty string'),
  baseURL: httpUrl,
  maxRetries: z.number().int().min(0).max(10).default(3),
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
