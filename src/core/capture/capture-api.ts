import type { MemoryEngine } from '../engine/memory-engine.js';
import type { RetainApi } from '../retain/retain-api.js';
import { type Capture, createCapture } from './capture.js';
import type { CaptureEvent, CaptureOptions, CaptureResult } from './capture-options.js';

/**
 * Recording the agent's tool calls as memories, without blocking it.
 *
 * @group Client
 */
export interface CaptureApi {
  /**
   * Record a tool interaction (tool, parameters, result, success, screen text) as an
   * `action` or `screen` memory without blocking: secrets and personal data are redacted,
   * repeats within `minIntervalSeconds` and excluded sessions are skipped (and logged),
   * and with `capture.enabled` false (the default) it does nothing. Wrap a handler with
   * `withCapture` to capture every call.
   */
  capture(event: CaptureEvent): CaptureResult;
  /** The client's capture pipeline (events land in its current session); pass it to `withCapture`. */
  readonly capturer: Capture;
}

/** The capture feature over an engine; captured calls are stored through `retain.retainAsync`. */
export function createCaptureApi(
  engine: MemoryEngine,
  retain: Pick<RetainApi, 'retainAsync'>,
  options: CaptureOptions | undefined,
): CaptureApi {
  // Built now so a bad capture option is a ConfigError from createMemory, not from the first call.
  const capturer = createCapture(retain, {
    ...options,
    clock: engine.clock,
    logger: engine.logger,
    ...(engine.scope ? { scope: engine.scope } : {}),
  });
  // Filtered captures are announced like other skips, so hosts can see what was left out and why.
  const reportSkip = (event: CaptureEvent, result: CaptureResult): CaptureResult => {
    if (!result.stored && (result.reason === 'interval' || result.reason === 'excluded')) {
      const tool = typeof event?.tool === 'string' ? event.tool : 'tool';
      const detail =
        result.reason === 'interval'
          ? `${tool} with the same parameters was captured less than minIntervalSeconds ago`
          : `${tool} ran in a session excluded from capture`;
      engine.emit('memory:skipped', { index: 0, reason: result.reason, detail });
    }
    return result;
  };
  // Events that name no session land in the client's current one, which resumeSession may change.
  const inSession = (event: CaptureEvent): CaptureEvent =>
    event !== null && typeof event === 'object' && event.sessionId === undefined && engine.session.current !== null
      ? { ...event, sessionId: engine.session.current }
      : event;
  const sessionCapturer: Capture = {
    get enabled() {
      return capturer.enabled;
    },
    capture(event) {
      engine.assertOpen('capture');
      return reportSkip(event, capturer.capture(inSession(event)));
    },
    tryCapture(event) {
      if (engine.closed) return { stored: false, reason: 'error' };
      return reportSkip(event, capturer.tryCapture(inSession(event)));
    },
  };
  return {
    capture: (event) => sessionCapturer.capture(event),
    capturer: sessionCapturer,
  };
}
