/**
 * Loading memoir's settings from defaults, a JSON file, the environment and explicit
 * overrides, each layer checked so that a bad value is reported with where it came from.
 *
 * @module
 */
import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../spec/errors.js';
import type { Logger, LogLevel } from '../spec/runtime.js';
import { isHttpUrl } from '../utils/http-url.js';

const COMPONENT = 'config';

/**
 * memoir's settings, after defaults are applied.
 *
 * @group Configuration
 */
export interface MemoirConfig {
  /**
   * Directory holding memoir's files (`memoir.sqlite`, `procedures/`, `config.json`, …).
   * Default `~/.memoir`. A leading `~` is the user's home directory; {@link loadConfig}
   * returns an absolute path (a relative one in a config file is relative to that file).
   * Environment: `MEMOIR_HOME`, or its alias `MEMORY_STORAGE_PATH`.
   */
  home: string;
  /** Memories older than this many days may be deleted by the lifecycle job (important and bookmarked ones are kept). Default 30. */
  retentionDays: number;
  /** Size the store may grow to, in megabytes, before the oldest unimportant memories are pruned. Default 500. */
  maxSizeMb: number;
  /** Most memories to keep, or `null` for no limit. Default `null`. */
  maxMemories: number | null;
  /** Results recall returns by default, 1 to 1000. Default 10. */
  recallK: number;
  /** Recall drops results scoring below this, 0 to 1. Default 0. */
  recallMinScore: number;
  /** Tokens recalled context may take by default, or `null` for no limit. Default `null`. */
  tokenBudget: number | null;
  /** Least severe level logged. Default `warn`. */
  logLevel: LogLevel;
  /** Whether tool events are captured into memory automatically. Capture is opt-in: default `false`. */
  captureEnabled: boolean;
  /**
   * Which embedder the `memoir` command opens the store with: `local` (the built-in hashing
   * embedder) or `openai` (OpenAI's API or any OpenAI-compatible server: Ollama, LM Studio,
   * vLLM, llama.cpp). A store refuses an embedder other than the one it was built with, so
   * this must name that one. Default `local`. Environment: `MEMOIR_EMBEDDER_PROVIDER`.
   */
  embedderProvider: EmbedderProvider;
  /**
   * Embedding model of the `openai` provider, e.g. `text-embedding-3-small` or Ollama's
   * `nomic-embed-text`; `null` for the provider's default (`text-embedding-3-small`).
   * Default `null`. Environment: `MEMOIR_EMBEDDER_MODEL`.
   */
  embedderModel: string | null;
  /**
   * Base URL of the OpenAI-compatible API, with its prefix, e.g. `http://127.0.0.1:11434/v1`
   * for Ollama; `null` for `OPENAI_BASE_URL`, else OpenAI's own API. Default `null`.
   * Environment: `MEMOIR_EMBEDDER_BASE_URL`.
   */
  embedderBaseUrl: string | null;
  /**
   * Length of the model's vectors: required for a model memoir doesn't know (e.g. 768 for
   * `nomic-embed-text`), optional for OpenAI's. `null` for the model's own. Default `null`.
   * Environment: `MEMOIR_EMBEDDER_DIMENSIONS`.
   */
  embedderDimensions: number | null;
  /**
   * Name of the environment variable holding the API key, e.g. `MY_OPENAI_KEY`; `null` for
   * `OPENAI_API_KEY`. The key itself never goes into a config file. A server at a custom base
   * URL needs no key. Default `null`. Environment: `MEMOIR_EMBEDDER_API_KEY_ENV`.
   */
  embedderApiKeyEnv: string | null;
  /**
   * Learn procedures from finished tasks (the seed's `[procedures] enabled`). Default `true`.
   * In the config file also `"procedures": { "enabled": … }`; environment `MEMOIR_PROCEDURES_ENABLED`.
   */
  proceduresEnabled: boolean;
  /**
   * Chat model name for reflections (`reflection_model`), e.g. `gpt-4o-mini`; `null` for the
   * client's own model. Default `null`. Environment: `MEMOIR_PROCEDURES_REFLECTION_MODEL`.
   */
  proceduresReflectionModel: string | null;
  /** Fewest tool calls worth reflecting on (`min_tool_calls`). Default 3. Environment: `MEMOIR_PROCEDURES_MIN_TOOL_CALLS`. */
  proceduresMinToolCalls: number;
  /**
   * Least similarity for a procedure to go into a prompt (`similarity_threshold`), 0 to 1;
   * `null` for the embedder's default (0.5 semantic, calibrated for the local one). Default `null`.
   * Environment: `MEMOIR_PROCEDURES_SIMILARITY_THRESHOLD`.
   */
  proceduresSimilarityThreshold: number | null;
  /**
   * Least similarity at which a new procedure updates a stored one (`update_threshold`), 0 to 1;
   * `null` for the embedder's default (0.7 semantic). Default `null`. Environment: `MEMOIR_PROCEDURES_UPDATE_THRESHOLD`.
   */
  proceduresUpdateThreshold: number | null;
  /** Procedures put into one prompt (`max_per_prompt`). Default 2. Environment: `MEMOIR_PROCEDURES_MAX_PER_PROMPT`. */
  proceduresMaxPerPrompt: number;
}

