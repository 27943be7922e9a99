import { ConfigError, ProviderError } from '../core/spec/errors.js';
import type { GenerateRequest, GenerateResult, LanguageModel, TokenUsage } from '../core/spec/language-model.js';

const COMPONENT = 'scripted-language-model';

/**
 * One scripted answer: the text itself, a partial result (missing fields get defaults),
 * or an Error, which the call rejects with.
 *
 * @group Testing
 */
export type ScriptedResponse = string | ScriptedResult | Error;

/**
 * A partial {@link GenerateResult}; `text` defaults to `''`, usage to rough word counts, `finishReason` to `stop`.
 *
 * @group Testing
 */
export type ScriptedResult = Partial<Omit<GenerateResult, 'usage'>> & {
  /** Token counts to report; missing counts are estimated from word counts. */
  usage?: Partial<TokenUsage>;
};

/**
 * Answers computed from the request. `callIndex` counts calls from 0. Throwing (or
 * returning an Error) makes the call reject.
 *
 * @group Testing
 */
export type ScriptFunction = (
  request: GenerateRequest,
  callIndex: number,
) => ScriptedResponse | Promise<ScriptedResponse>;

/**
 * What {@link createScriptedLanguageModel} accepts: a queue of answers, one per call, or a function.
 *
 * @group Testing
 */
export type LanguageModelScript = readonly ScriptedResponse[] | ScriptFunction;

/**
 * A {@link LanguageModel} that answers from a script and records what it was asked.
 *
 * @group Testing
 */
export interface ScriptedLanguageModel extends LanguageModel {
  /** Every request received, oldest first, including ones that were answered with an error. */
  readonly calls: GenerateRequest[];
  /** Scripted answers not yet used; `Infinity` for a function script. */
  remaining(): number;
}

const countWords = (text: string | undefined): number => (text ? text.split(/\s+/).filter(Boolean).length : 0);

function preview(request: GenerateRequest): string {
  const last = request.messages.at(-1)?.content ?? request.system ?? '';
  const oneLine = last.replace(/\s+/g, ' ').trim();
  return oneLine.length > 80 ? `${oneLine.slice(0, 77)}...` : oneLine;
}

function toResult(response: ScriptedResponse, request: GenerateRequest, callNumber: number): GenerateResult {
  if (response instanceof Error) throw response;
  const partial: unknown = typeof response === 'string' ? { text: response } : response;
  if (typeof partial !== 'object' || partial === null) {
    throw new ProviderError(`the script's answer to call ${callNumber} is ${typeof partial}`, {
      component: COMPONENT,
      suggestion: 'Answer with a string, a partial GenerateResult ({ text, usage?, finishReason? }) or an Error.',
    });
  }
  const { text = '', usage, finishReason = 'stop' } = partial as ScriptedResult;
  const inputTokens =
    countWords(request.system) + request.messages.reduce((sum, message) => sum + countWords(message.content), 0);
  return {
    text,
    usage: { inputTokens: usage?.inputTokens ?? inputTokens, outputTokens: usage?.outputTokens ?? countWords(text) },
    finishReason,
  };
}

/**
 * A language model for tests. Give it a queue of answers, used one per call in order, or
 * a function that computes each answer from the request.
 *
 * Every request is recorded in `calls`. A call made after the queue is used up rejects with
 * a ProviderError saying so. A call whose `signal` is already aborted rejects with the
 * signal's reason and is neither recorded nor answered.
 *
 * @example
 * ```ts
 * import { createMemory } from 'memoir';
 * import { createScriptedLanguageModel, createTestStore } from 'memoir/testing';
 *
 * const model = createScriptedLanguageModel(['{"facts":[]}', new Error('rate limited')]);
 * const echo = createScriptedLanguageModel((request) => request.messages.at(-1)?.content ?? '');
 * const memory = createMemory({ store: createTestStore(), languageModel: model });
 * // … exercise your code, then check what the model was asked:
 * console.log(model.calls.length, model.remaining());
 * ```
 *
 * @throws ConfigError when `script` is neither an array nor a function, or holds something
 * other than strings, objects and Errors.
 * @group Testing
 */
export function createScriptedLanguageModel(script: LanguageModelScript): ScriptedLanguageModel {
  const isFunction = typeof script === 'function';
  if (!isFunction && !Array.isArray(script)) {
    throw new ConfigError(`script must be an array of responses or a function (got ${typeof script})`, {
      component: COMPONENT,
      field: 'script',
      suggestion: "Pass e.g. ['first answer', { text: 'second answer' }] or (request, callIndex) => 'answer'.",
    });
  }
  const queue: ScriptedResponse[] = isFunction ? [] : [...(script as readonly ScriptedResponse[])];
  queue.forEach((response, index) => {
    if (typeof response !== 'string' && (typeof response !== 'object' || response === null)) {
      throw new ConfigError(`script[${index}] must be a string, a partial GenerateResult or an Error`, {
        component: COMPONENT,
        field: `script[${index}]`,
        suggestion:
          "Use e.g. 'answer', { text: 'answer', usage: { inputTokens: 10, outputTokens: 2 } } or new Error().",
      });
    }
  });
  const scripted = queue.length;
  let used = 0;
  const calls: GenerateRequest[] = [];

  return {
    specificationVersion: 'v1',
    id: 'scripted',
    calls,
    remaining: () => (isFunction ? Number.POSITIVE_INFINITY : scripted - used),
    async generate(request: GenerateRequest): Promise<GenerateResult> {
      request.signal?.throwIfAborted();
      const callIndex = calls.length;
      calls.push(request);
      if (isFunction) return toResult(await (script as ScriptFunction)(request, callIndex), request, callIndex + 1);
      if (used >= scripted) {
        throw new ProviderError(
          `${scripted} response(s) were scripted and call ${callIndex + 1} had no response (last message: "${preview(request)}")`,
          {
            component: COMPONENT,
            suggestion: `Add more responses to the array passed to createScriptedLanguageModel (it needs at least ${callIndex + 1}), or pass a function.`,
          },
        );
      }
      const response = queue[used]!;
      used++;
      return toResult(response, request, callIndex + 1);
    },
  };
}
