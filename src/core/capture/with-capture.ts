import { z } from 'zod';
import { ConfigError } from '../spec/errors.js';
import { parseOptions } from '../utils/parse-options.js';
import type { Capture } from './capture.js';
import type { CaptureEvent } from './capture-options.js';

/**
 * Options of {@link withCapture}.
 *
 * @group Capture
 */
export interface WithCaptureOptions<Result> {
  /** The capture to record calls with (from `createCapture`). */
  capture: Capture;
  /** The tool's name, e.g. `mouse_click`. */
  tool: string;
  /** The memory's category. Default: `screen` when `screenText` yields text, else `action`. */
  type?: CaptureEvent['type'];
  /** Text read from the screen to store with a successful call, taken from its result. */
  screenText?: (result: Result) => string | undefined;
}

const optionsSchema = z
  .object({
    capture: z.custom<Capture>(
      (value) =>
        typeof value === 'object' &&
        value !== null &&
        typeof (value as Record<string, unknown>).tryCapture === 'function',
      { message: 'expected a Capture from createCapture()' },
    ),
    tool: z.string().trim().min(1, 'expected a non-empty tool name').max(256),
    type: z.enum(['action', 'screen', 'workflow']).optional(),
    screenText: z.custom<(result: unknown) => string | undefined>((value) => typeof value === 'function').optional(),
  })
  .strict();

function asParameters(params: unknown): Record<string, unknown> | undefined {
  if (params === undefined) return undefined;
  if (typeof params === 'object' && params !== null && !Array.isArray(params)) return params as Record<string, unknown>;
  return { input: params };
}

function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return typeof error === 'string' ? error : String(error);
}

/**
 * Wrap a tool handler so each call is captured with its parameters, result, success and
 * duration. The handler's return value (or promise) and any error it throws are passed
 * through unchanged; the capture runs after the handler settles and only enqueues work
 * (nothing is awaited), so the tool answers as fast as before. While the capture is
 * disabled the handler is called directly.
 *
 * @param handler - The tool's implementation, sync or async, taking one parameters argument.
 * @param options - The capture, the tool name and how to read screen text from a result.
 * @returns A function with the handler's signature.
 * @group Capture
 */
export function withCapture<Params, Return>(
  handler: (params: Params) => Return,
  options: WithCaptureOptions<Awaited<Return>>,
): (params: Params) => Return {
  if (typeof handler !== 'function') {
    throw new ConfigError('handler: expected a function', { component: 'withCapture', field: 'handler' });
  }
  const { capture, tool, type, screenText } = parseOptions(
    optionsSchema,
    options,
    'withCapture',
    'Pass { capture: memory.capturer, tool: "tool_name" }.',
  );

  function record(params: Params, started: number, success: boolean, result: unknown) {
    try {
      let text: string | undefined;
      if (success && screenText) {
        const value = screenText(result);
        if (typeof value === 'string') text = value;
      }
      const event: CaptureEvent = {
        tool,
        success,
        durationMs: Math.max(0, performance.now() - started),
        ...(type === undefined ? {} : { type }),
      };
      const parameters = asParameters(params);
      if (parameters !== undefined) event.parameters = parameters;
      if (result !== undefined) event.result = result;
      if (text !== undefined) event.screenText = text;
      capture.tryCapture(event);
    } catch {
      // Capturing must never change what the tool does; tryCapture already logs its failures.
    }
  }

  return function captured(this: unknown, params: Params): Return {
    if (!capture.enabled) return handler.call(this, params);
    const started = performance.now();
    let out: Return;
    try {
      out = handler.call(this, params);
    } catch (error) {
      record(params, started, false, describeError(error));
      throw error;
    }
    if (out instanceof Promise) {
      // A side chain: the caller gets the very same promise, settled at the same moment.
      out.then(
        (value) => record(params, started, true, value),
        (error) => record(params, started, false, describeError(error)),
      );
      return out;
    }
    if (out !== null && typeof out === 'object' && typeof (out as { then?: unknown }).then === 'function') {
      // Other thenables may run work on every then(); adopt it once and return the promise.
      const promise = Promise.resolve(out as unknown as PromiseLike<Awaited<Return>>);
      promise.then(
        (value) => record(params, started, true, value),
        (error) => record(params, started, false, describeError(error)),
      );
      return promise as Return;
    }
    record(params, started, true, out);
    return out;
  };
}