/** The embedder providers {@link MemoirConfig.embedderProvider} names. */
export const EMBEDDER_PROVIDERS = ['local', 'openai'] as const;

/** One of {@link EMBEDDER_PROVIDERS}. */
export type EmbedderProvider = (typeof EMBEDDER_PROVIDERS)[number];

/** Name of one setting. */
type Setting = keyof MemoirConfig;

/**
 * Where a setting's value came from.
 *
 * @group Configuration
 */
export type ConfigSource =
  | {
      /** The built-in default. */
      kind: 'default';
    }
  | {
      /** A JSON config file. */
      kind: 'file';
      /** Its absolute path. */
      path: string;
    }
  | {
      /** An environment variable. */
      kind: 'env';
      /** Its name, e.g. `MEMOIR_RETENTION_DAYS`. */
      variable: string;
    }
  | {
      /** The `overrides` option of {@link loadConfig}. */
      kind: 'override';
    };

/**
 * Options of {@link loadConfig}.
 *
 * @group Configuration
 */
export interface LoadConfigOptions {
  /**
   * JSON config file to read. Default: env `MEMOIR_CONFIG`, else `<home>/config.json`, where
   * home comes from the overrides, the environment or the default. A file named here or in
   * `MEMOIR_CONFIG` must exist; the default one may be absent.
   */
  file?: string;
  /** Environment to read. Default `process.env`. Tests should pass their own object. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Settings that win over every other source, e.g. from CLI flags. `undefined` values are ignored. */
  overrides?: Partial<MemoirConfig>;
  /** Receives an `info` line for each setting not left at its default, naming its source. */
  logger?: Logger;
}

/**
 * What {@link loadConfig} returns.
 *
 * @group Configuration
 */
export interface LoadedConfig {
  /** The settings in effect. */
  config: MemoirConfig;
  /** Where each setting's value came from. */
  sources: Record<Setting, ConfigSource>;
}

const positiveInt = () => z.number().int().positive();

const httpUrl = z.string().refine(isHttpUrl);

// One schema per setting, so each source's values are checked one by one and a failure
// can name its setting and its source.
const settingSchemas = {
  home: z.string().min(1),
  retentionDays: positiveInt(),
  maxSizeMb: z.number().positive().finite(),
  maxMemories: positiveInt().nullable(),
  recallK: z.number().int().min(1).max(1000),
  recallMinScore: z.number().min(0).max(1),
  tokenBudget: positiveInt().nullable(),
  logLevel: z.enum(['error', 'warn', 'info', 'debug']),
  captureEnabled: z.boolean(),
  embedderProvider: z.enum(EMBEDDER_PROVIDERS),
  embedderModel: z.string().trim().min(1).max(256).nullable(),
  embedderBaseUrl: httpUrl.nullable(),
  embedderDimensions: positiveInt().max(65_536).nullable(),
  embedderApiKeyEnv: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
    .max(128)
    .nullable(),
  proceduresEnabled: z.boolean(),
  proceduresReflectionModel: z.string().trim().min(1).max(256).nullable(),
  proceduresMinToolCalls: z.number().int().min(1).max(1000),
  proceduresSimilarityThreshold: z.number().min(0).max(1).nullable(),
  proceduresUpdateThreshold: z.number().min(0).max(1).nullable(),
  proceduresMaxPerPrompt: z.number().int().min(1).max(50),
} satisfies Record<Setting, z.ZodType>;

