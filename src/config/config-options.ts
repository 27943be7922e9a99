/**
 * From settings to createMemory options, one rule for every door: each registry row that
 * names an `option` sets that option (a `null` setting sets nothing, leaving the option's own
 * default), so the `memoir` command, `memoir mcp` and a zero-configuration `createMemory()`
 * turn the same settings into the same client.
 *
 * @module
 */
import type { MemoryOptions } from '../core/client/memory-options.js';
import { createConsoleLogger } from '../core/utils/runtime-defaults.js';
import type { MemoirConfig } from './memoir-config.js';
import { modelOptionsFromConfig } from './model-settings.js';
import { type Environment, processEnvironment, SETTING_NAMES, specOf } from './setting-registry.js';

// Settings whose option is not the value itself.
const CONVERT: Partial<Record<string, (value: unknown) => unknown>> = {
  logger: (level) => createConsoleLogger(level as MemoirConfig['logLevel']),
};

/**
 * The createMemory options the settings name: `home`, the retention and size limits,
 * `recallK`, a console logger at `logLevel`, `capture.enabled` and the procedure thresholds.
 * Settings read only by the `memoir` command (the embedder, recall's defaults) are not options.
 *
 * @group Configuration
 */
export function memoryOptionsFromConfig(config: MemoirConfig): MemoryOptions {
  const options: Record<string, unknown> = {};
  for (const setting of SETTING_NAMES) {
    const path = specOf(setting).option;
    const value = config[setting];
    if (path === undefined || value === null) continue;
    const [head, ...rest] = path.split('.') as [string, ...string[]];
    const converted = CONVERT[path]?.(value) ?? value;
    if (rest.length === 0) options[head] = converted;
    else {
      const section = (options[head] ?? {}) as Record<string, unknown>;
      section[rest.join('.')] = converted;
      options[head] = section;
    }
  }
  return options as MemoryOptions;
}

/**
 * `given` over the options the settings name, section by section (`capture`, `procedures`):
 * an option the caller passed always wins over the environment and the config file. The
 * model settings (`model`, `baseUrl`, `proceduresReflectionModel`) become chat models, with
 * the key read from `env`; a model the caller passed is never built from the settings.
 */
export function withConfiguredOptions(
  given: MemoryOptions,
  config: MemoirConfig,
  env: Environment = processEnvironment(),
): MemoryOptions {
  const configured = memoryOptionsFromConfig(config);
  const models = modelOptionsFromConfig(
    {
      ...config,
      model: given.languageModel === undefined ? config.model : null,
      proceduresReflectionModel:
        given.procedures?.reflectionModel === undefined ? config.proceduresReflectionModel : null,
    },
    env,
  );
  return {
    ...configured,
    ...models,
    ...given,
    capture: { ...configured.capture, ...given.capture },
    procedures: { ...configured.procedures, ...models.procedures, ...given.procedures },
  };
}
