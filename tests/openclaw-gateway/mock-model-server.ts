import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A loopback server speaking OpenAI's chat-completions and embeddings wire format, standing in
// for the one part of the gateway test that is scripted: the model. It answers three callers:
// - the OpenClaw agent (streamed, with tools): a fixed reply, or a tool call when the user
//   asks for one by name, then a reply quoting the tool's result;
// - memoir's pipeline (JSON mode): extraction, dedup and merge answers derived from the
//   transcript it is shown, so the memories stored are the conversation's own words;
// - an embedding client (the memory-lancedb stand-in): hashed-word vectors (`/embeddings`);
// - memoir's vision model (memory_recall_steps): the scripted steps in order, then NONE.
// Every request is recorded, so the test can see what reached the model.

/** Who sent a recorded request, read from its system prompt. */
export type ModelCaller = 'agent' | 'extract' | 'dedup' | 'merge' | 'vision';

/** One chat request the server answered. */
export interface RecordedChat {
  /** Who sent it. */
  caller: ModelCaller;
  /** The request's messages, as sent. */
  messages: ChatMessage[];
  /** The text of the last user message (the agent's prompt, as the host built it). */
  lastUserText: string;
  /** Tool names the request offered. */
  tools: string[];
}

/** What the test holds while the server runs. */
export interface MockModelServer {
  /** `http://127.0.0.1:<port>/v1`. */
  baseUrl: string;
  /** Every chat request, oldest first. */
  requests: RecordedChat[];
  /** Every text sent to `/embeddings`, oldest first. */
  embedded: string[];
  /** What the vision model answers, one step per call in order (then NONE); the test sets it. */
  visionSteps: string[];
  /** Stop listening and drop open connections. */
  close(): Promise<void>;
}

interface ChatMessage {
  role: string;
  content?: string | Array<{ type: string; text?: string }> | null;
  tool_call_id?: string;
}

interface ChatRequest {
  model?: string;
  stream?: boolean;
  messages?: ChatMessage[];
  tools?: Array<{ function?: { name?: string } }>;
}

type Answer = { text: string } | { toolCall: { name: string; arguments: Record<string, unknown> } };

const textOf = (message: ChatMessage | undefined): string => {
  if (!message?.content) return '';
  if (typeof message.content === 'string') return message.content;
  return message.content.map((part) => part.text ?? '').join('\n');
};

function callerOf(system: string): ModelCaller {
  if (system.includes('exactly one key, "memories"')) return 'extract';
  if (system.includes('"decision" (one of')) return 'dedup';
  if (system.includes('of the merged memory')) return 'merge';
  if (system.includes('You watch a screen recording')) return 'vision';
  return 'agent';
}

/** The transcript memoir sent for extraction: the text between its conversation tags. */
function transcriptOf(prompt: string): string {
  const match = /<conversation[^>]*>([\s\S]*?)<\/conversation>/.exec(prompt);
  return (match?.[1] ?? prompt).trim();
}

/**
 * One memory per user line that states something (the prompts the test sends are short
 * statements), in the category its wording suggests, with three distinct tiers.
 */
function extractionAnswer(prompt: string): string {
  const lines = transcriptOf(prompt)
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /^user\b[^:]*:/i.test(line))
    .map((line) => line.replace(/^user\b[^:]*:\s*/i, '').replace(/&lt;|&gt;|&amp;/g, ''))
    .filter((line) => line.length > 0 && !/memory_\w+/.test(line));
  const memories = lines.map((line) => {
    const category = /prefer|always|never|like/i.test(line) ? 'preferences' : 'cases';
    return {
      category,
      abstract: `The user said: ${line.slice(0, 300)}`,
      overview: `## What was said\n- ${line.slice(0, 500)}`,
      content: `In an earlier conversation the user told the agent: "${line}"`,
      entities: [],
    };
  });
  return JSON.stringify({ memories });
}

