/**
 * From the model settings (`model`, `baseUrl`, `apiKeyEnv`, `proceduresReflectionModel`) to the
 * client's chat models, one rule for every door that reads settings: the `memoir` command,
 * `memoir mcp` and a zero-configuration `createMemory()`. The model is the OpenAI-compatible
 * adapter (OpenAI, Ollama, LM Studio, vLLM, llama.cpp, gateways). The key is read from the
 * environment only, and no message here ever shows it.
 *
 * @module
 */
import { createOpenAIChatModel } from '../adapters/openai/index.js';
import type { MemoryOptions } from '../core/client/memory-options.js';
import { ConfigError, MemoirError } from '../core/spec/errors.js';
import type { LanguageModel } from '../core/spec/language-model.js';
import type { MemoirConfig } from './memoir-config.js';
import { type Environment, processEnvironment } from './setting-registry.js';

/** The variables a key is read from when `apiKeyEnv` names none, in order (the adapter reads the last itself). */
const KEY_VARIABLES = ['MEMOIR_API_KEY', 'OPENAI_API_KEY'] as const;

type ModelSettings = Pick<MemoirConfig, 'model' | 'baseUrl' | 'apiKeyEnv' | 'proceduresReflectionModel'>;

/** The options the model settings add to createMemory's: `languageModel` and `procedures.reflectionModel`. */
export type ModelOptions = Pick<MemoryOptions, 'languageModel'> & {
  procedures?: { reflectionModel?: LanguageModel };
};

// `${NAME}`: the adapter reads the variable itself, so the key never passes through here.
const reference = (variable: string) => `\${${variable}}`;

function apiKeyOf(config: ModelSettings, env: Readonly<Record<string, string | undefined>>): string | undefined {
  if (config.apiKeyEnv !== null) {
    if (!env[config.apiKeyEnv]?.trim()) {
      throw new ConfigError(`apiKeyEnv names ${config.apiKeyEnv}, which is not set`, {
        component: 'model',
        field: 'apiKeyEnv',
        suggestion: `Set ${config.apiKeyEnv} in the environment (keys never go in config.json or on the command line), or unset apiKeyEnv.`,
      });
    }
    return reference(config.apiKeyEnv);
  }
  const variable = KEY_VARIABLES.find((name) => env[name]?.trim());
  return variable === undefined ? undefined : reference(variable);
}

/** Build one chat model, restating the adapter's ConfigError in terms of the settings. */
function chatModel(
  name: string,
  setting: 'model' | 'proceduresReflectionModel',
  config: ModelSettings,
  env: Readonly<Record<string, string | undefined>>,
): LanguageModel {
  const apiKey = apiKeyOf(config, env);
  try {
    return createOpenAIChatModel({
      model: name,
      env,
      ...(apiKey === undefined ? {} : { apiKey }),
      ...(config.baseUrl === null ? {} : { baseURL: config.baseUrl }),
    });
  } catch (error) {
    if (!MemoirError.isInstance(error)) throw error;
    const noKey = ConfigError.isInstance(error) && error.field === 'apiKey';
    throw new ConfigError(
      `the configured model "${name}" cannot be used: ${error.message.replace(/^\[memoir\] /, '')}`,
      {
        component: 'model',
        field: noKey ? 'apiKeyEnv' : setting,
        suggestion: noKey
          ? 'Set MEMOIR_API_KEY or OPENAI_API_KEY in the environment (or name another variable with apiKeyEnv), or point baseUrl (--base-url, MEMOIR_BASE_URL) at a server that needs no key, e.g. http://127.0.0.1:11434/v1 for Ollama.'
          : (error.suggestion ?? `Check ${setting} and baseUrl.`),
        cause: error,
      },
    );
  }
}

/**
 * The chat models the settings name: `model` becomes the client's `languageModel` (extraction,
 * reflection, merges); `proceduresReflectionModel`, when it names another model, becomes the
 * procedures' `reflectionModel` on the same server. Nothing when neither is set. Throws a
 * ConfigError naming the setting when a model cannot be built (no key for OpenAI's own API).
 *
 * @param config - The settings (from `loadConfig`).
 * @param env - Where the API key is read from (`apiKeyEnv`, else `MEMOIR_API_KEY`, else `OPENAI_API_KEY`).
 */
export function modelOptionsFromConfig(config: ModelSettings, env: Environment = processEnvironment()): ModelOptions {
  const options: ModelOptions = {};
  if (config.model !== null) options.languageModel = chatModel(config.model, 'model', config, env);
  const reflection = config.proceduresReflectionModel;
  if (reflection !== null && reflection !== config.model) {
    options.procedures = { reflectionModel: chatModel(reflection, 'proceduresReflectionModel', config, env) };
  }
  return options;
}