const configSchema = z
  .object({
    home: settingSchemas.home.default('~/.memoir'),
    retentionDays: settingSchemas.retentionDays.default(30),
    maxSizeMb: settingSchemas.maxSizeMb.default(500),
    maxMemories: settingSchemas.maxMemories.default(null),
    recallK: settingSchemas.recallK.default(10),
    recallMinScore: settingSchemas.recallMinScore.default(0),
    tokenBudget: settingSchemas.tokenBudget.default(null),
    logLevel: settingSchemas.logLevel.default('warn'),
    captureEnabled: settingSchemas.captureEnabled.default(false),
    embedderProvider: settingSchemas.embedderProvider.default('local'),
    embedderModel: settingSchemas.embedderModel.default(null),
    embedderBaseUrl: settingSchemas.embedderBaseUrl.default(null),
    embedderDimensions: settingSchemas.embedderDimensions.default(null),
    embedderApiKeyEnv: settingSchemas.embedderApiKeyEnv.default(null),
    proceduresEnabled: settingSchemas.proceduresEnabled.default(true),
    proceduresReflectionModel: settingSchemas.proceduresReflectionModel.default(null),
    proceduresMinToolCalls: settingSchemas.proceduresMinToolCalls.default(3),
    proceduresSimilarityThreshold: settingSchemas.proceduresSimilarityThreshold.default(null),
    proceduresUpdateThreshold: settingSchemas.proceduresUpdateThreshold.default(null),
    proceduresMaxPerPrompt: settingSchemas.proceduresMaxPerPrompt.default(2),
  })
  .strict();

/**
 * The default settings. `home` is `~/.memoir` here; {@link loadConfig} expands the `~`.
 *
 * @group Configuration
 */
export const DEFAULT_CONFIG: Readonly<MemoirConfig> = Object.freeze(configSchema.parse({}));

const SETTINGS = Object.keys(settingSchemas) as Setting[];

// What each setting expects, in the words of an error message, and a valid example.
const EXPECTATIONS: Record<Setting, { expects: string; example: string }> = {
  home: { expects: 'a directory path', example: '~/.memoir' },
  retentionDays: { expects: 'a positive whole number of days', example: '30' },
  maxSizeMb: { expects: 'a positive number of megabytes', example: '500' },
  maxMemories: { expects: 'a positive whole number, or null for no limit', example: '100000' },
  recallK: { expects: 'a whole number from 1 to 1000', example: '10' },
  recallMinScore: { expects: 'a number from 0 to 1', example: '0.2' },
  tokenBudget: { expects: 'a positive whole number of tokens, or null for no limit', example: '2000' },
  logLevel: { expects: 'one of "error", "warn", "info", "debug"', example: 'info' },
  captureEnabled: { expects: 'true or false', example: 'true' },
  embedderProvider: {
    expects: `one of ${EMBEDDER_PROVIDERS.map((name) => `"${name}"`).join(', ')}`,
    example: 'openai',
  },
  embedderModel: { expects: 'a model name, or null for the default', example: 'text-embedding-3-small' },
  embedderBaseUrl: { expects: 'an http(s) URL, or null for the default', example: 'http://127.0.0.1:11434/v1' },
  embedderDimensions: { expects: 'a whole number from 1 to 65536, or null for the model’s own', example: '768' },
  embedderApiKeyEnv: {
    expects: 'the name of the environment variable holding the API key (never the key itself), or null',
    example: 'OPENAI_API_KEY',
  },
  proceduresEnabled: { expects: 'true or false', example: 'true' },
  proceduresReflectionModel: { expects: 'a chat model name, or null for the client’s model', example: 'gpt-4o-mini' },
  proceduresMinToolCalls: { expects: 'a whole number from 1 to 1000', example: '3' },
  proceduresSimilarityThreshold: {
    expects: 'a number from 0 to 1, or null for the embedder’s default',
    example: '0.5',
  },
  proceduresUpdateThreshold: { expects: 'a number from 0 to 1, or null for the embedder’s default', example: '0.7' },
  proceduresMaxPerPrompt: { expects: 'a whole number from 1 to 50', example: '2' },
};

