/**
 * The slice of the AI SDK's language-model types (`@ai-sdk/provider`, specification v3) that
 * the middleware reads, declared here instead of imported: `ai` is an optional peer, and a
 * public type naming it would fail every user's type check who has not installed it. Each type
 * is a structural superset of the real one, so the real values pass in and out unchanged;
 * tests/integrations/ai-sdk/ai-sdk-types.test-d.ts checks that against the installed `ai`.
 */

/**
 * One part of a prompt message: text, a file, reasoning, a tool call or a tool result. Only
 * the fields memoir reads are named; the rest pass through untouched.
 *
 * @group AI SDK
 */
export interface AiSdkPromptPart {
  /** `text`, `file`, `reasoning`, `tool-call`, `tool-result`, `tool-approval-response`, … */
  type: string;
  /** The text of a `text` or `reasoning` part. */
  text?: string;
  /** The file name of a `file` part, when it has one. */
  filename?: string;
  /** The IANA media type of a `file` part, e.g. `image/png`. */
  mediaType?: string;
  /** The id of a tool call, in a `tool-call` or `tool-result` part. */
  toolCallId?: string;
  /** The tool's name, in a `tool-call` or `tool-result` part. */
  toolName?: string;
  /** The arguments of a `tool-call` part. */
  input?: unknown;
  /** The output of a `tool-result` part (`{ type: 'text' | 'json' | …, value }`). */
  output?: unknown;
}

/**
 * One message of the prompt a language model receives (`LanguageModelV3Message`).
 *
 * @group AI SDK
 */
export type AiSdkPromptMessage =
  | {
      /** A system message. */
      role: 'system';
      /** Its text. */
      content: string;
    }
  | {
      /** Who spoke. */
      role: 'user' | 'assistant' | 'tool';
      /** What was said, as parts. */
      content: ReadonlyArray<AiSdkPromptPart>;
    };

/**
 * The options of one language-model call (`LanguageModelV3CallOptions`), as far as memoir reads them.
 *
 * @group AI SDK
 */
export interface AiSdkCallOptions {
  /** The messages, oldest first. */
  prompt: AiSdkPromptMessage[];
  /** Options per provider; memoir reads and removes its own, under `memoir`. */
  providerOptions?: Record<string, Record<string, unknown>> | undefined;
  /** Aborts the call; an aborted stream is retained as far as it got. */
  abortSignal?: AbortSignal | undefined;
  /** The HTTP headers the call sends (generateText's `headers`); a scope resolver may read a user id there. */
  headers?: Record<string, string | undefined> | undefined;
}

/**
 * One part of what a model returned (`LanguageModelV3Content`) or streamed (`LanguageModelV3StreamPart`).
 *
 * @group AI SDK
 */
export interface AiSdkResponsePart {
  /** `text`, `text-delta`, `tool-call`, `finish`, `error`, … */
  type: string;
  /** The text of a `text` part. */
  text?: string;
  /** The id of a streamed text block (`text-start` / `text-delta` / `text-end`). */
  id?: string;
  /** The new text of a `text-delta` part. */
  delta?: string;
  /** The id of a tool call. */
  toolCallId?: string;
  /** The tool's name. */
  toolName?: string;
  /** A tool call's arguments, as the model wrote them (JSON text). */
  input?: unknown;
  /** Why the model stopped, on a `finish` part: `{ unified: 'stop' | 'tool-calls' | … }`. */
  finishReason?: unknown;
}

/**
 * What a generate call returns (`LanguageModelV3GenerateResult`), as far as memoir reads it.
 *
 * @group AI SDK
 */
export interface AiSdkGenerateResult {
  /** The content the model produced. */
  content: ReadonlyArray<AiSdkResponsePart>;
  /** Why it stopped: `{ unified: 'stop' | 'tool-calls' | 'length' | … }`. */
  finishReason: unknown;
}

/**
 * What a stream call returns (`LanguageModelV3StreamResult`), as far as memoir reads it.
 *
 * @group AI SDK
 */
export interface AiSdkStreamResult {
  /** The parts as the model sends them. */
  stream: ReadableStream<AiSdkResponsePart>;
}

/**
 * A language-model middleware for the AI SDK's `wrapLanguageModel` (`LanguageModelV3Middleware`).
 *
 * @group AI SDK
 */
export interface MemoryMiddleware {
  /** The middleware specification it implements. */
  readonly specificationVersion: 'v3';
  /**
   * Before the call: recall for the last user message and add the block to the system prompt.
   *
   * @param options - The call's parameters.
   * @returns The parameters with the memory block.
   */
  transformParams<Params extends AiSdkCallOptions>(options: {
    /** `generate` or `stream`. */
    type: 'generate' | 'stream';
    /** The call's parameters. */
    params: Params;
  }): Promise<Params>;
  /**
   * Run the call, then retain the exchange in the background.
   *
   * @param options - The call and its parameters.
   * @returns What the model returned, unchanged.
   */
  wrapGenerate<Result extends AiSdkGenerateResult, Params extends AiSdkCallOptions>(options: {
    /** Runs the call. */
    doGenerate: () => PromiseLike<Result>;
    /** The call's parameters, as transformParams returned them. */
    params: Params;
  }): Promise<Result>;
  /**
   * Run the call and watch its stream; once it is read to the end or aborted, retain the
   * exchange in the background.
   *
   * @param options - The call and its parameters.
   * @returns The result, its stream passed through part by part.
   */
  wrapStream<Result extends AiSdkStreamResult, Params extends AiSdkCallOptions>(options: {
    /** Runs the call. */
    doStream: () => PromiseLike<Result>;
    /** The call's parameters, as transformParams returned them. */
    params: Params;
  }): Promise<Result>;
}
