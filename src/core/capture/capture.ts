import { createHash } from 'node:crypto';
import type { RetainApi } from '../retain/retain-api.js';
import { ConfigError, MemoirError } from '../spec/errors.js';
import type { JsonValue, MemoryInput } from '../spec/memory.js';
import { parseOptions } from '../utils/parse-options.js';
import { createConsoleLogger, systemClock } from '../utils/runtime-defaults.js';
import { stableJson } from '../utils/stable-json.js';
import { parseInput } from '../utils/validate.js';
import {
  type AuditLine,
  type CaptureEvent,
  type CaptureOptions,
  type CaptureResult,
  captureEventSchema,
  captureOptionsSchema,
} from './capture-options.js';
import { builtInRedactionRules, type RedactionRule, redactText, redactValue } from './redaction.js';

/** Characters of a result or of screen text kept in a captured memory. */
const MAX_PART_CHARS = 4000;
/** Characters of the parameters shown on the first line. */
const MAX_PARAMS_CHARS = 1000;
/** A result this short and on one line is shown after the arrow on the first line. */
const INLINE_RESULT_CHARS = 200;
/** Remembered (tool, parameters) signatures per session before old ones are pruned. */
const MAX_SIGNATURES = 10_000;
const PROMPT_KEYS = ['prompt', 'instruction', 'instructions', 'query', 'question', 'task'];

/**
 * The slice of a memory client capture needs.
 *
 * @group Capture
 */
export type CaptureClient = Pick<RetainApi, 'retainAsync'>;

/**
 * Records tool calls as experience memories. Create one with {@link createCapture}.
 *
 * @group Capture
 */
export interface Capture {
  /** Whether capture is on (`enabled` option). */
  readonly enabled: boolean;
  /**
   * Capture one tool call. Returns at once: the memory is queued with `retainAsync`, never
   * awaited, and a failure to queue it is logged, never thrown. A malformed event throws a
   * ValidationError naming the field — except while disabled, when every call is a no-op.
   */
  capture(event: CaptureEvent): CaptureResult;
  /** Like {@link Capture.capture}, but a malformed event is logged at `warn` and reported as `reason: 'invalid'`. */
  tryCapture(event: CaptureEvent): CaptureResult;
}

