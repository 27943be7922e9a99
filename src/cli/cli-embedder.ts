/**
 * The embedder the CLI opens a store with: the one the settings name (`embedderProvider`,
 * `embedderModel`, … from config.json or `MEMOIR_EMBEDDER_*`), one named on the command
 * line for `reindex`, or a stand-in carrying the identity the store recorded, for the
 * commands that need no vectors.
 */
import { InvalidArgumentError } from 'commander';
import { createLocalEmbedder } from '../adapters/local-embedder/index.js';
import { createOpenAIEmbedder } from '../adapters/openai/index.js';
import { createSentenceEncoderEmbedder } from '../adapters/sentence-encoder/index.js';
import type { MemoirConfig } from '../config/memoir-config.js';
import { EMBEDDER_PROVIDERS, type EmbedderProvider } from '../config/setting-registry.js';
import type { Embedder } from '../core/spec/embedder.js';
import { ConfigError, MemoirError, ProviderError } from '../core/spec/errors.js';
import type { EmbedderIdentity, RecordedEmbedder } from '../core/spec/store.js';

/** An embedder named on the command line: `local`, `use`, `openai` or `openai:<model>`. */
export interface EmbedderChoice {
  /** The provider. */
  provider: EmbedderProvider;
  /** The model, for `openai:<model>`; otherwise the configured one. */
  model?: string;
}

/**
 * Parse `--embedder local | openai | openai:<model>` (a commander option parser). Which
 * settings still apply to a named embedder: see {@link buildEmbedder}.
 */
export function embedderChoice(value: string): EmbedderChoice {
  const text = value.trim();
  const colon = text.indexOf(':');
  const provider = (colon === -1 ? text : text.slice(0, colon)).toLowerCase();
  const model = colon === -1 ? undefined : text.slice(colon + 1).trim();
  if (!(EMBEDDER_PROVIDERS as readonly string[]).includes(provider) || model === '') {
    throw new InvalidArgumentError(
      'expected local, use, openai, or openai:<model> such as openai:text-embedding-3-small or openai:nomic-embed-text.',
    );
  }
  if (provider !== 'openai' && model !== undefined) {
    throw new InvalidArgumentError(`the ${provider} embedder has no model to choose: pass --embedder ${provider}.`);
  }
  return { provider: provider as EmbedderProvider, ...(model === undefined ? {} : { model }) };
}

// The settings named in messages, with their variables.
const SETTING_OF_OPTION: Record<string, string> = {
  dimensions: 'embedderDimensions (MEMOIR_EMBEDDER_DIMENSIONS)',
  model: 'embedderModel (MEMOIR_EMBEDDER_MODEL)',
  baseURL: 'embedderBaseUrl (MEMOIR_EMBEDDER_BASE_URL)',
};

function describeSettings(config: MemoirConfig, choice: EmbedderChoice | undefined): string {
  const provider = choice?.provider ?? config.embedderProvider;
  if (provider !== 'openai') return provider;
  const configuredModel = provider === config.embedderProvider ? config.embedderModel : null;
  const model = choice?.model ?? configuredModel ?? 'text-embedding-3-small';
  return `openai, model "${model}"${config.embedderBaseUrl ? ` at ${config.embedderBaseUrl}` : ''}`;
}

/** Restate a factory's ConfigError in terms of the settings, so the user knows what to change. */
function asSettingsError(
  error: unknown,
  config: MemoirConfig,
  choice: EmbedderChoice | undefined,
  env: Readonly<Record<string, string | undefined>>,
): unknown {
  if (!ConfigError.isInstance(error)) return error;
  const reason = error.message.replace(/^\[memoir\] [\w-]+: (option \w+: )?/, '');
  const keyVariable = config.embedderApiKeyEnv ?? 'OPENAI_API_KEY';
  let setting: string;
  let suggestion: string;
  if (error.field === 'apiKey') {
    setting = 'embedderApiKeyEnv';
    suggestion =
      env[keyVariable] === undefined
        ? `Set ${keyVariable} in the environment (keys never go in config.json), name another variable with embedderApiKeyEnv, or point embedderBaseUrl at a local server that needs no key, e.g. http://127.0.0.1:11434/v1 for Ollama.`
        : `Check ${keyVariable}.`;
  } else if (error.field === 'dimensions') {
    setting = 'embedderDimensions';
    suggestion = `Set ${SETTING_OF_OPTION.dimensions} to the length of the model's vectors, e.g. 768 for nomic-embed-text or 1024 for mxbai-embed-large.`;
  } else if (error.field && SETTING_OF_OPTION[error.field]) {
    setting = SETTING_OF_OPTION[error.field]!.split(' ')[0]!;
    suggestion = `Fix ${SETTING_OF_OPTION[error.field]} in config.json or the environment.`;
  } else {
    setting = 'embedderProvider';
    suggestion = error.suggestion ?? 'Check the embedder settings (embedderProvider, embedderModel, …).';
  }
  return new ConfigError(`the configured embedder (${describeSettings(config, choice)}) cannot be built: ${reason}`, {
    component: 'embedder',
    field: setting,
    suggestion,
    cause: error,
  });
}

