// Plugging in any embedder: an adapter over Ollama's /api/embed endpoint, written against
// memoir's Embedder port with nothing but fetch. Use it as a template for any other model
// server or library: memoir needs `specificationVersion`, `id`, `dimensions` and
// `embed(texts, { signal })` resolving to one L2-normalised Float32Array per text.
//
//   ollama pull nomic-embed-text
//   npx tsx examples/ollama-embedder.ts          # OLLAMA_HOST picks another server
//
// (Ollama also speaks the OpenAI wire format, so createOpenAIEmbedder from memoir/openai with
// baseURL http://127.0.0.1:11434/v1 works too; this file shows the port itself.)
// In your project, import from 'memoir' instead of '../src/index.js'.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createMemory, type Embedder, type EmbedOptions, ProviderError } from '../src/index.js';

export interface OllamaEmbedderOptions {
  /** The embedding model, as `ollama list` names it. Default `nomic-embed-text`. */
  model?: string;
  /** Length of the model's vectors (nomic-embed-text: 768, mxbai-embed-large: 1024). */
  dimensions: number;
  /** The Ollama server. Default: `OLLAMA_HOST`, else http://127.0.0.1:11434. */
  baseUrl?: string;
  /** Most texts per request. Default 64. */
  maxBatchSize?: number;
}

const COMPONENT = 'ollama-embedder';

function normalise(values: readonly number[]): Float32Array {
  const vector = Float32Array.from(values);
  let sum = 0;
  for (const value of vector) sum += value * value;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i]! /= norm;
  return vector;
}

export function createOllamaEmbedder(options: OllamaEmbedderOptions): Embedder {
  const model = options.model ?? 'nomic-embed-text';
  const baseUrl = options.baseUrl ?? process.env.OLLAMA_HOST ?? 'http://127.0.0.1:11434';
  const { dimensions } = options;
  const hint = `Is Ollama running at ${baseUrl}, with the model pulled (ollama pull ${model})?`;

  async function request(texts: string[], signal: AbortSignal | undefined): Promise<number[][]> {
    let response: Response;
    try {
      response = await fetch(new URL('/api/embed', baseUrl), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model, input: texts }),
        signal,
      });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw new ProviderError(`cannot reach ${baseUrl}`, {
        component: COMPONENT,
        retryable: true,
        suggestion: hint,
        cause: error,
      });
    }
    if (!response.ok) {
      const detail = (await response.text()).slice(0, 300);
      throw new ProviderError(`HTTP ${response.status} from ${baseUrl}/api/embed: ${detail}`, {
        component: COMPONENT,
        status: response.status,
        retryable: response.status === 429 || response.status >= 500,
        suggestion: hint,
      });
    }
    const body = (await response.json()) as { embeddings?: unknown };
    const embeddings = body.embeddings;
    if (!Array.isArray(embeddings) || embeddings.length !== texts.length) {
      throw new ProviderError(`expected ${texts.length} embeddings from ${baseUrl}/api/embed`, {
        component: COMPONENT,
      });
    }
    for (const vector of embeddings) {
      if (!Array.isArray(vector) || vector.length !== dimensions || !vector.every(Number.isFinite)) {
        throw new ProviderError(`expected vectors of ${dimensions} numbers from ${model}`, {
          component: COMPONENT,
          suggestion: `Set dimensions to the model's vector length (got ${Array.isArray(vector) ? vector.length : typeof vector}).`,
        });
      }
    }
    return embeddings as number[][];
  }

  return {
    specificationVersion: 'v1',
    // A store records this id and refuses a different one: name the model and the vector length.
    id: `ollama:${model}:${dimensions}`,
    dimensions,
    semantic: true,
    maxBatchSize: options.maxBatchSize ?? 64,
    async embed(texts: readonly string[], { signal }: EmbedOptions = {}): Promise<Float32Array[]> {
      signal?.throwIfAborted();
      // Empty texts get the zero vector (it matches nothing) without a request.
      const vectors: Float32Array[] = texts.map(() => new Float32Array(dimensions));
      const toSend = texts.flatMap((text, index) => (text.trim() === '' ? [] : [index]));
      if (toSend.length === 0) return vectors;
      const embeddings = await request(
        toSend.map((index) => texts[index]!),
        signal,
      );
      toSend.forEach((index, i) => {
        vectors[index] = normalise(embeddings[i]!);
      });
      return vectors;
    },
  };
}

// Run directly: retain and recall through Ollama, in a throwaway store.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const embedder = createOllamaEmbedder({ model: process.env.OLLAMA_EMBEDDING_MODEL, dimensions: 768 });
  const memory = createMemory({ home: mkdtempSync(join(tmpdir(), 'memoir-ollama-')), embedder });
  try {
    await memory.retain([
      'Sam drives an old Volvo estate.',
      'The team standup moved to 9:30 on Mondays.',
      'Sam is allergic to peanuts.',
    ]);
    // A semantic embedder finds the car without the word "car" in the memory.
    const { results } = await memory.recall('What car does Sam have?', { k: 1 });
    console.log(results.map((result) => `${result.score.toFixed(3)} ${result.memory.content}`).join('\n'));
  } catch (error) {
    if (!ProviderError.isInstance(error)) throw error;
    console.log(`${error.message}\nhint: ${error.suggestion}`);
  } finally {
    await memory.close();
  }
}
