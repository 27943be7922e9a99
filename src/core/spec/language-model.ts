/**
 * An image passed to a vision-capable model.
 *
 * @group Ports
 */
export interface ImagePart {
  /** Image bytes, or a URL / data URL the provider can fetch. */
  data: Uint8Array | string;
  /** MIME type, e.g. `image/png`. Required for bytes. */
  mediaType?: string;
}

/**
 * One message of a conversation sent to a model.
 *
 * @group Ports
 */
export interface ModelMessage {
  /** Who speaks. */
  role: 'user' | 'assistant';
  /** Text of the message. */
  content: string;
  /** Images attached to the message, for vision models. */
  images?: readonly ImagePart[];
}

/**
 * Arguments of {@link LanguageModel.generate}.
 *
 * @group Ports
 */
export interface GenerateRequest {
  /** System prompt. */
  system?: string;
  /** The conversation, oldest first. */
  messages: readonly ModelMessage[];
  /** Ask for a JSON object as the whole answer (provider JSON mode where available). */
  json?: boolean;
  /** Upper bound on output tokens. */
  maxOutputTokens?: number;
  /** Sampling temperature; memoir's pipelines use 0. */
  temperature?: number;
  /** Aborts the call. */
  signal?: AbortSignal;
}

/**
 * Token counts of one call.
 *
 * @group Ports
 */
export interface TokenUsage {
  /** Prompt tokens. */
  inputTokens: number;
  /** Completion tokens. */
  outputTokens: number;
}

/**
 * What {@link LanguageModel.generate} resolves to.
 *
 * @group Ports
 */
export interface GenerateResult {
  /** The model's answer. With `json: true`, a JSON text still to be parsed and checked by the caller. */
  text: string;
  /** Tokens used. */
  usage: TokenUsage;
  /** Why generation stopped, as the provider reported it (e.g. `stop`, `length`). */
  finishReason?: string;
}

/**
 * A chat model. memoir runs without one; with one, extraction, dedup and reflection get richer.
 *
 * @group Ports
 */
export interface LanguageModel {
  /** Version of this interface the model implements. */
  readonly specificationVersion: 'v1';
  /** Identifies provider and model, e.g. `openai:gpt-4o-mini`. */
  readonly id: string;
  /** Generate one answer. Rejects with a ProviderError on failure. */
  generate(request: GenerateRequest): Promise<GenerateResult>;
}
