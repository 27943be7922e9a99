/**
 * Automatic context capture: turn tool calls (screen analyses, automation actions,
 * workflows) into `experience` memories, with privacy exclusions, secret and PII
 * redaction and a filter for repeated calls. Opt-in: nothing is captured unless
 * `enabled: true`.
 *
 * @module
 */

/** Create a capture bound to a memory client. See {@link Capture}. */
export { type Capture, type CaptureClient, createCapture } from './capture.js';
/** Options, event and result types of capture, and the privacy audit line. */
export type { AuditLine, CaptureEvent, CaptureOptions, CaptureResult } from './capture-options.js';
/** Redaction of secrets and personal data in text and in nested values, and the built-in rules. */
export {
  builtInRedactionRules,
  type RedactionReplacer,
  type RedactionRule,
  type RedactValueOptions,
  redactText,
  redactValue,
} from './redaction.js';
/** Wrap a tool handler so every call is captured. */
export { type WithCaptureOptions, withCapture } from './with-capture.js';
