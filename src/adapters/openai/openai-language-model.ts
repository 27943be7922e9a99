import type { ChatCompletionContentPart, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { z } from 'zod';
import { ProviderError, ValidationError, type ValidationIssue } from '../../core/spec/errors.js';
import type { GenerateRequest, GenerateResult, ImagePart, LanguageModel } from '../../core/spec/language-model.js';
import { parseOptions } from '../../core/utils/parse-options.js';
import { parseInput } from '../../core/utils/validate.js';
import { callOpenAI } from './openai-call.js';
import { OPENAI_DEFAULT_BASE_URL } from './openai-client.js';
import { connectOpenAI } from './openai-connection.js';
import type { OpenAICallContext } from './openai-errors.js';
import { type OpenAIChatModelOptions, openAIChatModelOptionsSchema } from './openai-options.js';

const COMPONENT = 'openai-chat-model';

const OPTIONS_SUGGESTION =
  'See OpenAIChatModelOptions: e.g. { model: "gpt-4o-mini" } or { baseURL: "http://127.0.0.1:11434/v1", model: "llama3.1" }.';

const requestSchema = z.object({
  system: z.string().optional(),
  messages: z.array(
    z.object({
      role: z.enum(['user', 'assistant']),
      content: z.string(),
      images: z
        .array(
          z.object({
            data: z.union([z.instanceof(Uint8Array), z.string().min(1)]),
            mediaType: z.string().min(1).optional(),
          }),
        )
        .optional(),
    }),
  ),
  json: z.boolean().optional(),
  maxOutputTokens: z.number().int().min(1).optional(),
  temperature: z.number().min(0).max(2).optional(),
  signal: z
    .custom<AbortSignal>(
      (value) => typeof value === 'object' && value !== null && typeof (value as AbortSignal).aborted === 'boolean',
      'expected an AbortSignal',
    )
    .optional(),
});

function imageUrl(image: ImagePart): string {
  if (typeof image.data === 'string') return image.data;
  return `data:${image.mediaType};base64,${Buffer.from(image.data).toString('base64')}`;
}

// Checks zod can't say in a schema: bytes need a media type, and the chat API takes images
// from the user only.
function checkImages(request: GenerateRequest): void {
  const issues: ValidationIssue[] = [];
  request.messages.forEach((message, i) => {
    message.images?.forEach((image, j) => {
      if (message.role !== 'user') {
        issues.push({ field: `messages[${i}].images`, message: 'images are accepted on user messages only' });
      } else if (typeof image.data !== 'string' && !image.mediaType) {
        issues.push({
          field: `messages[${i}].images[${j}].mediaType`,
          message: 'expected a MIME type such as "image/png" for image bytes (got nothing)',
        });
      }
    });
  });
  if (issues.length > 0) {
    throw new ValidationError(issues, {
      component: COMPONENT,
      suggestion: 'Give image bytes a mediaType, or pass a URL or data URL as a string.',
    });
  }
}

function toMessages(request: GenerateRequest): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [];
  let system = request.system;
  // OpenAI refuses JSON mode unless the word "JSON" appears in the conversation.
  if (request.json && !/json/i.test([system ?? '', ...request.messages.map((m) => m.content)].join('\n'))) {
    system = `${system ? `${system}\n\n` : ''}Answer with a JSON object.`;
  }
  if (system) messages.push({ role: 'system', content: system });
  for (const message of request.messages) {
    if (message.role === 'assistant') {
      messages.push({ role: 'assistant', content: message.content });
    } else if (message.images && message.images.length > 0) {
      const parts: ChatCompletionContentPart[] = [];
      if (message.content) parts.push({ type: 'text', text: message.content });
      for (const image of message.images) parts.push({ type: 'image_url', image_url: { url: imageUrl(image) } });
      messages.push({ role: 'user', content: parts });
    } else {
      messages.push({ role: 'user', content: message.content });
    }
  }
  return messages;
}

