/**
 * memoir's error hierarchy. Every error memoir throws on purpose is a {@link MemoirError};
 * subclasses say which part failed. Use the static `isInstance` checks rather than
 * `instanceof`: they also recognise errors thrown by a second copy of memoir loaded
 * in the same process (two versions in `node_modules`, ESM and CJS side by side).
 *
 * @module
 */

const ERROR_MARKER = Symbol.for('memoir.error');

/**
 * Machine-readable error codes. New codes may be added in minor versions.
 *
 * @group Errors
 */
export type MemoirErrorCode =
  | 'CONFIG_INVALID'
  | 'VALIDATION_FAILED'
  | 'STORE_FAILED'
  | 'PROVIDER_FAILED'
  | 'NOT_FOUND'
  | 'INTERNAL';

/**
 * What the caller must change, said once as data so that each door says it in its own terms:
 * the library names an option, the CLI a flag, the MCP server a tool argument or the flag its
 * operator starts it with. `suggestion` stays the library's sentence; a door renders `hint`
 * when it has one and falls back to `suggestion` otherwise.
 *
 * - `unscoped`: the call acts on every scope and needs a client created without `scope`.
 * - `workspace`: the call needs a Markdown workspace (`createWorkspace({ root })`).
 * - `confirm`: the call deletes or replaces data and needs `confirm: true`.
 * - `language-model`: the call needs a language model on the client.
 * - `video`: the call needs a video provider (screen recordings to search: `createMemory({ video })`).
 * - `option`: the option named by `field` (the library's camelCase name) must change.
 * - `renamed`: `field` is an old name of `to`; pass only `to`.
 *
 * @group Errors
 */
export type ErrorHint =
  | {
      /** What the call needs: a client without scope, a workspace, `confirm: true`, a language model, a video provider. */
      readonly code: 'unscoped' | 'workspace' | 'confirm' | 'language-model' | 'video';
    }
  | {
      /** An option must change. */
      readonly code: 'option';
      /** The option, by its library name (`asOf`, `options.k`). */
      readonly field: string;
    }
  | {
      /** An old option name was given beside its new one. */
      readonly code: 'renamed';
      /** The old name, as the caller spelled it. */
      readonly field: string;
      /** The name to use instead. */
      readonly to: string;
    };

/**
 * Options shared by every {@link MemoirError} constructor.
 *
 * @group Errors
 */
export interface MemoirErrorOptions {
  /** The component that raised the error, e.g. `retain` or `in-memory-store`. Prefixed to the message. */
  component: string;
  /** What the caller can do about it; printed by the CLI under the message. */
  suggestion?: string;
  /** What to change, as data a door renders in its own terms (a flag, a tool argument). */
  hint?: ErrorHint;
  /** The underlying error, if any. */
  cause?: unknown;
}

/**
 * Base class of every error memoir throws on purpose.
 *
 * @group Errors
 */
export class MemoirError extends Error {
  /** Stable, machine-readable code of the failure. */
  readonly code: MemoirErrorCode;
  /** The component that raised the error. */
  readonly component: string;
  /** What the caller can do about it, when memoir knows. */
  readonly suggestion: string | undefined;
  /** What to change, as data; the CLI and MCP render it as a flag or an argument. */
  readonly hint: ErrorHint | undefined;

  constructor(code: MemoirErrorCode, message: string, options: MemoirErrorOptions) {
    super(`[memoir] ${options.component}: ${message}`, { cause: options.cause });
    this.name = 'MemoirError';
    this.code = code;
    this.component = options.component;
    this.suggestion = options.suggestion;
    this.hint = options.hint;
    Object.defineProperty(this, ERROR_MARKER, { value: true, enumerable: false });
  }

  /** True for any MemoirError, including ones created by another copy of memoir. */
  static isInstance(error: unknown): error is MemoirError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[ERROR_MARKER] === true;
  }
}

