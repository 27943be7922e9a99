import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createOpenAIChatModel, createOpenAIEmbedder } from '../../src/adapters/openai/index.js';
import { ConfigError, ProviderError, ValidationError } from '../../src/core/spec/errors.js';

// A loopback server speaking OpenAI's wire format. Every request is recorded; a test can
// queue scripted replies (status, headers, body, delay), after which it answers by default:
// embeddings derived from the input text, and a fixed chat answer.

interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

interface Reply {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Wait this long before answering (the client may give up first). */
  delayMs?: number;
  /** Send the headers and the start of the body, then one space every this many ms, never ending. */
  trickleMs?: number;
}

type Script = Reply | ((request: RecordedRequest) => Reply);

/** Vector length of the default embeddings. */
let serverDimensions = 4;
const requests: RecordedRequest[] = [];
const scripted: Script[] = [];
/** Trickled responses whose connection the client closed. */
let abandoned = 0;
let server: Server;
let baseURL: string;

/** A non-normalised vector that depends on the text, so order and normalisation are visible. */
function fakeVector(text: string, dimensions = serverDimensions): number[] {
  const vector = new Array<number>(dimensions).fill(1);
  vector[0] = text.length;
  return vector;
}

function defaultReply(request: RecordedRequest): Reply {
  if (request.path.endsWith('/embeddings')) {
    const input = request.body.input as string[];
    return {
      body: {
        object: 'list',
        data: input.map((text, index) => ({ object: 'embedding', index, embedding: fakeVector(text) })),
        model: request.body.model,
        usage: { prompt_tokens: input.length * 3, total_tokens: input.length * 3 },
      },
    };
  }
  if (request.path.endsWith('/chat/completions')) {
    return {
      body: {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 1_700_000_000,
        model: request.body.model,
        choices: [{ index: 0, message: { role: 'assistant', content: 'hello back' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 11, completion_tokens: 3, total_tokens: 14 },
      },
    };
  }
  return { status: 404, body: { error: { message: `no route ${request.path}`, type: 'invalid_request_error' } } };
}

function script(...replies: Script[]): void {
  scripted.push(...replies);
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const request: RecordedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: text ? (JSON.parse(text) as Record<string, unknown>) : {},
      };
      requests.push(request);
      const next = scripted.shift();
      const reply = next === undefined ? defaultReply(request) : typeof next === 'function' ? next(request) : next;
      if (reply.trickleMs) {
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
        res.write('{"object":"list","data":[');
        const timer = setInterval(() => res.write(' '), reply.trickleMs);
        res.on('close', () => {
          clearInterval(timer);
          abandoned++;
        });
        return;
      }
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
        res.end(JSON.stringify(reply.body ?? defaultReply(request).body));
      };
      if (reply.delayMs) {
        const timer = setTimeout(send, reply.delayMs);
        res.on('close', () => clearTimeout(timer));
      } else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  requests.length = 0;
  scripted.length = 0;
  abandoned = 0;
  serverDimensions = 4;
  // Keep the developer's own OpenAI settings out of the tests.
  vi.stubEnv('OPENAI_API_KEY', undefined);
  vi.stubEnv('OPENAI_BASE_URL', undefined);
  vi.stubEnv('OPENAI_ORG_ID', undefined);
  vi.stubEnv('OPENAI_PROJECT_ID', undefined);
});

afterEach(() => {
  vi.unstubAllEnvs();
});

const embedderAt = (options: Parameters<typeof createOpenAIEmbedder>[0] = {}) =>
  createOpenAIEmbedder({ baseURL, apiKey: 'sk-test', model: 'fake-embed', dimensions: 4, ...options });

const chatAt = (options: Parameters<typeof createOpenAIChatModel>[0] = {}) =>
  createOpenAIChatModel({ baseURL, apiKey: 'sk-test', model: 'fake-chat', ...options });

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

