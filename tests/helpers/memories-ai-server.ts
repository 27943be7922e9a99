import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the loopback server received, parsed. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  /** Parsed JSON body, or the multipart fields (`json` parsed, `file` as bytes with its name and type). */
  body: unknown;
  at: number;
}

/** A scripted answer that replaces the normal one. */
export interface ScriptedAnswer {
  status: number;
  headers?: Record<string, string>;
  /** Sent as is (so a test can send malformed JSON). */
  body: string;
  /** Hold the answer this long first, ms. */
  delayMs?: number;
}

interface StoredVideo {
  id: string;
  bytes: Buffer;
  json: Record<string, unknown>;
  polls: number;
}

/**
 * A loopback HTTP server that speaks the Memories AI Datalake wire format (paths, raw key
 * header, multipart upload with `json` and `file` parts, operations, search, summary,
 * caption, clip links), keeps uploads in memory, and answers with scripted failures when
 * told to. Clip links point back at it, so ffmpeg can read the uploaded bytes over HTTP.
 */
export class MemoriesAiServer {
  readonly requests: RecordedRequest[] = [];
  readonly videos = new Map<string, StoredVideo>();
  /** Answers to use instead of the normal ones, per `METHOD /path-prefix`, consumed in order. */
  readonly script = new Map<string, ScriptedAnswer[]>();
  /** Delay of the answer to an upload that was stored (a client may give up before it comes), ms. */
  uploadAnswerDelayMs = 0;
  /** Status polls a video answers `processing` to before `ready`. */
  pollsUntilReady = 1;
  /** What `/search` answers; default: every stored video, whole. */
  searchResults:
    | Array<{ video_id: string; score: number; start: number; end: number; snippet?: string; captured_at?: string }>
    | undefined;
  private server: Server | undefined;
  private byKey = new Map<string, string>();
  private next = 1;

  constructor(readonly apiKey = 'sk-mai-test-key') {}

  /** `http://127.0.0.1:<port>/serve/datalake/v1`. */
  get baseUrl(): string {
    return `${this.origin}/serve/datalake/v1`;
  }

  get origin(): string {
    const address = this.server?.address() as AddressInfo;
    return `http://127.0.0.1:${address.port}`;
  }

  /** Queue scripted answers for requests starting with `key` (`POST /videos`). */
  fail(key: string, ...answers: ScriptedAnswer[]): void {
    this.script.set(key, [...(this.script.get(key) ?? []), ...answers]);
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((resolve) => this.server?.close(resolve));
  }

