import { type MemoirError, ProviderError } from '../../core/spec/errors.js';
import { sleep, startDeadline, untilAborted } from '../../core/utils/deadline.js';
import type { OpenAISdk } from './openai-client.js';
import { type OpenAICallContext, toProviderError } from './openai-errors.js';

/** What one attempt sends along with its request: the deadline's signal and the retry count. */
export interface AttemptOptions {
  /** Aborts the attempt when the caller aborts or the call's deadline passes (body included). */
  signal: AbortSignal;
  /** The retry count header the SDK would send, had it made the retry. */
  headers: Record<string, string>;
}

// The SDK's own backoff when the server names no wait: 0.5 s doubling to 8 s, up to 25 % less.
function defaultBackoffMs(retry: number): number {
  return Math.min(500 * 2 ** retry, 8000) * (1 - Math.random() * 0.25);
}

/** The wait a failed response asks for (`retry-after-ms`, then `retry-after` in seconds or as a date), if any. */
export function requestedWaitMs(error: unknown, now = Date.now()): number | undefined {
  const headers = (error as { headers?: unknown } | null)?.headers;
  if (!(headers instanceof Headers)) return undefined;
  const ms = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms)) return Math.max(0, ms);
  const after = headers.get('retry-after');
  if (!after) return undefined;
  const seconds = Number.parseFloat(after);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(after);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}

function timeoutError(sdk: OpenAISdk, context: OpenAICallContext, cause: unknown): ProviderError {
  const { component, operation, model, host, timeoutMs } = context;
  return new ProviderError(
    `${operation} with model "${model}" at ${host} failed: no complete response within ${timeoutMs} ms`,
    {
      component,
      cause: cause instanceof sdk.APIError ? cause : undefined,
      retryable: true,
      suggestion:
        `Raise timeoutMs (now ${timeoutMs}; it bounds the whole call: headers, body, retries and their waits), ` +
        `or check that the server at ${host} is up and not overloaded.`,
    },
  );
}

// A server that asked for a longer wait than memoir grants is named in the final error, so the
// caller can schedule its own retry.
function withRequestedWait(failure: MemoirError, asked: number | undefined, context: OpenAICallContext) {
  if (!ProviderError.isInstance(failure) || asked === undefined || asked <= context.maxRetryAfterMs) return failure;
  return new ProviderError(failure.message, {
    component: failure.component,
    cause: failure.cause,
    retryable: failure.retryable,
    ...(failure.status === undefined ? {} : { status: failure.status }),
    suggestion:
      `The server asked to wait ${Math.ceil(asked / 1000)} s before retrying; memoir waits at most maxRetryAfterMs ` +
      `(${context.maxRetryAfterMs} ms) and within timeoutMs. ${failure.suggestion ?? ''}`.trim(),
  });
}

/**
 * Run one request with retries, settling as the adapter promises: with its result; with the
 * caller's abort reason as soon as the caller aborts; otherwise with a ProviderError.
 *
 * The SDK's own retries are off (its backoff sleep obeys `retry-after` without a bound and
 * does not wake on abort). Here the whole call — every attempt's headers and body, and the
 * waits between attempts — runs under one deadline of `timeoutMs`; a wait is at most
 * `maxRetryAfterMs`, and a wait that would outlast the deadline is not started.
 */
export async function callOpenAI<T>(
  run: (attempt: AttemptOptions) => Promise<T>,
  callerSignal: AbortSignal | undefined,
  sdk: OpenAISdk,
  context: OpenAICallContext,
): Promise<T> {
  callerSignal?.throwIfAborted();
  const deadline = startDeadline(context.timeoutMs, callerSignal);
  const settle = (error: unknown): unknown => {
    if (deadline.cause === 'parent') return callerSignal?.reason;
    if (deadline.cause === 'timeout') return timeoutError(sdk, context, error);
    return undefined;
  };
  try {
    for (let attempt = 0; ; attempt++) {
      let failure: MemoirError;
      let asked: number | undefined;
      try {
        const work = run({ signal: deadline.signal, headers: { 'X-Stainless-Retry-Count': String(attempt) } });
        // The SDK aborts the fetch on the signal, body included; the race settles even if a
        // stream ignored it.
        return await untilAborted(work, deadline.signal);
      } catch (error) {
        const ended = settle(error);
        if (ended !== undefined) throw ended;
        failure = toProviderError(error, sdk, context);
        asked = requestedWaitMs(error);
      }
      const retryable = ProviderError.isInstance(failure) && failure.retryable;
      if (!retryable || attempt >= context.maxRetries) throw withRequestedWait(failure, asked, context);
      const wait = Math.min(asked ?? defaultBackoffMs(attempt), context.maxRetryAfterMs);
      // Waiting past the deadline only to time out would hide the server's answer.
      if (wait >= deadline.remaining()) throw withRequestedWait(failure, asked, context);
      try {
        await sleep(wait, deadline.signal);
      } catch (error) {
        throw settle(error) ?? error;
      }
    }
  } finally {
    deadline.dispose();
  }
}