/** The literal text `${NAME}`, the reference syntax of `apiKey`. */
const envRef = (name: string): string => `\${${name}}`;

const norm = (vector: Float32Array): number => Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));

describe('createOpenAIEmbedder', () => {
  it('describes itself', () => {
    const embedder = createOpenAIEmbedder({ apiKey: 'sk-test' });
    expect(embedder.specificationVersion).toBe('v1');
    expect(embedder.id).toBe('openai:text-embedding-3-small@api.openai.com:1536');
    expect(embedder.dimensions).toBe(1536);
    expect(embedder.maxBatchSize).toBe(256);
    expect(embedder.semantic).toBe(true);
    expect(createOpenAIEmbedder({ apiKey: 'k', model: 'text-embedding-3-large' }).dimensions).toBe(3072);
    expect(createOpenAIEmbedder({ apiKey: 'k', model: 'text-embedding-ada-002' }).dimensions).toBe(1536);
    const local = embedderAt({ batchSize: 8, semantic: false });
    expect(local.id).toBe(`openai:fake-embed@${new URL(baseURL).host}:4`);
    expect(local.maxBatchSize).toBe(8);
    expect(local.semantic).toBe(false);
  });

  it('sends the key, honours the base URL prefix and the request shape', async () => {
    const embedder = embedderAt({ headers: { 'x-team': 'memoir' } });
    await embedder.embed(['alpha', 'beta']);
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe('/v1/embeddings');
    expect(request!.headers.authorization).toBe('Bearer sk-test');
    expect(request!.headers['x-team']).toBe('memoir');
    expect(request!.body).toEqual({ model: 'fake-embed', input: ['alpha', 'beta'], encoding_format: 'float' });
  });

  it('returns L2-normalised vectors in input order', async () => {
    const vectors = await embedderAt().embed(['a', 'abc', 'abcdefgh']);
    expect(vectors).toHaveLength(3);
    for (const vector of vectors) {
      expect(vector).toBeInstanceOf(Float32Array);
      expect(vector).toHaveLength(4);
      expect(norm(vector)).toBeCloseTo(1, 5);
    }
    // [len, 1, 1, 1] normalised: the first component grows with the text's length.
    expect(vectors[0]![0]).toBeCloseTo(0.5, 5);
    expect(vectors[1]![0]).toBeCloseTo(3 / Math.sqrt(12), 5);
    expect(vectors[2]![0]).toBeCloseTo(8 / Math.sqrt(67), 5);
  });

  it('splits into batches and orders each by index even when the server shuffles them', async () => {
    const shuffled = (request: RecordedRequest): Reply => {
      const reply = defaultReply(request);
      const body = reply.body as { data: unknown[] };
      return { body: { ...body, data: [...body.data].reverse() } };
    };
    script(shuffled, shuffled, shuffled);
    const embedder = embedderAt({ batchSize: 2 });
    const texts = ['a', 'bb', 'ccc', 'dddd', 'eeeee'];
    const vectors = await embedder.embed(texts);
    expect(requests.map((r) => r.body.input)).toEqual([['a', 'bb'], ['ccc', 'dddd'], ['eeeee']]);
    for (let i = 0; i < texts.length; i++) {
      const expected = texts[i]!.length / Math.sqrt(texts[i]!.length ** 2 + 3);
      expect(vectors[i]![0]).toBeCloseTo(expected, 5);
    }
    expect(embedder.usage()).toEqual({ calls: 3, inputTokens: 15 });
  });

  it('makes no request for empty input, and gives blank texts the zero vector unsent', async () => {
    const embedder = embedderAt();
    expect(await embedder.embed([])).toEqual([]);
    const vectors = await embedder.embed(['', 'words', '   ']);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.body.input).toEqual(['words']);
    expect(Array.from(vectors[0]!)).toEqual([0, 0, 0, 0]);
    expect(norm(vectors[1]!)).toBeCloseTo(1, 5);
    expect(Array.from(vectors[2]!)).toEqual([0, 0, 0, 0]);
    expect(embedder.usage()).toEqual({ calls: 1, inputTokens: 3 });
  });

  it('rejects texts that are not strings', async () => {
    const error = await rejection(embedderAt().embed(['ok', 3 as unknown as string]));
    expect(ValidationError.isInstance(error)).toBe(true);
    expect((error as ValidationError).field).toBe('texts[1]');
    expect(requests).toHaveLength(0);
  });

  it('sends dimensions only to text-embedding-3 models that were given some', async () => {
    const small = embedderAt({ model: 'text-embedding-3-small', dimensions: 4 });
    await small.embed(['x']);
    expect(requests[0]!.body.dimensions).toBe(4);
    expect(small.id).toContain('text-embedding-3-small');

    serverDimensions = 1536;
    await createOpenAIEmbedder({ baseURL, apiKey: 'k' }).embed(['x']);
    expect(requests[1]!.body).not.toHaveProperty('dimensions');
    serverDimensions = 4;
    await embedderAt().embed(['x']);
    expect(requests[2]!.body).not.toHaveProperty('dimensions');
  });

  it('reports a dimension mismatch with the fix in its suggestion', async () => {
    serverDimensions = 8;
    const error = await rejection(embedderAt().embed(['text']));
    expect(ProviderError.isInstance(error)).toBe(true);
    const providerError = error as ProviderError;
    expect(providerError.retryable).toBe(false);
    expect(providerError.message).toContain('8-dimensional');
    expect(providerError.message).toContain('fake-embed');
    expect(providerError.suggestion).toContain('dimensions: 8');
    expect(providerError.suggestion).toContain('memoir reindex');
  });

  it('treats a malformed response as a ProviderError', async () => {
    script({ body: { object: 'list', data: [] } });
    const error = await rejection(embedderAt().embed(['text']));
    expect(ProviderError.isInstance(error)).toBe(true);
    expect((error as ProviderError).message).toContain('0 embeddings for 1 inputs');
  });

  it('checks its options', () => {
    const unknown = thrown(() => createOpenAIEmbedder({ apiKey: 'k', model: 'nomic-embed-text' }));
    expect(ConfigError.isInstance(unknown)).toBe(true);
    expect((unknown as ConfigError).field).toBe('dimensions');
    expect((unknown as ConfigError).message).toContain('nomic-embed-text');

    const tooMany = thrown(() => createOpenAIEmbedder({ apiKey: 'k', dimensions: 2000 }));
    expect((tooMany as ConfigError).field).toBe('dimensions');
    const ada = thrown(() => createOpenAIEmbedder({ apiKey: 'k', model: 'text-embedding-ada-002', dimensions: 512 }));
    expect((ada as ConfigError).field).toBe('dimensions');

    const batch = thrown(() => embedderAt({ batchSize: 0 }));
    expect(ConfigError.isInstance(batch)).toBe(true);
    expect((batch as ConfigError).field).toBe('batchSize');

    const url = thrown(() => embedderAt({ baseURL: 'localhost:11434' }));
    expect((url as ConfigError).field).toBe('baseURL');

    const unknownOption = thrown(() => createOpenAIEmbedder({ apiKey: 'k', modle: 'x' } as never));
    expect(ConfigError.isInstance(unknownOption)).toBe(true);
    expect((unknownOption as ConfigError).message).toContain('modle');
  });
});