interface ChatResponseSlice {
  choices?: { message?: { content?: string | null; refusal?: string | null }; finish_reason?: string | null }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
}

function tokens(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

function readResult(response: unknown, context: OpenAICallContext): GenerateResult {
  const { component, model, host } = context;
  const slice = (typeof response === 'object' ? response : null) as ChatResponseSlice | null;
  const choice = Array.isArray(slice?.choices) ? slice.choices[0] : undefined;
  if (!choice) {
    throw new ProviderError(`model "${model}" at ${host} returned no choices`, {
      component,
      retryable: false,
      suggestion: 'Check that baseURL points at an OpenAI-compatible API (its /chat/completions endpoint).',
    });
  }
  const content = choice.message?.content;
  const refusal = choice.message?.refusal;
  if (typeof content !== 'string' && typeof refusal === 'string' && refusal) {
    throw new ProviderError(`model "${model}" at ${host} refused: ${refusal}`, { component, retryable: false });
  }
  return {
    text: typeof content === 'string' ? content : '',
    usage: { inputTokens: tokens(slice?.usage?.prompt_tokens), outputTokens: tokens(slice?.usage?.completion_tokens) },
    ...(typeof choice.finish_reason === 'string' ? { finishReason: choice.finish_reason } : {}),
  };
}

/**
 * Create a LanguageModel for OpenAI's chat completions API or any OpenAI-compatible server
 * (Ollama, LM Studio, vLLM, llama.cpp, gateways). Options are checked now; the `openai`
 * package loads on the first call.
 *
 * `json: true` asks for JSON mode (`response_format: { type: 'json_object' }`); images on user
 * messages become `image_url` parts, bytes as data URLs. Each call is bounded by `timeoutMs`,
 * body and retries included. An aborted `signal` rejects with the signal's reason; every
 * other failure is a ProviderError with `status` and `retryable`.
 *
 * @example
 * ```ts
 * import { createOpenAIChatModel } from 'memoir/openai';
 * const llm = createOpenAIChatModel({ model: 'gpt-4o-mini' }); // key from OPENAI_API_KEY
 * const local = createOpenAIChatModel({ baseURL: 'http://127.0.0.1:11434/v1', model: 'llama3.1' });
 * ```
 *
 * @throws ConfigError when an option is invalid or no API key is found for OpenAI's own API.
 * @group Adapters
 */
export function createOpenAIChatModel(options?: OpenAIChatModelOptions): LanguageModel {
  const parsed = parseOptions(openAIChatModelOptionsSchema, options, COMPONENT, OPTIONS_SUGGESTION);
  const { model } = parsed;
  const { connection, load, context } = connectOpenAI(parsed, COMPONENT, 'chat completion', model);
  // OpenAI deprecated `max_tokens` for `max_completion_tokens` (its reasoning models reject
  // the old name); compatible servers mostly know only `max_tokens`.
  const maxTokensField = connection.baseURL === OPENAI_DEFAULT_BASE_URL ? 'max_completion_tokens' : 'max_tokens';

  return {
    specificationVersion: 'v1',
    id: `openai:${model}@${connection.host}`,
    async generate(request: GenerateRequest): Promise<GenerateResult> {
      const signal = request?.signal;
      signal?.throwIfAborted();
      parseInput(requestSchema, request, COMPONENT, 'request');
      checkImages(request);

      const maxOutputTokens = request.maxOutputTokens ?? parsed.maxOutputTokens;
      const { sdk, client } = await load();
      const response: unknown = await callOpenAI(
        (attempt) =>
          client.chat.completions.create(
            {
              model,
              messages: toMessages(request),
              temperature: request.temperature ?? parsed.temperature,
              ...(request.json ? { response_format: { type: 'json_object' as const } } : {}),
              ...(maxOutputTokens === undefined ? {} : { [maxTokensField]: maxOutputTokens }),
            },
            attempt,
          ),
        signal,
        sdk,
        context,
      );
      return readResult(response, context);
    },
  };
}
