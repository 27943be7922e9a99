import { ProviderError } from '../spec/errors.js';
import type { GenerateRequest, LanguageModel } from '../spec/language-model.js';
import { type Deadline, startDeadline, untilAborted } from '../utils/deadline.js';

const DEFAULT_CLOSE_TIMEOUT_MS = 10_000;
const DEFAULT_PROVIDER_TIMEOUT_MS = 120_000;

/** The time bounds of an engine's provider calls (embedder and model). */
export interface ProviderBounds {
  /** How long `close()` lets provider calls run before {@link ProviderBounds.stop}, ms. */
  readonly closeTimeoutMs: number;
  /**
   * Run one provider call with a signal that aborts when the caller's signal does, after
   * `providerTimeoutMs`, or on {@link ProviderBounds.stop}. The returned promise settles then
   * even if the port ignores the signal: with the caller's reason, or a retryable ProviderError.
   */
  run<T>(
    what: string,
    component: string,
    callerSignal: AbortSignal | undefined,
    call: (signal: AbortSignal) => Promise<T>,
  ): Promise<T>;
  /** `model` with every `generate` run through {@link ProviderBounds.run}. */
  model(model: LanguageModel): LanguageModel;
  /** Abort the calls running now and refuse new ones (the client is closing). */
  stop(): void;
}

/** Bounds with the given settings; either may be absent (defaults 10 s to close, 120 s per call). */
export function createProviderBounds(settings: {
  closeTimeoutMs?: number;
  providerTimeoutMs?: number;
}): ProviderBounds {
  const closeTimeoutMs = settings.closeTimeoutMs ?? DEFAULT_CLOSE_TIMEOUT_MS;
  const providerTimeoutMs = settings.providerTimeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;
  // One deadline per running call, for stop() to abort: a thousand concurrent calls then add
  // no listeners to a shared signal.
  const running = new Set<Deadline>();
  let stopped = false;

  const stoppedError = (what: string, component: string) =>
    new ProviderError(
      `${what} was aborted: the memory client closed and closeTimeoutMs (${closeTimeoutMs} ms) passed`,
      {
        component,
        retryable: true,
        suggestion: 'Raise closeTimeoutMs to give provider calls longer to finish when the client closes.',
      },
    );

  const bounds: ProviderBounds = {
    closeTimeoutMs,
    async run(what, component, callerSignal, call) {
      if (stopped) throw stoppedError(what, component);
      const deadline = startDeadline(providerTimeoutMs, callerSignal);
      running.add(deadline);
      try {
        // The race settles even when the port ignores the signal; a sync throw becomes a rejection.
        return await untilAborted(
          Promise.resolve().then(() => call(deadline.signal)),
          deadline.signal,
        );
      } catch (error) {
        if (deadline.cause === 'parent') throw callerSignal?.reason;
        if (deadline.cause === 'abort') throw stoppedError(what, component);
        if (deadline.cause === 'timeout') {
          throw new ProviderError(`${what} gave no answer within providerTimeoutMs (${providerTimeoutMs} ms)`, {
            component,
            retryable: true,
            suggestion: 'Check the provider, or raise providerTimeoutMs if its calls legitimately take longer.',
          });
        }
        throw error;
      } finally {
        running.delete(deadline);
        deadline.dispose();
      }
    },
    model(model) {
      return {
        specificationVersion: 'v1',
        id: model.id,
        generate: (request: GenerateRequest) =>
          bounds.run(`language model ${model.id}`, 'languageModel', request?.signal, (signal) =>
            model.generate({ ...request, signal }),
          ),
      };
    },
    stop() {
      stopped = true;
      for (const deadline of running) deadline.abort(stoppedError('provider call', 'close'));
    },
  };
  return bounds;
}
