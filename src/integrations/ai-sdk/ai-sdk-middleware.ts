import { MemoirError, ProviderError } from '../../core/spec/errors.js';
import type { ConversationMessage } from '../../index.js';
import { type CallPlan, planCall, withoutOwnOptions } from './ai-sdk-call.js';
import {
  type ExchangeMessage,
  exchangeMessages,
  recallQuery,
  stoppedForTools,
  withMemoryBlock,
} from './ai-sdk-messages.js';
import { type MemoryCallInfo, type MemoryMiddlewareOptions, parseMiddlewareOptions } from './ai-sdk-options.js';
import { keepsProcedures, procedureSection, turnTask } from './ai-sdk-procedures.js';
import { watchStream } from './ai-sdk-stream.js';
import type { AiSdkCallOptions, AiSdkPromptMessage, AiSdkResponsePart, MemoryMiddleware } from './ai-sdk-types.js';

const COMPONENT = 'ai-sdk';

/** What transformParams worked out for a call, found again by wrapGenerate / wrapStream. */
interface CallState {
  readonly call: MemoryCallInfo;
  readonly plan: CallPlan;
  /** The prompt as the app sent it, without memoir's block. */
  readonly prompt: readonly AiSdkPromptMessage[];
  /** The procedures put into this call's system prompt: when the turn ends, a use of each is counted. */
  readonly procedures?: readonly string[];
}

function asMemoirError(error: unknown, what: string): MemoirError {
  if (MemoirError.isInstance(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new MemoirError('INTERNAL', `${what}: ${message}`, { component: COMPONENT, cause: error });
}

/** Resolve with `work`, or reject with a ProviderError once `ms` have passed. */
function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new ProviderError(`${what} took longer than ${ms} ms; the call went ahead without memories`, {
            component: COMPONENT,
            retryable: true,
            suggestion: 'Raise recallTimeoutMs, or look at the embedder and the store.',
          }),
        ),
      ms,
    );
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/**
 * The memoir middleware for the AI SDK's `wrapLanguageModel`. Before each call it recalls what
 * is remembered about the last user message, within a token budget, and adds it to the system
 * prompt as a block of untrusted data (`formatContext`). After the model answers — generate
 * finished, or the stream read to its end or aborted — it retains the exchange in the
 * background through the client's conversation pipeline (extraction runs when the client has
 * a language model; otherwise the turn is kept as an episode).
 *
 * A turn is retained once, when it ends: a step that stops for tool calls is part of the turn
 * the next call (the AI SDK's loop, or your next request with the tool results) completes.
 * Nothing in the background throws into your code: a failed or slow recall lets the call go
 * ahead without memories (`onError`), and retention failures are the client's `error` events,
 * with the exchange kept as an episode when extraction fails.
 *
 * Procedures (seed 003, on by default): a turn that ends after enough tool calls (the client's
 * `procedures.minToolCalls`, 3) is learned from in the background — its request, each tool
 * call with its result (an error result is never made a step), what the model said beside its
 * calls, its answer — and before each call the best matching procedures join the block as
 * "Relevant Procedures". `procedures: false` turns both off.
 *
 * Per call, `providerOptions: { memoir: { userId, agentId, namespace, sessionId, recall, capture } }`
 * narrows the scope, names the session, or turns recall or capture off; memoir removes that key
 * before the provider sees the call.
 *
 * @example
 * ```ts
 * import { generateText, wrapLanguageModel } from 'ai';
 * import { memoryMiddleware } from 'memoir/ai-sdk';
 *
 * const memory = createMemory();
 * const model = wrapLanguageModel({ model: openai('gpt-4.1-mini'), middleware: memoryMiddleware({ memory, requireScope: true }) });
 * const { text } = await generateText({
 *   model,
 *   prompt: 'Book my usual table for Friday.',
 *   providerOptions: { memoir: { userId: 'sam' } },
 * });
 * ```
 *
 * @param options - The memory client, and how recall and capture behave.
 * @returns A `LanguageModelV3Middleware`.
 * @throws ConfigError naming the option when an option is invalid.
 * @group AI SDK
 */