  private async readBody(req: IncomingMessage): Promise<unknown> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const type = req.headers['content-type'] ?? '';
    if (type.startsWith('multipart/form-data')) {
      // undici's Request parses multipart bodies: the test checks fields, not a parser of its own.
      const form = await new Request('http://x/', {
        method: 'POST',
        headers: { 'content-type': type },
        body: raw,
      }).formData();
      const fields: Record<string, unknown> = {};
      for (const [name, value] of form.entries()) {
        fields[name] =
          typeof value === 'string'
            ? name === 'json'
              ? JSON.parse(value)
              : value
            : { name: value.name, type: value.type, bytes: Buffer.from(await value.arrayBuffer()) };
      }
      return fields;
    }
    return raw.length > 0 && type.includes('json') ? JSON.parse(raw.toString()) : undefined;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname.replace(/^\/serve\/datalake\/v1/, '');
    const body = await this.readBody(req).catch(() => undefined);
    const send = (status: number, value: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(typeof value === 'string' ? value : JSON.stringify(value));
    };
    if (url.pathname.startsWith('/media/')) {
      const video = this.videos.get(decodeURIComponent(url.pathname.slice('/media/'.length)));
      if (!video) return send(404, { error: { message: 'no such video' } });
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(video.bytes.length) });
      res.end(video.bytes);
      return;
    }
    this.requests.push({
      method: req.method ?? '',
      path,
      query: url.searchParams,
      headers: req.headers,
      body,
      at: Date.now(),
    });
    const key = [...this.script.keys()].find((prefix) => `${req.method} ${path}`.startsWith(prefix));
    const scripted = key ? this.script.get(key)?.shift() : undefined;
    if (scripted) {
      if (scripted.delayMs) await new Promise((resolve) => setTimeout(resolve, scripted.delayMs));
      if (!res.destroyed) {
        res.writeHead(scripted.status, { 'content-type': 'application/json', ...scripted.headers });
        res.end(scripted.body);
      }
      return;
    }
    if (req.headers.authorization !== this.apiKey) {
      return send(401, { error: { code: 'unauthenticated', message: 'invalid API key' } });
    }
    this.route(req.method ?? 'GET', path, url.searchParams, body, send);
  }

  private route(
    method: string,
    path: string,
    query: URLSearchParams,
    body: unknown,
    send: (status: number, value: unknown, headers?: Record<string, string>) => void,
  ): unknown {
    const video = /^\/videos\/([^/]+)(\/[a-z]+)?$/.exec(path);
    if (method === 'GET' && path === '/collections')
      return send(200, { collections: [{ id: 'col_other', name: 'other' }] });
    if (method === 'POST' && path === '/collections') return send(200, { id: 'col_memoir' });
    if (method === 'POST' && path === '/videos') {
      const fields = body as { json?: Record<string, unknown>; file?: { bytes: Buffer } };
      if (!fields?.json || !fields.file) return send(400, { error: { message: 'expected json and file parts' } });
      const idempotency = fields.json.idempotency_key;
      if (typeof idempotency === 'string' && this.byKey.has(idempotency)) {
        const id = this.byKey.get(idempotency)!;
        return send(202, { video_id: id, operation: `op_${id}`, status: 'processing' });
      }
      const id = `vid_${this.next++}`;
      this.videos.set(id, { id, bytes: fields.file.bytes, json: fields.json, polls: 0 });
      if (typeof idempotency === 'string') this.byKey.set(idempotency, id);
      const answer = () => send(202, { video_id: id, operation: `op_${id}`, status: 'processing' });
      if (this.uploadAnswerDelayMs > 0) return setTimeout(answer, this.uploadAnswerDelayMs);
      return answer();
    }
    if (method === 'POST' && path === '/search') {
      const results =
        this.searchResults ??
        [...this.videos.values()].map((entry) => ({
          video_id: entry.id,
          score: 0.5,
          start: 0,
          end: 2,
          snippet: 'a screen',
          // When the upload said when it was recorded, search says so too (as the Datalake does).
          ...(typeof entry.json.captured_at === 'string' ? { captured_at: entry.json.captured_at } : {}),
        }));
      return send(200, {
        results: results.slice(0, Number((body as { top_k?: number })?.top_k ?? 10)),
        next_cursor: null,
      });
    }
    if (video && method === 'GET') {
      const stored = this.videos.get(decodeURIComponent(video[1]!));
      if (!stored) return send(404, { error: { message: 'no such video' } });
      if (!video[2]) {
        stored.polls++;
        const ready = stored.polls > this.pollsUntilReady;
        return send(200, {
          video_id: stored.id,
          status: ready ? 'ready' : 'processing',
          progress: { percent: ready ? 100 : 40 },
        });
      }
      if (video[2] === '/summary')
        return send(200, {
          summary: `A screen recording (${query.get('start') ?? 0}–${query.get('end') ?? 'end'} s).`,
        });
      if (video[2] === '/caption')
        return send(200, { segments: [{ start: 0, end: 1.5, text: 'A terminal prints the time.' }] });
      if (video[2] === '/clip') return send(200, { url: `${this.origin}/media/${stored.id}` });
    }
    send(404, { error: { message: `no route ${method} ${path}` } });
  }
}
