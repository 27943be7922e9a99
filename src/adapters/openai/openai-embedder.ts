import { z } from 'zod';
import type { Embedder, EmbedOptions } from '../../core/spec/embedder.js';
import { ConfigError, ProviderError } from '../../core/spec/errors.js';
import { parseOptions } from '../../core/utils/parse-options.js';
import { parseInput } from '../../core/utils/validate.js';
import { callOpenAI } from './openai-call.js';
import { connectOpenAI } from './openai-connection.js';
import type { OpenAICallContext } from './openai-errors.js';
import { type OpenAIEmbedderOptions, openAIEmbedderOptionsSchema } from './openai-options.js';

const COMPONENT = 'openai-embedder';

/**
 * Token and request totals of an {@link OpenAIEmbedder} since it was created.
 *
 * @group Adapters
 */
export interface OpenAIEmbedderUsage {
  /** Successful embedding requests. */
  calls: number;
  /** Input tokens the server reported (0 for servers that report none). */
  inputTokens: number;
}

/**
 * An Embedder for an OpenAI-compatible `/embeddings` endpoint.
 *
 * @group Adapters
 */
export interface OpenAIEmbedder extends Embedder {
  /** Whether the vectors capture meaning; from the `semantic` option. */
  readonly semantic: boolean;
  /** Texts per request, from the `batchSize` option. */
  readonly maxBatchSize: number;
  /** Totals since the embedder was created: a fresh copy each call. */
  usage(): OpenAIEmbedderUsage;
}

interface KnownModel {
  /** Native vector length. */
  dimensions: number;
  /** Whether the API shortens vectors on request (the `dimensions` parameter). */
  shortenable: boolean;
}

// A Map, not an object literal, so that a model named e.g. "constructor" isn't "known".
const KNOWN_MODELS = new Map<string, KnownModel>([
  ['text-embedding-3-small', { dimensions: 1536, shortenable: true }],
  ['text-embedding-3-large', { dimensions: 3072, shortenable: true }],
  ['text-embedding-ada-002', { dimensions: 1536, shortenable: false }],
]);

const OPTIONS_SUGGESTION =
  'See OpenAIEmbedderOptions: e.g. { model: "nomic-embed-text", dimensions: 768, baseURL: "http://127.0.0.1:11434/v1" }.';

const textsSchema = z.array(z.string());

function resolveDimensions(model: string, requested: number | undefined): { dimensions: number; send: boolean } {
  const known = KNOWN_MODELS.get(model);
  if (!known) {
    if (requested === undefined) {
      throw new ConfigError(
        `option dimensions: required for model "${model}", whose vector length memoir doesn't know`,
        {
          component: COMPONENT,
          field: 'dimensions',
          suggestion:
            'Pass dimensions: the length of the vectors the model returns, e.g. 768 for nomic-embed-text or 1024 for mxbai-embed-large.',
        },
      );
    }
    return { dimensions: requested, send: false };
  }
  if (requested === undefined) return { dimensions: known.dimensions, send: false };
  if (known.shortenable ? requested > known.dimensions : requested !== known.dimensions) {
    const allowed = known.shortenable ? `at most ${known.dimensions}` : `${known.dimensions}`;
    throw new ConfigError(`option dimensions: model "${model}" gives ${allowed} dimensions (got ${requested})`, {
      component: COMPONENT,
      field: 'dimensions',
      suggestion: `Pass dimensions ${allowed}, or leave it out for ${known.dimensions}.`,
    });
  }
  return { dimensions: requested, send: known.shortenable };
}

/**
 * Check one response and turn it into vectors in input order: `data` sorted by `index`, each
 * vector of the configured length and L2-normalised (OpenAI's already are; other servers'
 * may not be, and recall compares by dot product).
 */
function readVectors(response: unknown, count: number, dimensions: number, context: OpenAICallContext) {
  const { component, model, host } = context;
  const malformed = (detail: string) =>
    new ProviderError(`model "${model}" at ${host} sent a malformed embeddings response: ${detail}`, {
      component,
      retryable: false,
      suggestion: 'Check that baseURL points at an OpenAI-compatible API (its /embeddings endpoint).',
    });

  const data = (response as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) throw malformed('no `data` array');
  if (data.length !== count) throw malformed(`${data.length} embeddings for ${count} inputs`);

  const vectors: (Float32Array | undefined)[] = new Array(count);
  for (let position = 0; position < data.length; position++) {
    const item = data[position] as { index?: unknown; embedding?: unknown } | null;
    // Some servers leave out `index`; their order is then the input order.
    const index = typeof item?.index === 'number' ? item.index : position;
    const embedding = item?.embedding;
    if (!Number.isInteger(index) || index < 0 || index >= count || vectors[index]) {
      throw malformed(`bad or repeated index ${String(index)}`);
    }
    if (!Array.isArray(embedding)) throw malformed(`embedding ${index} is not an array of numbers`);
    if (embedding.length !== dimensions) {
      throw new ProviderError(
        `model "${model}" at ${host} returned ${embedding.length}-dimensional vectors, but the embedder is configured for ${dimensions}`,
        {
          component,
          retryable: false,
          suggestion:
            `If "${model}" is the model you want, set dimensions: ${embedding.length} in the OpenAI embedder's options ` +
            'and run `memoir reindex` to rebuild the stored vectors with it; otherwise switch back to the model the store was built with.',
        },
      );
    }
    let sum = 0;
    for (const value of embedding) {
      if (typeof value !== 'number' || !Number.isFinite(value)) throw malformed(`embedding ${index} has a non-number`);
      sum += value * value;
    }
    const vector = new Float32Array(dimensions);
    // A zero vector stays zero: it matches nothing, as the Embedder contract allows.
    const scale = sum > 0 ? 1 / Math.sqrt(sum) : 0;
    for (let i = 0; i < dimensions; i++) vector[i] = (embedding[i] as number) * scale;
    vectors[index] = vector;
  }
  return vectors as Float32Array[];
}

