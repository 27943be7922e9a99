import { MemoirError, ProviderError } from '../../core/spec/errors.js';
import { sleep, startDeadline } from '../../core/utils/deadline.js';
import type { ParsedMemoriesAiOptions } from './memories-ai-options.js';

const COMPONENT = 'memories-ai';

/** One request to the API. */
export interface ApiRequest {
  /** HTTP method. */
  method: 'GET' | 'POST';
  /** Path under the base URL, e.g. `/search`. */
  path: string;
  /** Query parameters. */
  query?: Record<string, string | number | undefined>;
  /** JSON body, or a multipart form. */
  body?: unknown;
  /** What the call does, for messages. */
  operation: string;
  /** Deadline, ms. */
  timeoutMs: number;
  /** The caller's signal. */
  signal?: AbortSignal;
}

/** `Retry-After` (seconds or an HTTP date), else the envelope's `error.retry_after` (seconds), in ms. */
export function retryAfterMs(header: string | null, body: unknown, now = Date.now()): number | undefined {
  if (header) {
    const seconds = Number(header);
    if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
    const date = Date.parse(header);
    if (Number.isFinite(date)) return Math.max(0, date - now);
  }
  const hint = (body as { error?: { retry_after?: unknown } } | null)?.error?.retry_after;
  return typeof hint === 'number' && Number.isFinite(hint) ? Math.max(0, hint * 1000) : undefined;
}

function suggestionFor(status: number, host: string): string {
  if (status === 401 || status === 403)
    return `Check the key for ${host}: MEMORIES_AI_API_KEY must be a Video Datalake key (sk-mai-…), sent without "Bearer".`;
  if (status === 404) return `Check baseUrl (now ${host}): the Datalake API lives under /serve/datalake/v1.`;
  if (status === 413) return 'The file is larger than the service accepts: use shorter segments (segmentSeconds).';
  if (status === 429)
    return 'Rate limited: the API allows about one request per second; the call may be retried after the wait it names.';
  if (status >= 500) return `The service at ${host} failed: try again later.`;
  return `Unexpected status ${status} from ${host}.`;
}

/**
 * The HTTP side of the adapter: the raw key header, one request at a time spaced by
 * `minIntervalMs` (the API's per-account rate limit), a deadline on every call, and every
 * failure turned into a ProviderError that says whether a retry may help and when.
 */
export class MemoriesAiHttp {
  private gate: Promise<void> = Promise.resolve();
  private lastStart = 0;
  private readonly host: string;

  constructor(private readonly options: ParsedMemoriesAiOptions) {
    this.host = new URL(options.baseUrl).host;
  }

  /** Wait for the request slot: requests start at least `minIntervalMs` apart. */
  private async slot(signal: AbortSignal): Promise<void> {
    const previous = this.gate;
    let release!: () => void;
    this.gate = new Promise((resolve) => {
      release = resolve;
    });
    try {
      await previous;
      // Timers may fire a millisecond or so early: wait again until the interval has passed.
      for (let wait = this.lastStart + this.options.minIntervalMs - Date.now(); wait > 0; ) {
        await sleep(wait, signal);
        wait = this.lastStart + this.options.minIntervalMs - Date.now();
      }
      this.lastStart = Date.now();
    } finally {
      release();
    }
  }

  /** Send a request and parse the JSON answer; rejects with a ProviderError. */
  async call<T = unknown>(request: ApiRequest): Promise<T> {
    const what = `${request.operation} (${request.method} ${request.path}) at ${this.host}`;
    const deadline = startDeadline(request.timeoutMs, request.signal);
    try {
      await this.slot(deadline.signal);
      const url = new URL(`${this.options.baseUrl}${request.path}`);
      for (const [key, value] of Object.entries(request.query ?? {})) {
        if (value !== undefined) url.searchParams.set(key, String(value));
      }
      const headers: Record<string, string> = { Authorization: this.options.apiKey, Accept: 'application/json' };
      let body: string | FormData | undefined;
      if (request.body instanceof FormData) body = request.body;
      else if (request.body !== undefined) {
        headers['Content-Type'] = 'application/json';
        body = JSON.stringify(request.body);
      }
      const response = await fetch(url, { method: request.method, headers, body, signal: deadline.signal });
      const text = await response.text();
      let parsed: unknown;
      let malformed = false;
      try {
        parsed = text ? JSON.parse(text) : {};
      } catch {
        malformed = true;
      }
      if (!response.ok) {
        const wait = retryAfterMs(response.headers.get('retry-after'), parsed);
        const message = (parsed as { error?: { message?: unknown } } | undefined)?.error?.message;
        throw new ProviderError(
          `${what} failed with ${response.status}${typeof message === 'string' ? `: ${message}` : ''}`,
          {
            component: COMPONENT,
            status: response.status,
            retryable: response.status === 408 || response.status === 429 || response.status >= 500,
            ...(wait === undefined ? {} : { retryAfterMs: wait }),
            suggestion: suggestionFor(response.status, this.host),
          },
        );
      }
      if (malformed || typeof parsed !== 'object' || parsed === null) {
        throw new ProviderError(
          `${what} answered ${response.status} with a body that is not a JSON object: ${text.slice(0, 120)}`,
          {
            component: COMPONENT,
            status: response.status,
            retryable: true,
            suggestion: `Check that baseUrl (${this.options.baseUrl}) points at the Memories AI Datalake API.`,
          },
        );
      }
      return parsed as T;
    } catch (error) {
      if (MemoirError.isInstance(error)) throw error;
      const timedOut = deadline.cause === 'timeout';
      throw new ProviderError(
        timedOut ? `${what}: no answer within ${request.timeoutMs} ms` : `${what} failed: ${(error as Error).message}`,
        {
          component: COMPONENT,
          cause: error,
          retryable: deadline.cause !== 'parent',
          suggestion: timedOut
            ? 'Raise timeoutMs (uploadTimeoutMs for uploads), or check the network.'
            : `Check that ${this.host} is reachable.`,
        },
      );
    } finally {
      deadline.dispose();
    }
  }
}