/** A memory's text in a dedup prompt's block, without the host's `[<time>]` prefixes and spacing. */
const sameness = (body: string) =>
  body
    .replace(/\[[^\]\n]*\d{1,2}:\d{2}[^\]\n]*\]/g, '')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * The dedup decision: SKIP when a stored memory says what the candidate says (the same statement
 * made again, whatever time the host stamped on it), else CREATE. So a repeated statement takes
 * the pipeline's SKIP path the way a real model would decide it.
 */
function dedupAnswer(prompt: string): string {
  const candidate = /<candidate\b[^>]*>([\s\S]*?)<\/candidate>/.exec(prompt)?.[1];
  const existing = [...prompt.matchAll(/<existing\b[^>]*>([\s\S]*?)<\/existing>/g)].map((match) => match[1]!);
  if (candidate !== undefined && existing.some((body) => sameness(body) === sameness(candidate))) {
    return JSON.stringify({ decision: 'SKIP', reason: 'An existing memory already says the same.' });
  }
  return JSON.stringify({ decision: 'CREATE', reason: 'Nothing alike.' });
}

const isInternalContext = (message: ChatMessage) => textOf(message).startsWith('<<<BEGIN_OPENCLAW_INTERNAL_CONTEXT');

function agentAnswer(messages: ChatMessage[], tools: string[]): Answer {
  // The host appends its own internal-context message after the user's; the request is the
  // newest user message that is not one.
  const requestAt = messages.findLastIndex((message) => message.role === 'user' && !isInternalContext(message));
  // A follow-up call of the host's own without tools (it asks for the final reply after a
  // tool ran): the answer already given stands.
  const answered = messages.findLast((message) => message.role === 'assistant' && textOf(message) !== '');
  if (tools.length === 0 && answered) return { text: textOf(answered) };
  // Once the tool has answered, reply with what it said. The host may append user-role
  // context after the result, so the newest message that is not the user's decides.
  const result = messages.findLast((message) => message.role !== 'user' && message.role !== 'system');
  if (result?.role === 'tool') return { text: `Tool result: ${textOf(result)}` };
  const prompt = textOf(messages[requestAt]);
  // "call memory_recall with query=…": the test asks for a tool by name, with one argument.
  const call = /call (memory_\w+) with (\w+)=(.+)$/m.exec(prompt);
  if (call) {
    const args = { [call[2]!]: call[3]!.trim() };
    if (tools.includes(call[1]!)) return { toolCall: { name: call[1]!, arguments: args } };
    // A host that lists the tool only behind its tool-search bridge is called through it.
    if (tools.includes('tool_call')) return { toolCall: { name: 'tool_call', arguments: { id: call[1]!, args } } };
  }
  return { text: 'Understood, I will keep that in mind.' };
}

/** Length of the vectors `/embeddings` returns. */
export const MOCK_EMBEDDING_DIMENSIONS = 64;

/**
 * A deterministic embedding: each word hashed to a signed position, the vector normalised. Texts
 * sharing words are similar, the same text is identical: enough for a vector store to rank by.
 */
export function mockEmbedding(text: string): number[] {
  const vector = new Array<number>(MOCK_EMBEDDING_DIMENSIONS).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    let hash = 2166136261;
    for (const char of word) hash = Math.imul(hash ^ char.codePointAt(0)!, 16777619);
    const index = (hash >>> 0) % MOCK_EMBEDDING_DIMENSIONS;
    vector[index]! += hash & 1 ? 1 : -1;
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((value) => value / norm);
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function completion(model: string, answer: Answer) {
  const message =
    'text' in answer
      ? { role: 'assistant', content: answer.text }
      : {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: answer.toolCall.name, arguments: JSON.stringify(answer.toolCall.arguments) },
            },
          ],
        };
  return {
    id: 'chatcmpl-mock',
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message, finish_reason: 'text' in answer ? 'stop' : 'tool_calls' }],
    usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
  };
}

