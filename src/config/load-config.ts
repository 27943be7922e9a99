/**
 * Loading memoir's settings from defaults, a JSON file, the environment and explicit
 * overrides, each layer checked so that a bad value is reported with where it came from.
 *
 * @module
 */
import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { ConfigError } from '../core/spec/errors.js';
import type { Logger } from '../core/spec/runtime.js';
import { DEFAULT_CONFIG, type MemoirConfig } from './memoir-config.js';
import {
  type Environment,
  parseSettingText,
  processEnvironment,
  SETTING_NAMES,
  SETTINGS,
  type Setting,
  specOf,
} from './setting-registry.js';

const COMPONENT = 'config';

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
    }
  | {
      /** A command-line flag (the `flags` option of {@link loadConfig}). */
      kind: 'flag';
      /** Its name, e.g. `--retention-days`. */
      flag: string;
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
  /** Environment to read. Default the process's. Tests should pass their own object. */
  env?: Environment;
  /** Settings that win over every other source, e.g. from CLI flags. `undefined` values are ignored. */
  overrides?: Partial<MemoirConfig>;
  /**
   * Settings given as command-line flags, e.g. `--retention-days 7`: they win as overrides do,
   * and their source names the flag. `undefined` values are ignored.
   */
  flags?: Partial<MemoirConfig>;
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

// The registry and the schema name the same settings (checked when this compiles).
const sameSettings: Record<Setting, unknown> & Record<keyof MemoirConfig, unknown> = DEFAULT_CONFIG;
void sameSettings;

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
    case 'flag':
      return `flag ${source.flag}`;
  }
}

/**
 * One setting in effect: its value, and where it came from in words (`default`, `file
 * /home/me/.memoir/config.json`, `env MEMOIR_RETENTION_DAYS`, `flag --retention-days`).
 *
 * @group Configuration
 */
export interface SettingInEffect {
  /** The setting's name, e.g. `retentionDays`. */
  setting: Setting;
  /** Its value; a URL's user name and password, and a secret setting's value (`mcpToken`), shown as `***`. */
  value: unknown;
  /** Where the value came from. */
  source: ConfigSource;
  /** The value and its source as a line reads them, e.g. `retentionDays = 7 (env MEMOIR_RETENTION_DAYS)`. */
  text: string;
}

/** A URL's user name and password are a secret in a setting's value: a printed list hides them. */
function withoutCredentials(value: unknown): unknown {
  if (typeof value !== 'string' || !/^https?:\/\/[^/]*@/i.test(value)) return value;
  try {
    const url = new URL(value);
    url.username = url.username ? '***' : '';
    url.password = url.password ? '***' : '';
    return url.toString();
  } catch {
    return value;
  }
}

/**
 * Every setting of a {@link loadConfig} result with its value and source, in registry order:
 * what `memoir doctor` and `--debug` print.
 *
 * @group Configuration
 */
export function settingsInEffect(loaded: LoadedConfig): SettingInEffect[] {
  return SETTING_NAMES.map((setting) => {
    const raw = loaded.config[setting];
    const value = specOf(setting).redact && raw !== null ? '***' : withoutCredentials(raw);
    const source = loaded.sources[setting];
    const from = source.kind === 'default' ? 'default' : describeSource(source);
    return { setting, value, source, text: `${setting} = ${describeValue(value)} (${from})` };
  });
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
  const spec = specOf(setting);
  return spec.text === 'number' || spec.text === 'boolean' ? spec.example : JSON.stringify(spec.example);
}

function suggestionFor(setting: Setting, source: ConfigSource): string {
  const { example } = specOf(setting);
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
  const { expects, example } = specOf(setting);
  return new ConfigError(
    `${setting} must be ${expects}, e.g. ${example}; got ${shown} from ${describeSource(source)}`,
    { component: COMPONENT, field: setting, suggestion: suggestionFor(setting, source) },
  );
}

function expandHome(path: string, base: string): string {
  if (path === '~') return homedir();
  if (path.startsWith('~/') || path.startsWith('~\\')) return join(homedir(), path.slice(2));
  return resolve(base, path);
}

// `raw` is the environment text a value was parsed from, shown in errors as written.
type Layer = Partial<Record<Setting, { value: unknown; source: ConfigSource; raw?: string }>>;