describe('createOpenAIChatModel', () => {
  it('describes itself', () => {
    const model = createOpenAIChatModel({ apiKey: 'sk-test' });
    expect(model.specificationVersion).toBe('v1');
    expect(model.id).toBe('openai:gpt-4o-mini@api.openai.com');
    expect(chatAt().id).toBe(`openai:fake-chat@${new URL(baseURL).host}`);
  });

  it('sends the system prompt first, the messages and temperature 0, and returns text and usage', async () => {
    const result = await chatAt().generate({
      system: 'You remember things.',
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'hello' },
        { role: 'user', content: 'remember me' },
      ],
    });
    expect(result).toEqual({ text: 'hello back', usage: { inputTokens: 11, outputTokens: 3 }, finishReason: 'stop' });
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request!.path).toBe('/v1/chat/completions');
    expect(request!.headers.authorization).toBe('Bearer sk-test');
    expect(request!.body).toEqual({
      model: 'fake-chat',
      messages: [
        { role: 'system', content: 'You remember things.' },
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'hello' },
        { role: 'user', content: 'remember me' },
      ],
      temperature: 0,
    });
  });

  it('asks for JSON mode and passes the output bound', async () => {
    await chatAt({ maxOutputTokens: 100 }).generate({
      system: 'Reply in JSON.',
      messages: [{ role: 'user', content: 'facts?' }],
      json: true,
      temperature: 0.5,
    });
    expect(requests[0]!.body.response_format).toEqual({ type: 'json_object' });
    expect(requests[0]!.body.temperature).toBe(0.5);
    expect(requests[0]!.body.max_tokens).toBe(100);

    // OpenAI refuses JSON mode unless the conversation says "JSON": the adapter says it.
    await chatAt().generate({ messages: [{ role: 'user', content: 'facts?' }], json: true, maxOutputTokens: 5 });
    const messages = requests[1]!.body.messages as { role: string; content: string }[];
    expect(messages[0]!.role).toBe('system');
    expect(messages[0]!.content).toMatch(/JSON/);
    expect(requests[1]!.body.max_tokens).toBe(5);
  });

  it('turns images into image_url parts, bytes into data URLs', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
    await chatAt().generate({
      messages: [
        {
          role: 'user',
          content: 'what is on screen?',
          images: [{ data: png, mediaType: 'image/png' }, { data: 'https://example.com/shot.jpg' }],
        },
      ],
    });
    expect(requests[0]!.body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'what is on screen?' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${Buffer.from(png).toString('base64')}` } },
          { type: 'image_url', image_url: { url: 'https://example.com/shot.jpg' } },
        ],
      },
    ]);
  });

  it('rejects image bytes without a media type before any request', async () => {
    const error = await rejection(
      chatAt().generate({ messages: [{ role: 'user', content: 'see', images: [{ data: new Uint8Array([1]) }] }] }),
    );
    expect(ValidationError.isInstance(error)).toBe(true);
    expect((error as ValidationError).field).toBe('messages[0].images[0].mediaType');
    expect(requests).toHaveLength(0);
  });

  it('reports zero usage when the server sends none, and empty choices as a ProviderError', async () => {
    script((request) => {
      const body = defaultReply(request).body as Record<string, unknown>;
      return { body: { ...body, usage: undefined } };
    });
    const result = await chatAt().generate({ messages: [{ role: 'user', content: 'hi' }] });
    expect(result.usage).toEqual({ inputTokens: 0, outputTokens: 0 });

    script((request) => ({ body: { ...(defaultReply(request).body as object), choices: [] } }));
    const error = await rejection(chatAt().generate({ messages: [{ role: 'user', content: 'hi' }] }));
    expect(ProviderError.isInstance(error)).toBe(true);
    expect((error as ProviderError).message).toContain('no choices');
  });
});

describe('failures and retries', () => {
  it('retries a 429 after its retry-after and succeeds on the second request', async () => {
    script({
      status: 429,
      headers: { 'retry-after': '0' },
      body: { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } },
    });
    const started = Date.now();
    const vectors = await embedderAt().embed(['x']);
    expect(vectors).toHaveLength(1);
    expect(requests).toHaveLength(2);
    expect(requests[1]!.headers['x-stainless-retry-count']).toBe('1');
    // retry-after: 0 replaces the SDK's default backoff (0.5 s and up).
    expect(Date.now() - started).toBeLessThan(400);
  });

  it('maps a timeout to a retryable ProviderError', async () => {
    script({ delayMs: 2000 });
    const error = await rejection(
      chatAt({ timeoutMs: 200, maxRetries: 0 }).generate({ messages: [{ role: 'user', content: 'slow?' }] }),
    );
    expect(ProviderError.isInstance(error)).toBe(true);
    const providerError = error as ProviderError;
    expect(providerError.retryable).toBe(true);
    expect(providerError.status).toBeUndefined();
    expect(providerError.message).toContain('200 ms');
    expect(providerError.suggestion).toContain('timeoutMs');
    expect(requests).toHaveLength(1);
  });

  it('maps a 500 to a retryable ProviderError with its status', async () => {
    script({ status: 500, body: { error: { message: 'The server had an error', type: 'server_error' } } });
    const error = await rejection(embedderAt({ maxRetries: 0 }).embed(['x']));
    expect(ProviderError.isInstance(error)).toBe(true);
    const providerError = error as ProviderError;
    expect(providerError.status).toBe(500);
    expect(providerError.retryable).toBe(true);
    expect(providerError.message).toContain('fake-embed');
    expect(requests).toHaveLength(1);
  });

  it('maps a 401 to a final ProviderError with a key hint, without retrying', async () => {
    script({
      status: 401,
      body: {
        error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' },
      },
    });
    const error = await rejection(chatAt().generate({ messages: [{ role: 'user', content: 'hi' }] }));
    expect(ProviderError.isInstance(error)).toBe(true);
    const providerError = error as ProviderError;
    expect(providerError.status).toBe(401);
    expect(providerError.retryable).toBe(false);
    expect(providerError.message).toContain('Incorrect API key');
    expect(providerError.message).toContain('fake-chat');
    expect(providerError.suggestion).toContain('OPENAI_API_KEY');
    expect(requests).toHaveLength(1);
  });

  it('maps a refused connection to a retryable ProviderError', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const embedder = embedderAt({ baseURL: `http://127.0.0.1:${port}/v1`, maxRetries: 0 });
    const error = await rejection(embedder.embed(['x']));
    expect(ProviderError.isInstance(error)).toBe(true);
    expect((error as ProviderError).retryable).toBe(true);
    expect((error as ProviderError).message).toContain('ECONNREFUSED');
    expect((error as ProviderError).suggestion).toContain('baseURL');
  });

  it('rejects with the signal reason when aborted mid-request', async () => {
    const controller = new AbortController();
    // Aborted once the server holds the request (a fixed delay from the call can fire before
    // the request leaves on a loaded machine, and then proves nothing).
    script(() => {
      setTimeout(() => controller.abort(), 50);
      return { delayMs: 5000 };
    });
    const started = Date.now();
    const error = await rejection(embedderAt().embed(['x'], { signal: controller.signal }));
    expect(error).toBe(controller.signal.reason);
    expect((error as Error).name).toBe('AbortError');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(requests).toHaveLength(1);

    const reason = new Error('shutting down');
    const aborted = AbortSignal.abort(reason);
    await expect(chatAt().generate({ messages: [{ role: 'user', content: 'hi' }], signal: aborted })).rejects.toBe(
      reason,
    );
    expect(requests).toHaveLength(1);
  });

  it('rejects at once when aborted during the backoff before a retry', async () => {
    // The wait before the retry (retry-after 30 s, capped at 5 s) must wake on the abort.
    const controller = new AbortController();
    script(() => {
      setTimeout(() => controller.abort(), 100);
      return { status: 503, headers: { 'retry-after': '30' }, body: { error: { message: 'overloaded' } } };
    });
    const started = Date.now();
    const error = await rejection(
      chatAt().generate({ messages: [{ role: 'user', content: 'hi' }], signal: controller.signal }),
    );
    expect((error as Error).name).toBe('AbortError');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(requests).toHaveLength(1);
  });
});