const NULLABLE: ReadonlySet<Setting> = new Set([
  'maxMemories',
  'tokenBudget',
  'embedderModel',
  'embedderBaseUrl',
  'embedderDimensions',
  'embedderApiKeyEnv',
  'proceduresReflectionModel',
  'proceduresSimilarityThreshold',
  'proceduresUpdateThreshold',
]);

/** Settings whose value is true or false. */
const BOOLEAN: ReadonlySet<Setting> = new Set(['captureEnabled', 'proceduresEnabled']);

/** Settings whose value is text, quoted in a JSON example and never parsed as a number. */
const TEXT: ReadonlySet<Setting> = new Set([
  'home',
  'logLevel',
  'embedderProvider',
  'embedderModel',
  'embedderBaseUrl',
  'embedderApiKeyEnv',
  'proceduresReflectionModel',
]);

/** A setting whose bad value may be a secret pasted in the wrong place: errors don't show it. */
const SECRET: ReadonlySet<Setting> = new Set(['embedderApiKeyEnv']);

/** `retentionDays` → `MEMOIR_RETENTION_DAYS`. */
const envVariable = (setting: Setting): string =>
  `MEMOIR_${setting.replace(/[A-Z]/g, (letter) => `_${letter}`).toUpperCase()}`;

const HOME_ALIAS = 'MEMORY_STORAGE_PATH';

function describeSource(source: ConfigSource): string {
  switch (source.kind) {
    case 'default':
      return 'the defaults';
    case 'file':
      return `file ${source.path}`;
    case 'env':
      return `env ${source.variable}`;
    case 'override':
      return 'overrides';
  }
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  try {
    return JSON.stringify(value) ?? typeof value;
  } catch {
    return typeof value;
  }
}

function jsonExample(setting: Setting): string {
  const { example } = EXPECTATIONS[setting];
  return TEXT.has(setting) ? JSON.stringify(example) : example;
}

function suggestionFor(setting: Setting, source: ConfigSource): string {
  const { example } = EXPECTATIONS[setting];
  switch (source.kind) {
    case 'file':
      return `Fix "${setting}" in ${source.path}, e.g. "${setting}": ${jsonExample(setting)}, or remove it to use the default.`;
    case 'env':
      return `Set ${source.variable}=${example}, or unset it to use the default.`;
    default:
      return `Pass ${setting}: ${jsonExample(setting)} to loadConfig, or leave it out to use the default.`;
  }
}

