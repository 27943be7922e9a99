import { createClientLoader, resolveConnection } from './openai-client.js';
import type { OpenAICallContext } from './openai-errors.js';

/** The connection, a lazy SDK client and the context every error names, for one factory call. */
export function connectOpenAI(
  options: Parameters<typeof resolveConnection>[0],
  component: string,
  operation: string,
  model: string,
) {
  const connection = resolveConnection(options, component);
  const load = createClientLoader(connection, component);
  const context: OpenAICallContext = {
    component,
    operation,
    model,
    host: connection.host,
    timeoutMs: connection.timeoutMs,
    maxRetries: connection.maxRetries,
    maxRetryAfterMs: connection.maxRetryAfterMs,
  };
  return { connection, load, context };
}
