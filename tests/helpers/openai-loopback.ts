import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// A loopback server on 127.0.0.1 speaking OpenAI's chat-completions wire format, for the doors
// that run in another process (the CLI, `memoir mcp`): the real adapter sends real HTTP to it.
// Only the model's answers are scripted. Every request is recorded, headers included.

/** One chat-completions request the server received. */
export interface ChatRequest {
  /** The request path, e.g. `/v1/chat/completions`. */
  path: string;
  /** Its headers (the Authorization header carries the key). */
  headers: IncomingHttpHeaders;
  /** The JSON body: `model`, `messages`, … */
  body: { model?: string; messages?: Array<{ role: string; content: unknown }>; [key: string]: unknown };
}

/** The running server. */
export interface OpenAILoopback {
  /** Base URL with its `/v1` prefix, e.g. `http://127.0.0.1:41234/v1`. */
  baseURL: string;
  /** Every request so far. */
  requests: ChatRequest[];
  /** Stop the server. */
  close(): Promise<void>;
}

/** The system prompt of a request, or ''. */
export function systemOf(request: ChatRequest): string {
  const system = request.body.messages?.find((message) => message.role === 'system');
  return typeof system?.content === 'string' ? system.content : '';
}

/** True for memoir's reflection prompt (a finished task → a procedure). */
export const isReflectionRequest = (request: ChatRequest): boolean =>
  systemOf(request).startsWith('You turn a finished agent task');

/**
 * Start the server. `answer` gives the assistant's text for each chat request (a JSON object is
 * sent as its JSON text); any other path is a 404.
 */
export async function startOpenAILoopback(answer: (request: ChatRequest) => string | object): Promise<OpenAILoopback> {
  const requests: ChatRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const request: ChatRequest = {
        path: req.url ?? '',
        headers: req.headers,
        body: text ? (JSON.parse(text) as ChatRequest['body']) : {},
      };
      requests.push(request);
      if (!request.path.endsWith('/chat/completions')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `no route ${request.path}`, type: 'invalid_request_error' } }));
        return;
      }
      const reply = answer(request);
      const content = typeof reply === 'string' ? reply : JSON.stringify(reply);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: `chatcmpl-${requests.length}`,
          object: 'chat.completion',
          created: 1_700_000_000,
          model: request.body.model,
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