function invalidSetting(setting: Setting, shown: string, source: ConfigSource): ConfigError {
  const { expects, example } = EXPECTATIONS[setting];
  return new ConfigError(
    `${setting} must be ${expects}, e.g. ${example}; got ${shown} from ${describeSource(source)}`,
    { component: COMPONENT, field: setting, suggestion: suggestionFor(setting, source) },
  );
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
const TRUE = new Set(['true', '1', 'yes']);
const FALSE = new Set(['false', '0', 'no']);

/** Turn an environment string into the setting's type; `undefined` means "not set". */
function parseEnvValue(setting: Setting, raw: string): unknown {
  const text = raw.trim();
  if (setting === 'home') return text || undefined;
  if (text === '' || text.toLowerCase() === 'null') return NULLABLE.has(setting) ? null : text || undefined;
  if (BOOLEAN.has(setting)) {
    const lower = text.toLowerCase();
    return TRUE.has(lower) ? true : FALSE.has(lower) ? false : raw;
  }
  if (setting === 'logLevel' || setting === 'embedderProvider') return text.toLowerCase();
  if (TEXT.has(setting)) return text;
  return NUMBER.test(text) ? Number(text) : raw;
}

function expandHome(path: string, base: string): string {
  if (path === '~') return homedir();
  if (path.startsWith('~/') || path.startsWith('~\\')) return join(homedir(), path.slice(2));
  return resolve(base, path);
}

// `raw` is the environment text a value was parsed from, shown in errors as written.
type Layer = Partial<Record<Setting, { value: unknown; source: ConfigSource; raw?: string }>>;

function checkLayer(layer: Layer): void {
  for (const setting of SETTINGS) {
    const entry = layer[setting];
    if (!entry) continue;
    if (!settingSchemas[setting].safeParse(entry.value).success) {
      const shown = SECRET.has(setting)
        ? 'a value that is not a variable name (not shown, in case it is a key)'
        : entry.raw !== undefined
          ? JSON.stringify(entry.raw)
          : describeValue(entry.value);
      throw invalidSetting(setting, shown, entry.source);
    }
  }
}

// A key that looks like it holds a secret, e.g. "apiKey" or "openai_api_key".
const SECRET_KEY = /api.?key|secret|token|password/i;

function unknownKeysError(keys: string[], where: string, field: string): ConfigError {
  const known = new Set<string>(SETTINGS);
  const hints = keys
    .map((key) => [key, key.replace(/[_-]+([a-z0-9])/gi, (_, letter: string) => letter.toUpperCase())] as const)
    .filter(([key, camel]) => camel !== key && known.has(camel))
    .map(([key, camel]) => `"${key}" → "${camel}"`);
  const listed = keys.map((key) => `"${key}"`).join(', ');
  const secret = keys.find((key) => SECRET_KEY.test(key));
  return new ConfigError(`unknown setting(s) ${listed} in ${where}; known settings are ${SETTINGS.join(', ')}`, {
    component: COMPONENT,
    field,
    suggestion: secret
      ? `Keep API keys out of the configuration: remove "${secret}", put the key in an environment variable, and name that variable with "embedderApiKeyEnv" (default OPENAI_API_KEY).`
      : hints.length > 0
        ? `Settings are camelCase: rename ${hints.join(', ')}.`
        : `Remove ${listed}, or correct the spelling to one of the known settings.`,
  });
}

function readEnvLayer(env: Readonly<Record<string, string | undefined>>, logger: Logger | undefined): Layer {
  const layer: Layer = {};
  for (const setting of SETTINGS) {
    const variable = envVariable(setting);
    const raw = env[variable];
    if (raw === undefined) continue;
    const value = parseEnvValue(setting, raw);
    if (value !== undefined) layer[setting] = { value, source: { kind: 'env', variable }, raw };
  }
  const alias = env[HOME_ALIAS]?.trim();
  if (alias) {
    if (!layer.home) layer.home = { value: alias, source: { kind: 'env', variable: HOME_ALIAS } };
    else if (layer.home.value !== alias) {
      logger?.log('warn', `${HOME_ALIAS} is ignored because MEMOIR_HOME is also set`, {
        MEMOIR_HOME: layer.home.value,
        [HOME_ALIAS]: alias,
      });
    }
  }
  return layer;
}

function readOverrideLayer(overrides: Partial<MemoirConfig> | undefined): Layer {
  const layer: Layer = {};
  if (overrides === undefined) return layer;
  if (typeof overrides !== 'object' || overrides === null || Array.isArray(overrides)) {
    throw new ConfigError(`overrides must be an object of settings (got ${describeValue(overrides)})`, {
      component: COMPONENT,
      field: 'overrides',
      suggestion: 'Pass e.g. { overrides: { retentionDays: 7 } }.',
    });
  }
  const unknown = Object.keys(overrides).filter((key) => !Object.hasOwn(settingSchemas, key));
  if (unknown.length > 0) throw unknownKeysError(unknown, 'overrides', unknown[0]!);
  for (const setting of SETTINGS) {
    const value: unknown = overrides[setting];
    if (value !== undefined) layer[setting] = { value, source: { kind: 'override' } };
  }
  return layer;
}

const PROCEDURE_KEYS: Record<string, Setting> = {
  enabled: 'proceduresEnabled',
  reflectionModel: 'proceduresReflectionModel',
  minToolCalls: 'proceduresMinToolCalls',
  similarityThreshold: 'proceduresSimilarityThreshold',
  updateThreshold: 'proceduresUpdateThreshold',
  maxPerPrompt: 'proceduresMaxPerPrompt',
};

/**
 * The seed's `[procedures]` section, written as `"procedures": { "min_tool_calls": 3, … }`
 * (snake_case as in the seed, or camelCase), becomes the flat `procedures*` settings.
 */
function withProcedureSection(record: Record<string, unknown>, path: string): Record<string, unknown> {
  if (!Object.hasOwn(record, 'procedures')) return record;
  const { procedures: section, ...rest } = record;
  if (typeof section !== 'object' || section === null || Array.isArray(section)) {
    throw new ConfigError(`"procedures" in file ${path} must be an object, e.g. {"min_tool_calls": 3}`, {
      component: COMPONENT,
      field: 'procedures',
      suggestion:
        'Write e.g. "procedures": {"enabled": true, "min_tool_calls": 3, "similarity_threshold": 0.5, "update_threshold": 0.7, "max_per_prompt": 2}.',
    });
  }
  for (const [key, value] of Object.entries(section)) {
    const camel = key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
    const setting = Object.hasOwn(PROCEDURE_KEYS, camel) ? PROCEDURE_KEYS[camel] : undefined;
    if (setting === undefined) throw unknownKeysError([`procedures.${key}`], `file ${path}`, `procedures.${key}`);
    rest[setting] = value;
  }
  return rest;
}

function readFileLayer(path: string, explicit: boolean): Layer {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ENOTDIR: the home (or a directory above it) is a file; loadConfig reports that as the home's fault.
    if ((code === 'ENOENT' || code === 'ENOTDIR') && !explicit) return {};
    const reason = code === 'ENOENT' ? 'does not exist' : `cannot be read (${(error as Error).message})`;
    throw new ConfigError(`config file ${path} ${reason}`, {
      component: COMPONENT,
      field: 'file',
      suggestion:
        code === 'ENOENT'
          ? 'Create the file, or correct the path given by the file option or MEMOIR_CONFIG.'
          : 'Check that the path is a readable file.',
      cause: error,
    });
  }
  let data: unknown;
  try {
    // A byte-order mark is legal in a UTF-8 file but not in JSON.
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new ConfigError(`config file ${path} is not valid JSON: ${(error as Error).message}`, {
      component: COMPONENT,
      field: 'file',
      suggestion: 'Fix the JSON syntax, e.g. {"retentionDays": 30}; comments and trailing commas are not allowed.',
      cause: error,
    });
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new ConfigError(`config file ${path} must hold a JSON object of settings (got ${describeValue(data)})`, {
      component: COMPONENT,
      field: 'file',
      suggestion: 'Write an object, e.g. {"retentionDays": 30}.',
    });
  }
  const record = withProcedureSection(data as Record<string, unknown>, path);
  const unknown = Object.keys(record).filter((key) => !Object.hasOwn(settingSchemas, key));
  if (unknown.length > 0) throw unknownKeysError(unknown, `file ${path}`, unknown[0]!);
  const layer: Layer = {};
  for (const setting of SETTINGS) {
    if (setting in record) layer[setting] = { value: record[setting], source: { kind: 'file', path } };
  }
  return layer;
}