function checkLayer(layer: Layer): void {
  for (const setting of SETTING_NAMES) {
    const entry = layer[setting];
    if (!entry) continue;
    const spec = specOf(setting);
    if (!spec.schema.safeParse(entry.value).success) {
      const shown = spec.redact
        ? 'a value not shown (it is a secret)'
        : spec.secret
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
  const known = new Set<string>(SETTING_NAMES);
  const hints = keys
    .map((key) => [key, key.replace(/[_-]+([a-z0-9])/gi, (_, letter: string) => letter.toUpperCase())] as const)
    .filter(([key, camel]) => camel !== key && known.has(camel))
    .map(([key, camel]) => `"${key}" → "${camel}"`);
  const listed = keys.map((key) => `"${key}"`).join(', ');
  const secret = keys.find((key) => SECRET_KEY.test(key));
  return new ConfigError(`unknown setting(s) ${listed} in ${where}; known settings are ${SETTING_NAMES.join(', ')}`, {
    component: COMPONENT,
    field,
    suggestion: secret
      ? `Keep API keys out of the configuration: remove "${secret}", put the key in an environment variable, and name that variable with "apiKeyEnv" for the model or "embedderApiKeyEnv" for the embedder (default OPENAI_API_KEY).`
      : hints.length > 0
        ? `Settings are camelCase: rename ${hints.join(', ')}.`
        : `Remove ${listed}, or correct the spelling to one of the known settings.`,
  });
}

function readEnvLayer(env: Environment, logger: Logger | undefined): Layer {
  const layer: Layer = {};
  for (const setting of SETTING_NAMES) {
    const spec = specOf(setting);
    for (const variable of [spec.env, ...(spec.envAliases ?? [])]) {
      const raw = env[variable];
      if (raw === undefined) continue;
      const value = parseSettingText(setting, raw);
      if (value === undefined) continue;
      const entry = layer[setting];
      if (entry === undefined) layer[setting] = { value, source: { kind: 'env', variable }, raw };
      else if (entry.value !== value && entry.source.kind === 'env') {
        logger?.log('warn', `${variable} is ignored because ${entry.source.variable} is also set`, {
          [entry.source.variable]: entry.value,
          [variable]: value,
        });
      }
    }
  }
  return layer;
}

function readOverrideLayer(
  overrides: Partial<MemoirConfig> | undefined,
  kind: 'override' | 'flag' = 'override',
): Layer {
  const layer: Layer = {};
  if (overrides === undefined) return layer;
  if (typeof overrides !== 'object' || overrides === null || Array.isArray(overrides)) {
    throw new ConfigError(`overrides must be an object of settings (got ${describeValue(overrides)})`, {
      component: COMPONENT,
      field: 'overrides',
      suggestion: 'Pass e.g. { overrides: { retentionDays: 7 } }.',
    });
  }
  const unknown = Object.keys(overrides).filter((key) => !Object.hasOwn(SETTINGS, key));
  if (unknown.length > 0) throw unknownKeysError(unknown, 'overrides', unknown[0]!);
  for (const setting of SETTING_NAMES) {
    const value: unknown = overrides[setting];
    if (value === undefined) continue;
    const flag = specOf(setting).flag ?? `--${setting}`;
    layer[setting] = { value, source: kind === 'flag' ? { kind, flag } : { kind } };
  }
  return layer;
}

// `"procedures": { "minToolCalls": 3 }` → proceduresMinToolCalls, `"schedule": { "cleanup": … }`
// → scheduleCleanup: the registry's sections.
const SECTION_KEYS: Record<string, Record<string, Setting>> = {};
for (const setting of SETTING_NAMES) {
  const section = specOf(setting).section;
  if (section === undefined) continue;
  const keys = SECTION_KEYS[section.name] ?? {};
  keys[section.key] = setting;
  SECTION_KEYS[section.name] = keys;
}

const SECTION_EXAMPLES: Record<string, { example: string; suggestion: string }> = {
  procedures: {
    example: '{"min_tool_calls": 3}',
    suggestion:
      'Write e.g. "procedures": {"enabled": true, "min_tool_calls": 3, "similarity_threshold": 0.5, "update_threshold": 0.7, "max_per_prompt": 2}.',
  },
  schedule: {
    example: '{"cleanup": "0 3 * * *"}',
    suggestion: 'Write e.g. "schedule": {"cleanup": "0 3 * * *", "consolidate": "30 3 * * *"}.',
  },
};

/**
 * The file's sections become flat settings: the seed's `[procedures]` section, written as
 * `"procedures": { "min_tool_calls": 3, … }` (snake_case as in the seed, or camelCase), and
 * `"schedule": { "cleanup": "0 3 * * *", "consolidate": … }`.
 */
function withSections(record: Record<string, unknown>, path: string): Record<string, unknown> {
  const rest: Record<string, unknown> = { ...record };
  for (const [name, keys] of Object.entries(SECTION_KEYS)) {
    if (!Object.hasOwn(record, name)) continue;
    const section = record[name];
    delete rest[name];
    const { example, suggestion } = SECTION_EXAMPLES[name]!;
    if (typeof section !== 'object' || section === null || Array.isArray(section)) {
      throw new ConfigError(`"${name}" in file ${path} must be an object, e.g. ${example}`, {
        component: COMPONENT,
        field: name,
        suggestion,
      });
    }
    for (const [key, value] of Object.entries(section)) {
      const camel = key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
      const setting = Object.hasOwn(keys, camel) ? keys[camel] : undefined;
      if (setting === undefined) throw unknownKeysError([`${name}.${key}`], `file ${path}`, `${name}.${key}`);
      rest[setting] = value;
    }
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
  const record = withSections(data as Record<string, unknown>, path);
  const unknown = Object.keys(record).filter((key) => !Object.hasOwn(SETTINGS, key));
  if (unknown.length > 0) throw unknownKeysError(unknown, `file ${path}`, unknown[0]!);
  const envOnly = SETTING_NAMES.find((setting) => specOf(setting).file === false && Object.hasOwn(record, setting));
  if (envOnly !== undefined) {
    throw new ConfigError(`"${envOnly}" in file ${path} is a secret, read from ${specOf(envOnly).env} only`, {
      component: COMPONENT,
      field: envOnly,
      suggestion: `Remove "${envOnly}" from ${path} and set ${specOf(envOnly).env} in the environment instead.`,
    });
  }
  const layer: Layer = {};
  for (const setting of SETTING_NAMES) {
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
        : source.kind === 'flag'
          ? '--home'
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
 * format (e.g. `retentionDays must be a positive number of days, e.g. 30; got -5
 * from file /home/me/.memoir/config.json`); also for an unknown setting, unparsable JSON,
 * a missing file named by `options.file` or `MEMOIR_CONFIG`, or a home that is a file.
 * @group Configuration
 */
export function loadConfig(options: LoadConfigOptions = {}): LoadedConfig {
  const env = options.env ?? processEnvironment();
  const logger = options.logger;

  const overrideLayer = { ...readOverrideLayer(options.flags, 'flag'), ...readOverrideLayer(options.overrides) };
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
  for (const setting of SETTING_NAMES) {
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

  for (const setting of SETTING_NAMES) {
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