export function memoryMiddleware(options: MemoryMiddlewareOptions): MemoryMiddleware {
  const settings = parseMiddlewareOptions(options);
  const { memory } = settings;
  const states = new WeakMap<object, CallState>();
  // Procedures need files to learn into and find: a client without a home or directory has none.
  const procedures = keepsProcedures(memory) ? settings.procedures : { learn: false, inject: false };

  const report = (error: unknown, what: string) => {
    try {
      settings.onError(asMemoirError(error, what));
    } catch {
      // A reporter that throws must not turn a background failure into the caller's.
    }
  };

  async function memoryBlock(plan: CallPlan, prompt: readonly AiSdkPromptMessage[]): Promise<string | undefined> {
    if (!plan.recall) return undefined;
    const query = recallQuery(prompt);
    if (query === undefined) return undefined;
    try {
      const response = await withDeadline(
        memory.recall(query, {
          tokenBudget: settings.budget,
          ...(settings.k === undefined ? {} : { k: settings.k }),
          ...(settings.minScore === undefined ? {} : { minScore: settings.minScore }),
          ...(plan.scope === undefined ? {} : { scope: plan.scope }),
        }),
        settings.recallTimeoutMs,
        'recall',
      );
      if (response.results.length === 0 && !response.core?.text.trim()) return undefined;
      return memory.formatContext(response, settings.title === undefined ? {} : { title: settings.title });
    } catch (error) {
      report(error, 'recall failed; the call went ahead without memories');
      return undefined;
    }
  }

  /** The "Relevant Procedures" section for the request, or undefined (none matches, or it failed: reported). */
  async function proceduresBlock(
    plan: CallPlan,
    prompt: readonly AiSdkPromptMessage[],
  ): Promise<{ text: string; ids: string[] } | undefined> {
    if (!plan.recall || !procedures.inject) return undefined;
    const query = recallQuery(prompt);
    if (query === undefined) return undefined;
    try {
      return await withDeadline(
        procedureSection(memory, query, { scope: plan.scope, k: procedures.k }),
        settings.recallTimeoutMs,
        'finding procedures',
      );
    } catch (error) {
      report(error, 'finding procedures failed; the call went ahead without them');
      return undefined;
    }
  }

  /** A turn given procedures ended: count a use of each (`success_count` or `failure_count`, `last_used`). */
  function recordUse(state: CallState, success: boolean): void {
    for (const id of state.procedures ?? []) {
      memory.procedures
        .recordUse(id, { success })
        .catch((error: unknown) => report(error, `the use of procedure ${id} could not be recorded`));
    }
  }

  /** Hand a finished turn with enough tool calls to the procedure library, which reflects in the background. */
  function learn(state: CallState, response: ReadonlyArray<AiSdkResponsePart>): void {
    if (!procedures.learn || !state.plan.capture) return;
    try {
      const task = turnTask(state.prompt, response);
      if (!task || task.toolCalls.length < (procedures.minToolCalls ?? 1)) return;
      memory.procedures
        .learn(task, state.plan.scope === undefined ? {} : { scope: state.plan.scope })
        .catch((error: unknown) => report(error, 'the turn could not be learned from'));
    } catch (error) {
      report(error, 'the turn could not be learned from');
    }
  }

  function captured(messages: ExchangeMessage[], call: MemoryCallInfo): ConversationMessage[] | undefined {
    const kept: ConversationMessage[] = [];
    for (const message of messages) {
      if (!settings.captureRoles.has(message.role)) continue;
      if (settings.filter) {
        try {
          if (settings.filter({ role: message.role, content: message.content }, call) === false) continue;
        } catch (error) {
          report(error, 'the capture filter threw; the exchange was not retained');
          return undefined;
        }
      }
      kept.push({ role: message.role, content: message.content, ...(message.name ? { name: message.name } : {}) });
    }
    return kept;
  }

  function retain(state: CallState, response: ReadonlyArray<AiSdkResponsePart>, interrupted: boolean): void {
    if (!state.plan.capture) return;
    try {
      const messages = captured(exchangeMessages(state.prompt, response, interrupted), state.call);
      if (messages === undefined || messages.length === 0) return;
      // Queued on the client: flush() waits for it, close() drains it, failures are its events.
      memory.retainAsync({
        messages,
        ...(state.plan.scope === undefined ? {} : { scope: state.plan.scope }),
        ...(state.plan.sessionId === undefined ? {} : { sessionId: state.plan.sessionId }),
      });
    } catch (error) {
      report(error, 'the exchange could not be queued for retention');
    }
  }

  /** The state transformParams left for these parameters, or one made now (recall skipped). */
  async function stateOf(params: AiSdkCallOptions, type: 'generate' | 'stream'): Promise<CallState> {
    const known = states.get(params);
    if (known) return known;
    const call = { type, params };
    return { call, plan: await planCall(settings, call), prompt: params.prompt };
  }

  return {
    specificationVersion: 'v3',
    async transformParams({ type, params }) {
      const call: MemoryCallInfo = { type, params };
      const plan = await planCall(settings, call);
      const [memories, found] = await Promise.all([
        memoryBlock(plan, params.prompt),
        proceduresBlock(plan, params.prompt),
      ]);
      const present = [memories, found?.text].filter((each) => each !== undefined);
      const block = present.length === 0 ? undefined : present.join('\n\n');
      const own = withoutOwnOptions(params);
      const transformed = block === undefined ? { ...own } : { ...own, prompt: withMemoryBlock(params.prompt, block) };
      states.set(transformed, { call, plan, prompt: params.prompt, ...(found ? { procedures: found.ids } : {}) });
      return transformed;
    },
    async wrapGenerate({ doGenerate, params }) {
      const state = await stateOf(params, 'generate');
      const result = await doGenerate();
      if (!stoppedForTools(result.finishReason)) {
        retain(state, result.content, false);
        learn(state, result.content);
        recordUse(state, true);
      }
      return result;
    },
    async wrapStream({ doStream, params }) {
      const state = await stateOf(params, 'stream');
      const result = await doStream();
      const stream = watchStream(result.stream, params.abortSignal, (end, response) => {
        if (end.how === 'failed') return recordUse(state, false);
        if (end.how === 'finished' && stoppedForTools(end.finishReason)) return;
        retain(state, response.content, end.how === 'aborted');
        if (end.how === 'finished') {
          learn(state, response.content);
          recordUse(state, true);
        }
      });
      // The same parts, passed through unchanged: the stream's type is the model's own.
      return { ...result, stream: stream as typeof result.stream };
    },
  };
}