function globToRegExp(pattern: string): RegExp {
  let source = '';
  for (const char of pattern) {
    if (char === '*') source += '.*';
    else if (char === '?') source += '.';
    else source += char.replace(/[.+^${}()|[\]\\/-]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 'is');
}

function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}… [truncated, ${text.length - max} more characters]`;
}

function describe(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
}

/**
 * Create a capture that turns tool calls into `experience` memories (category `action`,
 * `screen` or `workflow`) on `client`, after privacy exclusions, redaction and the
 * repetition filter. Options are parsed once: a bad one throws a ConfigError naming it.
 *
 * @group Capture
 */
export function createCapture(client: CaptureClient, options?: CaptureOptions): Capture {
  const settings = parseOptions(
    captureOptionsSchema,
    options,
    'createCapture',
    'See the CaptureOptions reference for accepted values.',
  );
  if (typeof (client as Partial<CaptureClient> | undefined)?.retainAsync !== 'function') {
    throw new ConfigError('client: expected a memory client with a retainAsync() method', {
      component: 'createCapture',
      field: 'client',
      suggestion: 'Pass the object returned by createMemory().',
    });
  }
  const logger = settings.logger ?? createConsoleLogger();
  const clock = settings.clock ?? systemClock;
  const rules: readonly RedactionRule[] = [
    ...(settings.builtInRedaction ? builtInRedactionRules : []),
    ...settings.redact,
  ];
  const keyOptions = settings.builtInRedaction ? {} : { sensitiveKeys: false as const };
  const exclusions = settings.exclude.map((pattern) => ({ pattern, regex: globToRegExp(pattern) }));
  const intervalMs = settings.minIntervalSeconds * 1000;
  // session → signature of (tool, parameters) → time of the last stored call
  const lastStored = new Map<string, Map<string, number>>();

  function audit(line: AuditLine) {
    logger.log('info', `capture: privacy exclusion, nothing stored for ${line.tool} in session ${line.sessionId}`, {
      ...line,
    });
    if (!settings.onAudit) return;
    try {
      settings.onAudit(line);
    } catch (error) {
      logger.log('warn', 'capture: onAudit threw', { error: String(error) });
    }
  }

  function remember(session: string, signature: string, time: number) {
    let signatures = lastStored.get(session);
    if (!signatures) {
      signatures = new Map();
      lastStored.set(session, signatures);
    }
    signatures.delete(signature);
    signatures.set(signature, time);
    if (signatures.size > MAX_SIGNATURES) {
      // Oldest insertions first; drop those outside the interval, or the oldest half if none are.
      for (const [key, stamp] of signatures) {
        if (signatures.size <= MAX_SIGNATURES / 2) break;
        if (Math.abs(time - stamp) >= intervalMs || signatures.size > MAX_SIGNATURES) signatures.delete(key);
      }
    }
  }

  function captureParsed(event: ReturnType<typeof captureEventSchema.parse>): CaptureResult {
    const sessionId = event.sessionId ?? settings.sessionId;
    const time = event.at === undefined ? clock.now() : Date.parse(event.at);
    const at = new Date(time).toISOString();

    if (sessionId !== undefined) {
      const excluded = exclusions.find(({ regex }) => regex.test(sessionId));
      if (excluded) {
        audit({ at, sessionId, tool: event.tool, pattern: excluded.pattern, action: 'excluded' });
        return { stored: false, reason: 'excluded' };
      }
    }

    const session = sessionId ?? '';
    const signature = createHash('sha256')
      .update(event.tool)
      .update('\u0000')
      .update(stableJson(redactValue(event.parameters ?? {}, [], { sensitiveKeys: false })))
      .digest('base64url');
    const previous = lastStored.get(session)?.get(signature);
    if (intervalMs > 0 && previous !== undefined && Math.abs(time - previous) < intervalMs) {
      const elapsedMs = Math.abs(time - previous);
      logger.log(
        'debug',
        `capture: skipped ${event.tool}: same parameters ${(elapsedMs / 1000).toFixed(1)} s after the last stored call (minIntervalSeconds ${settings.minIntervalSeconds})`,
        {
          reason: 'interval',
          tool: event.tool,
          ...(sessionId === undefined ? {} : { sessionId }),
          elapsedMs,
          minIntervalSeconds: settings.minIntervalSeconds,
        },
      );
      return { stored: false, reason: 'interval' };
    }

    const type = event.type ?? (event.screenText !== undefined ? 'screen' : 'action');
    const parameters = (
      event.parameters === undefined ? undefined : redactValue(event.parameters, rules, keyOptions)
    ) as Record<string, JsonValue> | undefined;
    const paramsText = parameters && Object.keys(parameters).length > 0 ? JSON.stringify(parameters) : '';
    let head = `${event.tool}(${truncate(paramsText, MAX_PARAMS_CHARS)}) ${event.success ? 'succeeded' : 'failed'}`;
    if (event.durationMs !== undefined) head += ` in ${Math.round(event.durationMs)} ms`;
    const lines: string[] = [];
    const prompt = PROMPT_KEYS.map((key) => parameters?.[key]).find((value) => typeof value === 'string');
    if (typeof prompt === 'string' && prompt.trim()) lines.push(`Prompt: ${truncate(prompt, MAX_PART_CHARS)}`);
    if (event.result !== undefined) {
      const resultText = truncate(describe(redactValue(event.result, rules, keyOptions)), MAX_PART_CHARS);
      if (resultText.length <= INLINE_RESULT_CHARS && !resultText.includes('\n')) head += ` → ${resultText}`;
      else lines.push(`Result: ${resultText}`);
    }
    if (event.screenText?.trim()) {
      lines.push(`Screen text: ${truncate(redactText(event.screenText, rules), MAX_PART_CHARS)}`);
    }

    const metadata: Record<string, JsonValue> = { captured: true, type, tool: event.tool, success: event.success };
    if (parameters !== undefined) metadata.parameters = parameters;
    if (event.durationMs !== undefined) metadata.durationMs = event.durationMs;
    const input: MemoryInput = {
      kind: 'experience',
      category: type,
      content: [head, ...lines].join('\n'),
      abstract: truncate(head, 300),
      entities: [event.tool],
      occurredAt: at,
      metadata,
      ...(sessionId === undefined ? {} : { sessionId }),
      ...(settings.scope === undefined ? {} : { scope: settings.scope }),
    };

    try {
      client.retainAsync(input);
    } catch (error) {
      const message = MemoirError.isInstance(error) || error instanceof Error ? error.message : String(error);
      logger.log('warn', `capture: could not queue the memory of ${event.tool}: ${message}`, { tool: event.tool });
      return { stored: false, reason: 'error' };
    }
    remember(session, signature, time);
    return { stored: true };
  }

  function guarded(event: ReturnType<typeof captureEventSchema.parse>): CaptureResult {
    try {
      return captureParsed(event);
    } catch (error) {
      logger.log('warn', `capture: failed to capture ${event.tool}: ${String(error)}`, { tool: event.tool });
      return { stored: false, reason: 'error' };
    }
  }

  return {
    enabled: settings.enabled,
    capture(event) {
      if (!settings.enabled) return { stored: false, reason: 'disabled' };
      return guarded(parseInput(captureEventSchema, event, 'capture', 'event'));
    },
    tryCapture(event) {
      if (!settings.enabled) return { stored: false, reason: 'disabled' };
      let parsed: ReturnType<typeof captureEventSchema.parse>;
      try {
        parsed = parseInput(captureEventSchema, event, 'capture', 'event');
      } catch (error) {
        logger.log('warn', `capture: ignored an invalid event: ${(error as Error).message}`);
        return { stored: false, reason: 'invalid' };
      }
      return guarded(parsed);
    },
  };
}
