import type * as OpenAISdkModule from 'openai';
import type { OpenAI } from 'openai';
import { ConfigError, ProviderError } from '../../core/spec/errors.js';
import { processEnvironment } from '../../core/utils/environment.js';
import type { OpenAIEnvironment } from './openai-options.js';

/** The `openai` package as `import('openai')` resolves it. */
export type OpenAISdk = typeof OpenAISdkModule;

/** Base URL of OpenAI's own API, the default. */
export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/**
 * Sent as the key to a custom `baseURL` given none: the SDK refuses to build a client
 * without one, and local servers (Ollama, LM Studio, vLLM, llama.cpp) ignore it.
 */
export const NO_KEY_PLACEHOLDER = 'not-needed';

let sdkLoading: Promise<OpenAISdk> | undefined;

/**
 * The `openai` package, imported on first use and memoised. A missing install is a
 * ProviderError (the port's error, so callers need to handle no other) naming the package.
 */
export function loadOpenAISdk(component: string): Promise<OpenAISdk> {
  sdkLoading ??= import('openai').catch((error: unknown) => {
    // Forget the failure, so that installing the package fixes a long-running process.
    sdkLoading = undefined;
    throw error;
  });
  return sdkLoading.catch((error: unknown) => {
    throw new ProviderError('cannot load the `openai` package', {
      component,
      cause: error,
      retryable: false,
      suggestion: 'Install it with `npm install openai` (v6 or later); memoir/openai talks to servers through it.',
    });
  });
}

/** Connection settings resolved from options and the environment when a factory runs. */
export interface OpenAIConnection {
  /** The key to send (a placeholder for a keyless local server). */
  readonly apiKey: string;
  /** Base URL, with its API prefix. */
  readonly baseURL: string;
  /** Host (and port) of `baseURL`, for ids and messages. */
  readonly host: string;
  /** Extra headers, references expanded. */
  readonly headers: Readonly<Record<string, string>> | undefined;
  /** `OPENAI_ORG_ID`, when set. */
  readonly organization: string | undefined;
  /** `OPENAI_PROJECT_ID`, when set. */
  readonly project: string | undefined;
  /** Deadline of one call, every attempt, body and wait included, milliseconds. */
  readonly timeoutMs: number;
  /** Retries after the first attempt. */
  readonly maxRetries: number;
  /** Longest wait before a retry, whatever `retry-after` asks, milliseconds. */
  readonly maxRetryAfterMs: number;
}

/** The parsed options {@link resolveConnection} reads. */
export interface ConnectionInput {
  apiKey?: string | undefined;
  baseURL?: string | undefined;
  headers?: Record<string, string> | undefined;
  env?: OpenAIEnvironment | undefined;
  timeoutMs: number;
  maxRetries: number;
  maxRetryAfterMs: number;
}

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/** Replace `${NAME}` references with environment variables; an unset one is a ConfigError naming both. */
function expand(value: string, field: string, env: OpenAIEnvironment, component: string): string {
  return value.replace(REFERENCE, (_match, name: string) => {
    const resolved = nonEmpty(env[name]);
    if (resolved === undefined) {
      throw new ConfigError(`option ${field} refers to the environment variable ${name}, which is not set`, {
        component,
        field,
        suggestion: `Set ${name} (e.g. \`export ${name}=...\`) or pass ${field} directly.`,
      });
    }
    return resolved;
  });
}

/**
 * Resolve the key, base URL and headers once, at factory time, so that a missing key or an
 * unset variable fails when the app starts rather than at the first remembered message.
 */
export function resolveConnection(input: ConnectionInput, component: string): OpenAIConnection {
  const env = input.env ?? processEnvironment();

  let baseURL = input.baseURL;
  if (baseURL === undefined) {
    const fromEnv = nonEmpty(env.OPENAI_BASE_URL);
    if (fromEnv !== undefined && !URL.canParse(fromEnv)) {
      throw new ConfigError(`OPENAI_BASE_URL is not a URL: ${JSON.stringify(fromEnv)}`, {
        component,
        field: 'baseURL',
        suggestion: 'Set OPENAI_BASE_URL to a URL such as http://127.0.0.1:11434/v1, or unset it.',
      });
    }
    baseURL = fromEnv;
  }
  const customServer = baseURL !== undefined;
  baseURL ??= OPENAI_DEFAULT_BASE_URL;

  let apiKey = input.apiKey === undefined ? undefined : expand(input.apiKey, 'apiKey', env, component);
  apiKey ??= nonEmpty(env.OPENAI_API_KEY);
  if (apiKey === undefined) {
    // A custom server gets a placeholder: a local one needs no key, and a remote one that
    // does will answer 401, which becomes a ProviderError with the same hint as below.
    if (!customServer) {
      throw new ConfigError('no API key: pass the `apiKey` option or set the OPENAI_API_KEY environment variable', {
        component,
        field: 'apiKey',
        suggestion:
          // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${NAME} reference is the advice.
          'Set OPENAI_API_KEY (e.g. `export OPENAI_API_KEY=sk-...`), pass { apiKey: "${MY_KEY_VARIABLE}" }, ' +
          'or point baseURL at a local server that needs no key, e.g. http://127.0.0.1:11434/v1 for Ollama.',
      });
    }
    apiKey = NO_KEY_PLACEHOLDER;
  }

  let headers: Record<string, string> | undefined;
  if (input.headers) {
    headers = {};
    for (const [name, value] of Object.entries(input.headers)) {
      headers[name] = expand(value, `headers.${name}`, env, component);
    }
  }

  return {
    apiKey,
    baseURL,
    host: new URL(baseURL).host,
    headers,
    organization: nonEmpty(env.OPENAI_ORG_ID),
    project: nonEmpty(env.OPENAI_PROJECT_ID),
    timeoutMs: input.timeoutMs,
    maxRetries: input.maxRetries,
    maxRetryAfterMs: input.maxRetryAfterMs,
  };
}

/** The SDK and a client built from the connection, both loaded on first use. */
export interface LoadedClient {
  /** The `openai` module, for its error classes. */
  readonly sdk: OpenAISdk;
  /** A client configured with the connection's key, URL, timeout and headers; retries are callOpenAI's. */
  readonly client: OpenAI;
}

/** A memoised loader of the SDK and one client for `connection`. */
export function createClientLoader(connection: OpenAIConnection, component: string): () => Promise<LoadedClient> {
  let loaded: Promise<LoadedClient> | undefined;
  return () => {
    loaded ??= loadOpenAISdk(component).then((sdk) => {
      try {
        const client = new sdk.OpenAI({
          apiKey: connection.apiKey,
          baseURL: connection.baseURL,
          // Passed explicitly so that the SDK reads nothing from process.env that `env` decides.
          organization: connection.organization ?? null,
          project: connection.project ?? null,
          timeout: connection.timeoutMs,
          // callOpenAI retries: the SDK's backoff obeys any retry-after and ignores aborts while it sleeps.
          maxRetries: 0,
          defaultHeaders: connection.headers,
        });
        return { sdk, client };
      } catch (error) {
        throw new ProviderError(`cannot create the OpenAI client for ${connection.host}`, {
          component,
          cause: error,
          retryable: false,
          suggestion: 'Check the options passed to the factory.',
        });
      }
    });
    loaded.catch(() => {
      loaded = undefined;
    });
    return loaded;
  };
}