/** The file at `path` or above it that stands where a directory must be, or undefined when there is none. */
function fileInTheWay(path: string): string | undefined {
  for (let current = path; ; current = dirname(current)) {
    let stats: ReturnType<typeof statSync>;
    try {
      stats = statSync(current, { throwIfNoEntry: false });
    } catch {
      // Unreadable (EACCES) or a file above it (ENOTDIR): look further up.
      stats = undefined;
    }
    if (stats) return stats.isDirectory() ? undefined : current;
    if (dirname(current) === current) return undefined;
  }
}

/** A home that is a file (or lies under one) can hold no store: say so, naming where it was set. */
function checkHome(home: string, source: ConfigSource): void {
  const file = fileInTheWay(home);
  if (file === undefined) return;
  const where =
    source.kind === 'env'
      ? `${source.variable} (or --home)`
      : source.kind === 'file'
        ? `"home" in ${source.path}`
        : source.kind === 'override'
          ? 'the home override (e.g. --home)'
          : 'MEMOIR_HOME or --home';
  const problem = file === home ? `${home} is a file` : `${home} lies under ${file}, which is a file`;
  throw new ConfigError(`home ${problem}, not a directory (home from ${describeSource(source)})`, {
    component: COMPONENT,
    field: 'home',
    suggestion: `Point ${where} at a directory, e.g. ~/.memoir; memoir creates it when it is missing.`,
  });
}