/**
 * Build the embedder the settings name. `choice` (from `--embedder`) replaces the provider
 * and model; the other settings apply where they still fit: the server and key of the
 * `openai` provider always, the dimensions only for the configured provider and model.
 * Throws a ConfigError naming the setting to change.
 */
export function buildEmbedder(
  config: MemoirConfig,
  env: Readonly<Record<string, string | undefined>>,
  choice?: EmbedderChoice,
): Embedder {
  const provider = choice?.provider ?? config.embedderProvider;
  const sameProvider = provider === config.embedderProvider;
  if (provider !== 'openai') {
    const stray = (
      [
        ['embedderModel', config.embedderModel],
        ['embedderBaseUrl', config.embedderBaseUrl],
        ['embedderApiKeyEnv', config.embedderApiKeyEnv],
      ] as const
    ).find(([, value]) => value !== null);
    if (stray && choice === undefined) {
      throw new ConfigError(
        `${stray[0]} is set to ${JSON.stringify(stray[1])}, but embedderProvider is "${provider}", which has no model, server or key`,
        {
          component: 'embedder',
          field: 'embedderProvider',
          suggestion: `Set embedderProvider to "openai" (OpenAI, Ollama, LM Studio, vLLM, …) in config.json or MEMOIR_EMBEDDER_PROVIDER=openai, or remove ${stray[0]}.`,
        },
      );
    }
    const dimensions = sameProvider ? config.embedderDimensions : null;
    try {
      if (provider === 'use') {
        if (dimensions !== null && dimensions !== 512) {
          throw new ConfigError('the sentence encoder makes 512-number vectors', {
            component: 'embedder',
            field: 'dimensions',
          });
        }
        return createSentenceEncoderEmbedder();
      }
      return createLocalEmbedder(dimensions === null ? {} : { dimensions });
    } catch (error) {
      throw asSettingsError(error, config, choice, env);
    }
  }
  const model = choice?.model ?? (sameProvider ? config.embedderModel : null);
  const dimensions = sameProvider && model === config.embedderModel ? config.embedderDimensions : null;
  try {
    return createOpenAIEmbedder({
      env,
      ...(model === null ? {} : { model }),
      ...(config.embedderBaseUrl === null ? {} : { baseURL: config.embedderBaseUrl }),
      ...(dimensions === null ? {} : { dimensions }),
      ...(config.embedderApiKeyEnv === null ? {} : { apiKey: `\${${config.embedderApiKeyEnv}}` }),
    });
  } catch (error) {
    throw asSettingsError(error, config, choice, env);
  }
}

/** `openai:nomic-embed-text@127.0.0.1:11434:768 (768 dimensions)`. */
export function describeIdentity(identity: EmbedderIdentity): string {
  return `${identity.id} (${identity.dimensions} dimensions)`;
}

/** True when `a` and `b` make vectors that compare. */
export function sameEmbedder(a: EmbedderIdentity, b: EmbedderIdentity): boolean {
  return a.id === b.id && a.dimensions === b.dimensions;
}

/**
 * True when a store with this record refuses `embedder`: it holds vectors of another one.
 * A store without vectors records whichever embedder opens it.
 */
export function refuses(recorded: RecordedEmbedder | null, embedder: EmbedderIdentity): recorded is RecordedEmbedder {
  return recorded?.hasEmbeddings === true && !sameEmbedder(recorded, embedder);
}

/**
 * The settings that name the embedder with this id, as advice, e.g. `embedderProvider
 * "openai", embedderModel "nomic-embed-text", embedderDimensions 768 and embedderBaseUrl at
 * 127.0.0.1:11434`; undefined for an id memoir's own embedders don't make.
 */
export function settingsFor(identity: EmbedderIdentity): string | undefined {
  if (/^local-hash-v\d+-\d+$/.test(identity.id)) {
    return `embedderProvider "local"${identity.dimensions === 256 ? '' : `, embedderDimensions ${identity.dimensions}`}`;
  }
  if (/^use-en-v\d+-512$/.test(identity.id)) return 'embedderProvider "use"';
  const openai = /^openai:(.+)@([^@]+):(\d+)$/.exec(identity.id);
  if (!openai) return undefined;
  const [, model, host] = openai;
  const server = host === 'api.openai.com' ? '' : ` and embedderBaseUrl at ${host}`;
  return `embedderProvider "openai", embedderModel "${model}", embedderDimensions ${identity.dimensions}${server}`;
}

/**
 * An embedder that carries a store's recorded identity but embeds nothing: it opens the store
 * for the commands that only read and delete records, whatever embedder is configured.
 */
export function standInEmbedder(identity: EmbedderIdentity, reason: string): Embedder {
  return {
    specificationVersion: 'v1',
    id: identity.id,
    dimensions: identity.dimensions,
    semantic: false,
    async embed() {
      throw new ProviderError(`the store was opened without its embedder ${identity.id} (${reason})`, {
        component: 'embedder',
        retryable: false,
        suggestion: 'Configure the embedder the store was built with to embed or search.',
      });
    },
  };
}

/** A short reason from an error, without memoir's `[memoir] component:` prefix. */
export function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return MemoirError.isInstance(error) ? message.replace(/^\[memoir\] [\w-]+: /, '') : message;
}
