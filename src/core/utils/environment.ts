/**
 * The one module of src/ that touches `process.env` (lint refuses it anywhere else). memoir's
 * settings are read from here only through the settings registry (src/config/setting-registry.ts,
 * which re-exports these); adapters and the recorder, which sit below src/config/, use it for
 * the variables that are not memoir settings but belong to someone else: `OPENAI_API_KEY` and
 * the variable a `${NAME}` reference names, `PATH`, `DISPLAY`, `FFMPEG_PATH`, `LANCEDB_LOG`.
 *
 * @module
 */

/** An environment to read variables from, shaped like `process.env`. */
export type Environment = Readonly<Record<string, string | undefined>>;

/** The process's environment, for a default parameter: read it here, not through `process.env`. */
export function processEnvironment(): Environment {
  return process.env;
}

/**
 * A copy of the process's environment without unset entries, for a child process (which
 * inherits what this process was given, plus `extra`).
 */
export function childEnvironment(extra: Environment = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const source of [process.env, extra]) {
    for (const [key, value] of Object.entries(source)) if (value !== undefined) env[key] = value;
  }
  return env;
}

/**
 * Set `name` in the process's environment unless it is set already: for a native library that
 * reads its own variable once, when it loads (LanceDB's `LANCEDB_LOG`). The caller's value wins.
 */
export function defaultEnvironmentVariable(name: string, value: string): void {
  if (process.env[name] === undefined) process.env[name] = value;
}