function hasCode(error: unknown, code: MemoirErrorCode): boolean {
  return MemoirError.isInstance(error) && error.code === code;
}

/**
 * Invalid options or configuration (a config file, an environment variable, a factory's options).
 *
 * @group Errors
 */
export class ConfigError extends MemoirError {
  /** Dotted path of the offending setting, e.g. `retentionDays`. */
  readonly field: string | undefined;
  constructor(message: string, options: MemoirErrorOptions & { field?: string }) {
    super('CONFIG_INVALID', message, options);
    this.name = 'ConfigError';
    this.field = options.field;
  }
  /** True for a ConfigError from any copy of memoir. */
  static override isInstance(error: unknown): error is ConfigError {
    return hasCode(error, 'CONFIG_INVALID');
  }
}

/**
 * One problem found while validating input.
 *
 * @group Errors
 */
export interface ValidationIssue {
  /** Dotted path of the field, e.g. `input[2].importance`; empty for the value itself. */
  field: string;
  /** What the field expects, in plain words. */
  message: string;
}

/**
 * Input to a public function was rejected; nothing was written.
 *
 * @group Errors
 */
export class ValidationError extends MemoirError {
  /** Path of the first offending field. */
  readonly field: string;
  /** Every problem found, in order. */
  readonly issues: readonly ValidationIssue[];
  constructor(issues: readonly ValidationIssue[], options: MemoirErrorOptions) {
    const first = issues[0] ?? { field: '', message: 'invalid input' };
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
    super('VALIDATION_FAILED', `${first.field || 'input'}: ${first.message}${more}`, options);
    this.name = 'ValidationError';
    this.field = first.field;
    this.issues = issues;
  }
  /** True for a ValidationError from any copy of memoir. */
  static override isInstance(error: unknown): error is ValidationError {
    return hasCode(error, 'VALIDATION_FAILED');
  }
}

/**
 * A storage backend failed or refused an operation.
 *
 * @group Errors
 */
export class StoreError extends MemoirError {
  constructor(message: string, options: MemoirErrorOptions) {
    super('STORE_FAILED', message, options);
    this.name = 'StoreError';
  }
  /** True for a StoreError from any copy of memoir. */
  static override isInstance(error: unknown): error is StoreError {
    return hasCode(error, 'STORE_FAILED');
  }
}

/**
 * A provider (embedder, language model, video service) failed.
 *
 * @group Errors
 */
export class ProviderError extends MemoirError {
  /** Whether repeating the same call may succeed (rate limits, timeouts, 5xx). */
  readonly retryable: boolean;
  /** HTTP status, when the provider speaks HTTP. */
  readonly status: number | undefined;
  /** How long the provider asked to wait before the next call (`Retry-After`), milliseconds, when it said. */
  readonly retryAfterMs: number | undefined;
  constructor(
    message: string,
    options: MemoirErrorOptions & { retryable?: boolean; status?: number; retryAfterMs?: number },
  ) {
    super('PROVIDER_FAILED', message, options);
    this.name = 'ProviderError';
    this.retryable = options.retryable ?? false;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
  }
  /** True for a ProviderError from any copy of memoir. */
  static override isInstance(error: unknown): error is ProviderError {
    return hasCode(error, 'PROVIDER_FAILED');
  }
}

/**
 * The requested item does not exist.
 *
 * @group Errors
 */
export class NotFoundError extends MemoirError {
  /** The id that was looked up. */
  readonly id: string;
  constructor(what: string, id: string, options: Omit<MemoirErrorOptions, 'suggestion'> & { suggestion?: string }) {
    super('NOT_FOUND', `${what} "${id}" does not exist`, options);
    this.name = 'NotFoundError';
    this.id = id;
  }
  /** True for a NotFoundError from any copy of memoir. */
  static override isInstance(error: unknown): error is NotFoundError {
    return hasCode(error, 'NOT_FOUND');
  }
}