/**
 * Load memoir's settings. Sources, lowest to highest precedence: {@link DEFAULT_CONFIG},
 * the JSON config file, the environment, then `options.overrides`.
 *
 * The file holds camelCase settings, e.g. `{"retentionDays": 7, "captureEnabled": true}`.
 * In the environment, `MEMOIR_HOME` (or its alias `MEMORY_STORAGE_PATH`; `MEMOIR_HOME` wins)
 * sets `home`, and every other setting is `MEMOIR_` plus its name in SCREAMING_SNAKE_CASE,
 * e.g. `MEMOIR_RETENTION_DAYS=7`. Environment values are parsed from strings: numbers;
 * `true`/`false`/`1`/`0`/`yes`/`no` for booleans; `null` or empty for "no limit" on
 * nullable settings. An empty variable otherwise counts as unset.
 *
 * Every source is checked, even where a higher one overrides it, so a broken config file
 * is reported rather than hidden.
 *
 * @throws ConfigError naming the setting, the bad value, its source and the expected
 * format (e.g. `retentionDays must be a positive whole number of days, e.g. 30; got -5
 * from file /home/me/.memoir/config.json`); also for an unknown setting, unparsable JSON,
 * a missing file named by `options.file` or `MEMOIR_CONFIG`, or a home that is a file.
 * @group Configuration
 */
export function loadConfig(options: LoadConfigOptions = {}): LoadedConfig {
  const env = options.env ?? process.env;
  const logger = options.logger;

  const overrideLayer = readOverrideLayer(options.overrides);
  const envLayer = readEnvLayer(env, logger);
  checkLayer(overrideLayer);
  checkLayer(envLayer);

  const namedFile = options.file?.trim() || env.MEMOIR_CONFIG?.trim() || undefined;
  const earlyHome = (overrideLayer.home ?? envLayer.home)?.value as string | undefined;
  const filePath = namedFile
    ? resolve(namedFile)
    : join(expandHome(earlyHome ?? DEFAULT_CONFIG.home, process.cwd()), 'config.json');
  const fileLayer = readFileLayer(filePath, namedFile !== undefined);
  checkLayer(fileLayer);
  logger?.log('debug', `configuration file ${filePath}`, { file: filePath, settings: Object.keys(fileLayer).length });

  const config = {} as Record<Setting, unknown>;
  const sources = {} as Record<Setting, ConfigSource>;
  for (const setting of SETTINGS) {
    const entry = overrideLayer[setting] ?? envLayer[setting] ?? fileLayer[setting];
    config[setting] = entry ? entry.value : DEFAULT_CONFIG[setting];
    sources[setting] = entry ? entry.source : { kind: 'default' };
  }
  const homeSource = sources.home;
  config.home = expandHome(
    config.home as string,
    homeSource.kind === 'file' ? dirname(homeSource.path) : process.cwd(),
  );
  checkHome(config.home as string, homeSource);

  for (const setting of SETTINGS) {
    const source = sources[setting];
    if (source.kind === 'default') continue;
    logger?.log(
      'info',
      `configuration override: ${setting} = ${describeValue(config[setting])} from ${describeSource(source)}`,
      {
        setting,
        value: config[setting],
        source,
      },
    );
  }
  return { config: config as unknown as MemoirConfig, sources };
}