describe('bounded time', () => {
  // Every bound is measured against real time with a generous margin: the machine is shared,
  // and what matters is seconds against minutes or hours.
  const MARGIN_MS = 1500;
  const rateLimited = (retryAfter: string): Reply => ({
    status: 429,
    headers: { 'retry-after': retryAfter },
    body: { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } },
  });
  const elapsedSince = (started: number) => performance.now() - started;

  it('cuts off an embeddings body trickled after the headers at timeoutMs and drops the connection', async () => {
    script({ trickleMs: 50 });
    const started = performance.now();
    const error = await rejection(embedderAt({ timeoutMs: 1000, maxRetries: 3 }).embed(['x']));
    const elapsed = elapsedSince(started);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect((error as ProviderError).retryable).toBe(true);
    expect((error as ProviderError).message).toContain('no complete response within 1000 ms');
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(elapsed).toBeLessThan(1000 + MARGIN_MS);
    // The deadline covers the whole call: no retry is started after it.
    expect(requests).toHaveLength(1);
    await vi.waitFor(() => expect(abandoned).toBe(1));
  });

  it('cuts off a chat answer trickled after the headers at timeoutMs', async () => {
    script({ trickleMs: 50 });
    const started = performance.now();
    const error = await rejection(
      chatAt({ timeoutMs: 1000 }).generate({ messages: [{ role: 'user', content: 'trickle' }] }),
    );
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(elapsedSince(started)).toBeLessThan(1000 + MARGIN_MS);
    await vi.waitFor(() => expect(abandoned).toBe(1));
  });

  it('keeps retries of slow failures inside one deadline', async () => {
    const slowFailure: Reply = { status: 500, delayMs: 400, body: { error: { message: 'busy' } } };
    script(...Array.from({ length: 10 }, () => slowFailure));
    const started = performance.now();
    const error = await rejection(embedderAt({ timeoutMs: 1000, maxRetries: 10, maxRetryAfterMs: 0 }).embed(['x']));
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(elapsedSince(started)).toBeLessThan(1000 + MARGIN_MS);
    expect(requests.length).toBeGreaterThanOrEqual(2);
    expect(requests.length).toBeLessThanOrEqual(4);
  });

  it('caps Retry-After: 3600 at maxRetryAfterMs and still retries', async () => {
    script(rateLimited('3600'), rateLimited('3600'));
    const started = performance.now();
    const vectors = await embedderAt({ maxRetryAfterMs: 200 }).embed(['x']);
    const elapsed = elapsedSince(started);
    expect(vectors).toHaveLength(1);
    expect(requests).toHaveLength(3);
    expect(requests[2]!.headers['x-stainless-retry-count']).toBe('2');
    expect(elapsed).toBeGreaterThanOrEqual(380);
    expect(elapsed).toBeLessThan(400 + MARGIN_MS);
  });

  it('waits at most the default cap of 5 s for a Retry-After of an hour', async () => {
    script(rateLimited('3600'));
    const started = performance.now();
    const vectors = await embedderAt({ timeoutMs: 20_000, maxRetries: 1 }).embed(['x']);
    const elapsed = elapsedSince(started);
    expect(vectors).toHaveLength(1);
    expect(elapsed).toBeGreaterThanOrEqual(4900);
    expect(elapsed).toBeLessThan(5000 + MARGIN_MS);
  }, 15_000);

  it('gives up at once when the wait would outlast the deadline, naming the wait the server asked for', async () => {
    script(rateLimited('3600'), rateLimited('3600'));
    const started = performance.now();
    const error = await rejection(
      chatAt({ timeoutMs: 2000 }).generate({ messages: [{ role: 'user', content: 'hi' }] }),
    );
    expect(elapsedSince(started)).toBeLessThan(MARGIN_MS);
    expect(ProviderError.isInstance(error)).toBe(true);
    const providerError = error as ProviderError;
    expect(providerError.status).toBe(429);
    expect(providerError.retryable).toBe(true);
    expect(providerError.suggestion).toContain('3600 s');
    expect(providerError.suggestion).toContain('maxRetryAfterMs');
    expect(requests).toHaveLength(1);
  });

  it('checks maxRetryAfterMs', () => {
    const error = thrown(() => embedderAt({ maxRetryAfterMs: -1 }));
    expect(ConfigError.isInstance(error)).toBe(true);
    expect((error as ConfigError).field).toBe('maxRetryAfterMs');
  });
});

