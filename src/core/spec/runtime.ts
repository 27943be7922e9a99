/**
 * Source of the current time; inject a fixed clock in tests.
 *
 * @group Ports
 */
export interface Clock {
  /** Current time in epoch milliseconds. */
  now(): number;
}

/**
 * Source of new ids; inject a counter in tests.
 *
 * @group Ports
 */
export interface IdGenerator {
  /** A new unique id. `prefix` names the kind of record (`mem`, `ses`, …). */
  next(prefix: string): string;
}

/**
 * Structured log levels, most to least severe.
 *
 * @group Ports
 */
export type LogLevel = 'error' | 'warn' | 'info' | 'debug';

/**
 * Where memoir writes diagnostics. Default: nothing below `warn`, to stderr.
 *
 * @group Ports
 */
export interface Logger {
  /** Log one line with optional structured fields. */
  log(level: LogLevel, message: string, fields?: Record<string, unknown>): void;
}
