import { z } from 'zod';
import { scopeSchema, timeInputSchema } from '../spec/memory.js';
import type { Clock, Logger } from '../spec/runtime.js';
import type { RedactionReplacer, RedactionRule } from './redaction.js';

const isFunction = (value: unknown) => typeof value === 'function';

const withMethod = <T>(what: string, method: string) =>
  z.custom<T>(
    (value) =>
      typeof value === 'object' && value !== null && typeof (value as Record<string, unknown>)[method] === 'function',
    { message: `expected ${what} with a ${method}() method` },
  );

function compiles(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

function matchesEmpty(pattern: unknown): boolean {
  try {
    if (typeof pattern === 'string') return new RegExp(pattern).test('');
    if (pattern instanceof RegExp) return new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, '')).test('');
  } catch {
    // An invalid pattern is reported by its own check.
  }
  return false;
}

// Typed as the public RedactionRule, so CaptureOptions.redact shows that documented type.
const redactionRuleSchema: z.ZodType<RedactionRule, RedactionRule> = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, 'expected a non-empty rule name')
      .max(64)
      .regex(/^[\w.-]+$/, 'expected letters, digits, "_", "-" or "."'),
    pattern: z.union([
      z.instanceof(RegExp, { message: 'expected a RegExp or a regular-expression string' }),
      z.string().min(1).refine(compiles, 'expected a valid regular expression'),
    ]),
    replacement: z.union([z.string(), z.custom<RedactionReplacer>(isFunction)]).optional(),
    keywords: z.array(z.string().min(1).max(200)).max(100).optional(),
  })
  .strict()
  .refine((rule) => !matchesEmpty(rule.pattern), {
    message: 'expected a pattern that cannot match the empty string',
    path: ['pattern'],
  });

/**
 * A line of the privacy audit trail, written when a capture is refused by an exclusion pattern.
 *
 * @group Capture
 */
export interface AuditLine {
  /** When it happened, ISO 8601. */
  at: string;
  /** The excluded session. */
  sessionId: string;
  /** The tool whose call was not stored. */
  tool: string;
  /** The exclusion pattern that matched. */
  pattern: string;
  /** What was done: nothing was stored. */
  action: 'excluded';
}

/** The zod schema of {@link CaptureOptions}, parsed once when `createCapture` runs; each option is documented here. */
export const captureOptionsSchema = z
  .object({
    /** Capture is opt-in: while false every `capture()` is a silent no-op. Default false. */
    enabled: z.boolean().default(false),
    /**
     * A call of the same tool with the same parameters (compared as canonical JSON) within
     * this many seconds of the last stored one in the same session is skipped. 0 stores
     * every call. Default 5.
     */
    minIntervalSeconds: z.number().min(0).max(86_400).default(5),
    /**
     * Glob patterns on the session id (`*` any run of characters, `?` one character,
     * case-insensitive), e.g. `banking_*`. A matching session stores nothing and writes an
     * audit line.
     */
    exclude: z.array(z.string().min(1, 'expected a non-empty glob pattern').max(256)).max(1000).default([]),
    /** Extra redaction rules, applied after the built-in ones. */
    redact: z.array(redactionRuleSchema).max(200).default([]),
    /**
     * Apply the built-in rules (API keys, bearer tokens, passwords, e-mail addresses, card
     * numbers) and replace the values of secret-looking parameter keys. Default true.
     */
    builtInRedaction: z.boolean().default(true),
    /** Session of events that don't name one. */
    sessionId: z.string().min(1).max(256).optional(),
    /** Scope of the stored memories. Default: the client's. */
    scope: scopeSchema.optional(),
    /** Time source for timestamps and the interval filter. Default: the wall clock. */
    clock: withMethod<Clock>('a Clock', 'now').optional(),
    /** Diagnostics: skips at `debug`, audit lines at `info`, failures at `warn`. Default: warnings to stderr. */
    logger: withMethod<Logger>('a Logger', 'log').optional(),
    /** Receives every privacy audit line (they are also logged at `info`). */
    onAudit: z.custom<(line: AuditLine) => void>(isFunction, { message: 'expected a function' }).optional(),
  })
  .strict();

/**
 * Options of `createCapture`. All optional; capture is off unless `enabled: true`. Derived
 * from its zod schema, where each option is documented once.
 *
 * @group Capture
 */
export type CaptureOptions = z.input<typeof captureOptionsSchema>;

/** Options with defaults filled. */
export type ResolvedCaptureOptions = z.output<typeof captureOptionsSchema>;

/** The kinds of captured event; each becomes the memory's category. */
export const CAPTURE_TYPES = ['action', 'screen', 'workflow'] as const;

/** The zod schema of {@link CaptureEvent}. */
export const captureEventSchema = z
  .object({
    tool: z.string().trim().min(1, 'expected a non-empty tool name').max(256),
    parameters: z.record(z.string(), z.unknown()).optional(),
    result: z.unknown().optional(),
    success: z.boolean().default(true),
    screenText: z.string().max(5_000_000).optional(),
    durationMs: z.number().nonnegative().max(1e12).optional(),
    at: timeInputSchema.optional(),
    sessionId: z.string().min(1).max(256).optional(),
    type: z.enum(CAPTURE_TYPES).optional(),
  })
  .strict();

/**
 * One tool call to capture. Only `tool` is required.
 *
 * @group Capture
 */
export interface CaptureEvent {
  /** The tool's name, e.g. `mouse_click`; also the memory's entity. */
  tool: string;
  /** The arguments it was called with; redacted before storing. */
  parameters?: Record<string, unknown>;
  /** What it returned (or the error, on failure); redacted and truncated to about 4,000 characters. */
  result?: unknown;
  /** Whether the call succeeded. Default true. */
  success?: boolean;
  /** Text read from the screen (OCR, an accessibility or ARIA tree); redacted and truncated. */
  screenText?: string;
  /** How long the call took, in milliseconds. */
  durationMs?: number;
  /** When it happened. Default: now. */
  at?: Date | string | number;
  /** Its session. Default: the capture's `sessionId`. */
  sessionId?: string;
  /**
   * The memory's category: `screen` (an analysis of the screen), `action` (an automation
   * step) or `workflow` (a multi-step run). Default `screen` when `screenText` is given,
   * else `action`.
   */
  type?: (typeof CAPTURE_TYPES)[number];
}

/**
 * What `capture()` returns, synchronously.
 *
 * @group Capture
 */
export interface CaptureResult {
  /** True when a memory was queued for storage. */
  stored: boolean;
  /**
   * Why nothing was stored: capture is `disabled`; the session is `excluded` by a privacy
   * pattern; the same call was stored less than `minIntervalSeconds` ago (`interval`); the
   * event was `invalid` (only from `tryCapture`); or queueing it failed (`error`, logged).
   */
  reason?: 'disabled' | 'excluded' | 'interval' | 'invalid' | 'error';
}