/**
 * Create an Embedder for OpenAI's embeddings API or any OpenAI-compatible server (Ollama,
 * LM Studio, vLLM, llama.cpp, gateways). Options are checked now; the `openai` package
 * loads on the first call.
 *
 * Its id, e.g. `openai:text-embedding-3-small@api.openai.com:1536`, names the model, the
 * server and the dimensions, so a store built with one refuses another. Texts are sent in
 * batches of `batchSize`, one request at a time; empty and whitespace-only texts get the
 * zero vector without being sent (OpenAI rejects empty input). Each request is bounded by
 * `timeoutMs`, body and retries included. An aborted `signal` rejects with the signal's
 * reason; every other failure is a ProviderError with `status` and `retryable`.
 *
 * @example
 * ```ts
 * import { createOpenAIEmbedder } from 'memoir/openai';
 * const embedder = createOpenAIEmbedder(); // text-embedding-3-small, key from OPENAI_API_KEY
 * const local = createOpenAIEmbedder({
 *   baseURL: 'http://127.0.0.1:11434/v1', model: 'nomic-embed-text', dimensions: 768,
 * });
 * ```
 *
 * @throws ConfigError when an option is invalid, no API key is found for OpenAI's own API,
 * or `dimensions` is missing for a model memoir doesn't know.
 * @group Adapters
 */
export function createOpenAIEmbedder(options?: OpenAIEmbedderOptions): OpenAIEmbedder {
  const parsed = parseOptions(openAIEmbedderOptionsSchema, options, COMPONENT, OPTIONS_SUGGESTION);
  const { model, batchSize, semantic } = parsed;
  const { dimensions, send: sendDimensions } = resolveDimensions(model, parsed.dimensions);
  const { connection, load, context } = connectOpenAI(parsed, COMPONENT, 'embeddings', model);
  const totals: OpenAIEmbedderUsage = { calls: 0, inputTokens: 0 };

  return {
    specificationVersion: 'v1',
    id: `openai:${model}@${connection.host}:${dimensions}`,
    dimensions,
    semantic,
    maxBatchSize: batchSize,
    usage: () => ({ ...totals }),
    async embed(texts: readonly string[], embedOptions?: EmbedOptions): Promise<Float32Array[]> {
      const signal = embedOptions?.signal;
      signal?.throwIfAborted();
      parseInput(textsSchema, texts, COMPONENT, 'texts');

      const vectors: Float32Array[] = new Array(texts.length);
      const toSend: number[] = [];
      for (let i = 0; i < texts.length; i++) {
        if (texts[i]!.trim() === '') vectors[i] = new Float32Array(dimensions);
        else toSend.push(i);
      }
      if (toSend.length === 0) return vectors;

      const { sdk, client } = await load();
      for (let start = 0; start < toSend.length; start += batchSize) {
        signal?.throwIfAborted();
        const positions = toSend.slice(start, start + batchSize);
        const response = await callOpenAI(
          (attempt) =>
            client.embeddings.create(
              {
                model,
                input: positions.map((i) => texts[i]!),
                // Plain floats: every compatible server speaks them (the SDK's default is base64).
                encoding_format: 'float',
                ...(sendDimensions ? { dimensions } : {}),
              },
              attempt,
            ),
          signal,
          sdk,
          context,
        );
        // Counted before the checks: a malformed answer was still billed.
        totals.calls += 1;
        const tokens = (response as { usage?: { prompt_tokens?: unknown } } | null)?.usage?.prompt_tokens;
        if (typeof tokens === 'number' && Number.isFinite(tokens)) totals.inputTokens += tokens;
        const batch = readVectors(response, positions.length, dimensions, context);
        for (let j = 0; j < positions.length; j++) vectors[positions[j]!] = batch[j]!;
      }
      return vectors;
    },
  };
}
