import { MemoirError, ProviderError } from '../../core/spec/errors.js';
import type { OpenAISdk } from './openai-client.js';

/** What a failed call was, for the error's message and suggestion. */
export interface OpenAICallContext {
  /** memoir component, e.g. `openai-embedder`. */
  readonly component: string;
  /** What was asked, e.g. `embeddings` or `chat completion`. */
  readonly operation: string;
  /** Model name. */
  readonly model: string;
  /** Host (and port) of the server. */
  readonly host: string;
  /** Deadline of the whole call (every attempt, body and wait included), milliseconds. */
  readonly timeoutMs: number;
  /** Retries made before giving up. */
  readonly maxRetries: number;
  /** Longest wait before a retry, whatever the server's `retry-after` asks, milliseconds. */
  readonly maxRetryAfterMs: number;
}

// Mirrors the SDK's own retry rule (client.ts `shouldRetry`): what it retries is what may
// succeed if the caller tries again later, and what callOpenAI retries.
function retryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

function suggestionFor(status: number, code: string | null | undefined, context: OpenAICallContext): string {
  const { host, model, maxRetries } = context;
  switch (status) {
    case 400:
    case 422:
      return `The server rejected the request: check that model "${model}" supports what was asked (JSON mode, images, dimensions, temperature).`;
    case 401:
      return `Check the API key for ${host}: set OPENAI_API_KEY or the apiKey option to a valid key.`;
    case 403:
      return `The API key may not use model "${model}": check the key's project, organisation and permissions.`;
    case 404:
      return `Check that model "${model}" is served at ${host} (for Ollama, \`ollama pull ${model}\`) and that baseURL includes the API prefix, usually /v1.`;
    case 429:
      return code === 'insufficient_quota'
        ? 'The account is out of quota: check billing and usage limits.'
        : `Rate limited (after up to ${maxRetries} retries): try again later, raise maxRetries, or send fewer or smaller requests.`;
    default:
      return status >= 500
        ? `The server at ${host} failed (after up to ${maxRetries} retries): try again later.`
        : `Unexpected status ${status} from ${host}.`;
  }
}

// fetch's own error says only "fetch failed"; the reason (e.g. "connect ECONNREFUSED
// 127.0.0.1:11434") is at the end of the cause chain.
function rootCause(error: Error): string | undefined {
  let message: string | undefined;
  let current: unknown = error.cause;
  for (let depth = 0; current instanceof Error && depth < 5; depth++) {
    if (current.message) message = current.message;
    current = current.cause;
  }
  return message;
}

/**
 * Turn whatever the `openai` SDK threw into a ProviderError with the HTTP status, whether a
 * later retry may succeed, and what to do. MemoirErrors pass through unchanged. `sdk` is the
 * loaded module: its classes tell timeouts from other connection failures.
 */
export function toProviderError(error: unknown, sdk: OpenAISdk, context: OpenAICallContext): MemoirError {
  if (MemoirError.isInstance(error)) return error;
  const { component, operation, model, host, timeoutMs } = context;
  const what = `${operation} with model "${model}" at ${host} failed`;

  // Order matters: both connection errors and the abort error are APIErrors without a status.
  if (error instanceof sdk.APIConnectionTimeoutError) {
    return new ProviderError(`${what}: no response within ${timeoutMs} ms`, {
      component,
      cause: error,
      retryable: true,
      suggestion: `Raise timeoutMs (now ${timeoutMs}), or check that the server at ${host} is up and not overloaded.`,
    });
  }
  if (error instanceof sdk.APIConnectionError) {
    const cause = rootCause(error);
    return new ProviderError(`${what}: ${error.message}${cause ? ` (${cause})` : ''}`, {
      component,
      cause: error,
      retryable: true,
      suggestion: `Check that the server at ${host} is running and that baseURL is right.`,
    });
  }
  if (error instanceof sdk.APIError && typeof error.status === 'number') {
    // Servers may say explicitly whether to retry; the SDK's rule obeys this header too.
    const hint = error.headers?.get('x-should-retry');
    const retryable =
      hint === 'true' || (hint !== 'false' && retryableStatus(error.status) && error.code !== 'insufficient_quota');
    return new ProviderError(`${what}: ${error.message}`, {
      component,
      cause: error,
      retryable,
      status: error.status,
      suggestion: suggestionFor(error.status, error.code, context),
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ProviderError(`${what}: ${message}`, { component, cause: error, retryable: false });
}