// The agent streams: the same answer as server-sent chunks, then a usage chunk and [DONE].
function stream(res: ServerResponse, model: string, answer: Answer): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (delta: Record<string, unknown>, finish: string | null, usage?: Record<string, number>) =>
    `data: ${JSON.stringify({
      id: 'chatcmpl-mock',
      object: 'chat.completion.chunk',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: usage ? [] : [{ index: 0, delta, finish_reason: finish }],
      ...(usage ? { usage } : {}),
    })}\n\n`;
  if ('text' in answer) {
    res.write(chunk({ role: 'assistant', content: answer.text }, null));
    res.write(chunk({}, 'stop'));
  } else {
    const call = {
      index: 0,
      id: 'call_1',
      type: 'function',
      function: { name: answer.toolCall.name, arguments: JSON.stringify(answer.toolCall.arguments) },
    };
    res.write(chunk({ role: 'assistant', tool_calls: [call] }, null));
    res.write(chunk({}, 'tool_calls'));
  }
  res.write(chunk({}, null, { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 }));
  res.end('data: [DONE]\n\n');
}

async function readJson<T = ChatRequest>(req: IncomingMessage): Promise<T> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as T;
}

/** OpenAI's `POST /embeddings`: `input` a string or strings; float vectors back, in order. */
async function embeddings(req: IncomingMessage, res: ServerResponse, embedded: string[]): Promise<void> {
  const body = await readJson<{ input?: unknown; model?: string }>(req);
  const inputs = typeof body.input === 'string' ? [body.input] : body.input;
  if (!Array.isArray(inputs) || !inputs.every((input) => typeof input === 'string')) {
    send(res, 400, {
      error: { message: 'input must be a string or an array of strings', type: 'invalid_request_error' },
    });
    return;
  }
  embedded.push(...inputs);
  const tokens = inputs.reduce((sum, input) => sum + input.split(/\s+/).length, 0);
  send(res, 200, {
    object: 'list',
    data: inputs.map((input, index) => ({ object: 'embedding', index, embedding: mockEmbedding(input) })),
    model: body.model ?? 'mock-embed',
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  });
}

/** Start the mock model on 127.0.0.1 at a free port. */
export async function startMockModel(): Promise<MockModelServer> {
  const requests: RecordedChat[] = [];
  const embedded: string[] = [];
  const script = { visionSteps: [] as string[], visionCalls: 0 };
  const server = createServer((req, res) => {
    void (async () => {
      if (req.method === 'POST' && req.url?.endsWith('/embeddings')) {
        await embeddings(req, res, embedded);
        return;
      }
      if (req.method === 'GET' && req.url?.endsWith('/models')) {
        send(res, 200, { object: 'list', data: [{ id: 'mock-1', object: 'model', owned_by: 'memoir-test' }] });
        return;
      }
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        send(res, 404, { error: { message: `no route ${req.method} ${req.url}`, type: 'invalid_request_error' } });
        return;
      }
      const body = await readJson(req);
      const messages = body.messages ?? [];
      const system = messages
        .filter((message) => message.role === 'system' || message.role === 'developer')
        .map(textOf)
        .join('\n');
      const caller = callerOf(system);
      const tools = (body.tools ?? []).flatMap((tool) => (tool.function?.name ? [tool.function.name] : []));
      const lastUserText = textOf([...messages].reverse().find((message) => message.role === 'user'));
      requests.push({ caller, messages, lastUserText, tools });
      const model = body.model ?? 'mock-1';
      let answer: Answer;
      if (caller === 'extract') answer = { text: extractionAnswer(lastUserText) };
      else if (caller === 'dedup') answer = { text: dedupAnswer(lastUserText) };
      else if (caller === 'vision') answer = { text: script.visionSteps[script.visionCalls++] ?? 'NONE' };
      else if (caller === 'merge') {
        answer = { text: JSON.stringify({ abstract: 'Merged memory.', overview: '', content: 'Merged memory.' }) };
      } else answer = agentAnswer(messages, tools);
      if (body.stream) stream(res, model, answer);
      else send(res, 200, completion(model, answer));
    })().catch((error: unknown) => {
      send(res, 500, { error: { message: String(error), type: 'server_error' } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    embedded,
    get visionSteps() {
      return script.visionSteps;
    },
    set visionSteps(steps: string[]) {
      script.visionSteps = steps;
      script.visionCalls = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