describe('API keys', () => {
  it('expands references to environment variables', async () => {
    vi.stubEnv('MY_KEY', 'sk-from-env');
    await embedderAt({ apiKey: envRef('MY_KEY') }).embed(['x']);
    expect(requests[0]!.headers.authorization).toBe('Bearer sk-from-env');

    // An injected environment replaces process.env.
    await chatAt({ apiKey: `sk-${envRef('PART')}`, env: { PART: 'injected' } }).generate({
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(requests[1]!.headers.authorization).toBe('Bearer sk-injected');
  });

  it('names the option and the variable when a reference is unset', () => {
    const error = thrown(() => createOpenAIEmbedder({ apiKey: envRef('NOT_SET_ANYWHERE') }));
    expect(ConfigError.isInstance(error)).toBe(true);
    expect((error as ConfigError).field).toBe('apiKey');
    expect((error as ConfigError).message).toContain('NOT_SET_ANYWHERE');
  });

  it('reads OPENAI_API_KEY and OPENAI_BASE_URL', async () => {
    vi.stubEnv('OPENAI_API_KEY', 'sk-default');
    vi.stubEnv('OPENAI_BASE_URL', baseURL);
    const embedder = createOpenAIEmbedder({ model: 'fake-embed', dimensions: 4 });
    expect(embedder.id).toBe(`openai:fake-embed@${new URL(baseURL).host}:4`);
    await embedder.embed(['x']);
    expect(requests[0]!.headers.authorization).toBe('Bearer sk-default');
  });

  it('refuses to start without a key for OpenAI itself, naming apiKey and OPENAI_API_KEY', () => {
    for (const create of [() => createOpenAIEmbedder(), () => createOpenAIChatModel()]) {
      const error = thrown(create);
      expect(ConfigError.isInstance(error)).toBe(true);
      expect((error as ConfigError).field).toBe('apiKey');
      expect((error as ConfigError).message).toContain('apiKey');
      expect((error as ConfigError).message).toContain('OPENAI_API_KEY');
    }
    // An injected environment counts, and process.env is not consulted when one is given.
    vi.stubEnv('OPENAI_API_KEY', 'sk-process');
    expect(() => createOpenAIChatModel({ env: {} })).toThrow(/OPENAI_API_KEY/);
    expect(() => createOpenAIChatModel({ env: { OPENAI_API_KEY: 'sk-injected' } })).not.toThrow();
  });

  it('needs no key for a local server', async () => {
    const result = await createOpenAIChatModel({ baseURL, model: 'llama3' }).generate({
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(result.text).toBe('hello back');
    expect(requests[0]!.headers.authorization).toBe('Bearer not-needed');
  });
});

describe('without the openai package', () => {
  afterEach(() => {
    vi.doUnmock('openai');
    vi.resetModules();
  });

  it('fails on first use with a ProviderError naming npm install openai', async () => {
    vi.resetModules();
    vi.doMock('openai', () => {
      throw new Error("Cannot find package 'openai'");
    });
    const { createOpenAIEmbedder: create } = await import('../../src/adapters/openai/index.js');
    const embedder = create({ baseURL, model: 'fake-embed', dimensions: 4 });
    const error = await rejection(embedder.embed(['x']));
    expect(ProviderError.isInstance(error)).toBe(true);
    expect((error as ProviderError).suggestion).toContain('npm install openai');
    expect(requests).toHaveLength(0);
  });
});
