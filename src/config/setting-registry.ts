/**
 * The registry of memoir's settings: for each one, where it is read from (config file key,
 * environment variable, CLI flag), which createMemory option it becomes, and its value schema
 * and default — taken from the core's option schemas wherever an option exists, so a default
 * such as `retentionDays: 30` is written once. The config loader, the environment and flag
 * parsers, {@link memoryOptionsFromConfig} and the table in docs/guides/configuration.md all
 * read this one table.
 *
 * @module
 */
import { z } from 'zod';
import { captureOptionsSchema } from '../core/capture/capture-options.js';
import { memoryOptionsSchema } from '../core/client/memory-options.js';
import { procedureOptionsSchema } from '../core/procedures/procedure-options.js';
import { isHttpUrl } from '../core/utils/http-url.js';
import { dailyTimeSchema } from './daily-time.js';
import { TOOL_SET_CHOICES_TEXT, toolSetListSchema } from './mcp-tool-sets.js';

/**
 * The embedder providers `embedderProvider` names: `local` (hashing, the default), `openai` (any
 * OpenAI-compatible server), `use` (the Universal Sentence Encoder from npm, offline).
 */
export const EMBEDDER_PROVIDERS = ['local', 'openai', 'use'] as const;

/** One of {@link EMBEDDER_PROVIDERS}. */
export type EmbedderProvider = (typeof EMBEDDER_PROVIDERS)[number];

/** Levels `logLevel` accepts, least to most verbose. */
export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;

/**
 * How a text value (an environment variable or a CLI flag) becomes the setting's value:
 * `path` and `text` are trimmed, `lowercase` is trimmed and lower-cased (enums), `number`
 * and `boolean` are parsed.
 */
export type SettingText = 'path' | 'text' | 'lowercase' | 'number' | 'boolean';

/** One row of the registry. */
export interface SettingSpec<S extends z.ZodType = z.ZodType> {
  /** The value's schema; accepts `null` where `null` means "none" or "no limit". */
  schema: S;
  /** The value when no source sets it. */
  default: z.output<S>;
  /** How a text value (environment, flag) is parsed. */
  text: SettingText;
  /** Environment variable, e.g. `MEMOIR_RETENTION_DAYS`. */
  env: string;
  /** Older variables read when {@link env} is unset. */
  envAliases?: readonly string[];
  /** A section of the config file that may hold it too, e.g. `procedures` → `"procedures": { "min_tool_calls": 3 }`. */
  section?: { name: 'procedures' | 'schedule'; key: string };
  /** The global `memoir` flag that sets it for one run, e.g. `--retention-days`. */
  flag?: `--${string}`;
  /** The createMemory option it becomes (dotted path), e.g. `procedures.minToolCalls`. */
  option?: string;
  /** Who reads it, when it is not a createMemory option. */
  readBy?: string;
  /** What it expects, in the words of an error message. */
  expects: string;
  /** A valid value, as it is written in the environment. */
  example: string;
  /** A bad value might be a secret pasted in the wrong place: errors don't show it. */
  secret?: boolean;
}

// The option's own schema and default: `x.default(d)` → x and d; `x.optional()` → x.nullable() and null.
function fromOption<S extends z.ZodType>(field: z.ZodDefault<S>): { schema: S; default: z.output<S> };
function fromOption<S extends z.ZodType>(field: z.ZodOptional<S>): { schema: z.ZodNullable<S>; default: null };
function fromOption(field: z.ZodDefault<z.ZodType> | z.ZodOptional<z.ZodType>): {
  schema: z.ZodType;
  default: unknown;
} {
  if (field instanceof z.ZodDefault) return { schema: field.unwrap(), default: field.parse(undefined) };
  return { schema: field.unwrap().nullable(), default: null };
}

const define = <S extends z.ZodType>(spec: SettingSpec<S>): SettingSpec<S> => spec;

const options = memoryOptionsSchema.shape;
const procedures = procedureOptionsSchema.shape;
const modelName = z.string().trim().min(1).max(256).nullable();
const CLI = 'the `memoir` command (and `memoir mcp`)';
const MODEL_READERS = 'the `memoir` command, `memoir mcp` and a zero-configuration `createMemory()`';
const variableName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
  .max(128)
  .nullable();

/** Every setting, in the order the docs list them. */
export const SETTINGS = {
  home: define({
    schema: z.string().min(1),
    default: '~/.memoir',
    text: 'path',
    env: 'MEMOIR_HOME',
    envAliases: ['MEMORY_STORAGE_PATH'],
    flag: '--home',
    option: 'home',
    expects: 'a directory path',
    example: '~/.memoir',
  }),
  retentionDays: define({
    ...fromOption(options.retentionDays),
    text: 'number',
    env: 'MEMOIR_RETENTION_DAYS',
    flag: '--retention-days',
    option: 'retentionDays',
    expects: 'a positive number of days',
    example: '30',
  }),
  maxSizeMb: define({
    ...fromOption(options.maxSizeMb),
    text: 'number',
    env: 'MEMOIR_MAX_SIZE_MB',
    flag: '--max-size-mb',
    option: 'maxSizeMb',
    expects: 'a positive number of megabytes',
    example: '500',
  }),
  maxMemories: define({
    ...fromOption(options.maxMemories),
    text: 'number',
    env: 'MEMOIR_MAX_MEMORIES',
    flag: '--max-memories',
    option: 'maxMemories',
    expects: 'a positive whole number, or null for no limit',
    example: '100000',
  }),
  scheduleCleanup: define({
    schema: dailyTimeSchema,
    default: '0 3 * * *',
    text: 'text',
    env: 'MEMOIR_SCHEDULE_CLEANUP',
    section: { name: 'schedule', key: 'cleanup' },
    readBy: '`memoir mcp` (a long-running server: cleanup runs daily then)',
    expects: 'a daily time ("M H * * *" as in cron, or "HH:MM"), or "off"',
    example: '0 3 * * *',
  }),
  scheduleConsolidate: define({
    schema: dailyTimeSchema,
    default: null,
    text: 'text',
    env: 'MEMOIR_SCHEDULE_CONSOLIDATE',
    section: { name: 'schedule', key: 'consolidate' },
    readBy: '`memoir mcp` (a long-running server: consolidate runs daily then)',
    expects: 'a daily time ("M H * * *" as in cron, or "HH:MM"), or "off"/null',
    example: '30 3 * * *',
  }),
  recallK: define({
    ...fromOption(options.recallK),
    text: 'number',
    env: 'MEMOIR_RECALL_K',
    option: 'recallK',
    expects: 'a whole number from 1 to 1000',
    example: '10',
  }),
  recallMinScore: define({
    schema: z.number().min(0).max(1),
    default: 0,
    text: 'number',
    env: 'MEMOIR_RECALL_MIN_SCORE',
    readBy: '`memoir recall` (the default of `--min-score`)',
    expects: 'a number from 0 to 1',
    example: '0.2',
  }),
  tokenBudget: define({
    schema: z.number().int().positive().nullable(),
    default: null,
    text: 'number',
    env: 'MEMOIR_TOKEN_BUDGET',
    readBy: '`memoir recall` (the default of `--token-budget`)',
    expects: 'a positive whole number of tokens, or null for no limit',
    example: '2000',
  }),
  logLevel: define({
    schema: z.enum(LOG_LEVELS),
    default: 'warn',
    text: 'lowercase',
    env: 'MEMOIR_LOG_LEVEL',
    option: 'logger',
    expects: `one of ${LOG_LEVELS.map((level) => `"${level}"`).join(', ')}`,
    example: 'info',
  }),
  captureEnabled: define({
    ...fromOption(captureOptionsSchema.shape.enabled),
    text: 'boolean',
    env: 'MEMOIR_CAPTURE_ENABLED',
    option: 'capture.enabled',
    expects: 'true or false',
    example: 'true',
  }),
  mcpTools: define({
    schema: toolSetListSchema,
    default: null,
    text: 'lowercase',
    env: 'MEMOIR_MCP_TOOLS',
    readBy: '`memoir mcp` (the default of `--tools`)',
    expects: `tool sets separated by commas (${TOOL_SET_CHOICES_TEXT}), or null for core (core,workspace with --workspace)`,
    example: 'core,procedures',
  }),
  embedderProvider: define({
    schema: z.enum(EMBEDDER_PROVIDERS),
    default: 'local',
    text: 'lowercase',
    env: 'MEMOIR_EMBEDDER_PROVIDER',
    flag: '--embedder-provider',
    readBy: CLI,
    expects: `one of ${EMBEDDER_PROVIDERS.map((name) => `"${name}"`).join(', ')}`,
    example: 'openai',
  }),
  embedderModel: define({
    schema: modelName,
    default: null,
    text: 'text',
    env: 'MEMOIR_EMBEDDER_MODEL',
    readBy: CLI,
    expects: 'a model name, or null for the default',
    example: 'text-embedding-3-small',
  }),
  embedderBaseUrl: define({
    schema: z.string().refine(isHttpUrl).nullable(),
    default: null,
    text: 'text',
    env: 'MEMOIR_EMBEDDER_BASE_URL',
    readBy: CLI,
    expects: 'an http(s) URL, or null for the default',
    example: 'http://127.0.0.1:11434/v1',
  }),
  embedderDimensions: define({
    schema: z.number().int().positive().max(65_536).nullable(),
    default: null,
    text: 'number',
    env: 'MEMOIR_EMBEDDER_DIMENSIONS',
    readBy: CLI,
    expects: 'a whole number from 1 to 65536, or null for the model’s own',
    example: '768',
  }),
  embedderApiKeyEnv: define({
    schema: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
      .max(128)
      .nullable(),
    default: null,
    text: 'text',
    env: 'MEMOIR_EMBEDDER_API_KEY_ENV',
    readBy: CLI,
    expects: 'the name of the environment variable holding the API key (never the key itself), or null',
    example: 'OPENAI_API_KEY',
    secret: true,
  }),
  model: define({
    schema: modelName,
    default: null,
    text: 'text',
    env: 'MEMOIR_MODEL',
    flag: '--model',
    readBy: MODEL_READERS,
    expects: 'a chat model name, or null for none',
    example: 'gpt-4o-mini',
  }),
  baseUrl: define({
    schema: z.string().refine(isHttpUrl).nullable(),
    default: null,
    text: 'text',
    env: 'MEMOIR_BASE_URL',
    flag: '--base-url',
    readBy: MODEL_READERS,
    expects: 'an http(s) URL, or null for OpenAI’s own API',
    example: 'http://127.0.0.1:11434/v1',
  }),
  apiKeyEnv: define({
    schema: variableName,
    default: null,
    text: 'text',
    env: 'MEMOIR_API_KEY_ENV',
    readBy: MODEL_READERS,
    expects: 'the name of the environment variable holding the model’s API key (never the key itself), or null',
    example: 'MY_OPENAI_KEY',
    secret: true,
  }),
  proceduresEnabled: define({
    ...fromOption(procedures.enabled),
    text: 'boolean',
    env: 'MEMOIR_PROCEDURES_ENABLED',
    section: { name: 'procedures', key: 'enabled' },
    option: 'procedures.enabled',
    expects: 'true or false',
    example: 'true',
  }),
  proceduresReflectionModel: define({
    schema: modelName,
    default: null,
    text: 'text',
    env: 'MEMOIR_PROCEDURES_REFLECTION_MODEL',
    section: { name: 'procedures', key: 'reflectionModel' },
    readBy: `${MODEL_READERS}: a chat model of this name on the server of \`model\` (\`baseUrl\`, the same key) reflects on finished tasks`,
    expects: 'a chat model name, or null for the client’s model',
    example: 'gpt-4o-mini',
  }),
  proceduresMinToolCalls: define({
    ...fromOption(procedures.minToolCalls),
    text: 'number',
    env: 'MEMOIR_PROCEDURES_MIN_TOOL_CALLS',
    section: { name: 'procedures', key: 'minToolCalls' },
    option: 'procedures.minToolCalls',
    expects: 'a whole number from 1 to 1000',
    example: '3',
  }),
  proceduresSimilarityThreshold: define({
    ...fromOption(procedures.similarityThreshold),
    text: 'number',
    env: 'MEMOIR_PROCEDURES_SIMILARITY_THRESHOLD',
    section: { name: 'procedures', key: 'similarityThreshold' },
    option: 'procedures.similarityThreshold',
    expects: 'a number from 0 to 1, or null for the embedder’s default',
    example: '0.5',
  }),
  proceduresUpdateThreshold: define({
    ...fromOption(procedures.updateThreshold),
    text: 'number',
    env: 'MEMOIR_PROCEDURES_UPDATE_THRESHOLD',
    section: { name: 'procedures', key: 'updateThreshold' },
    option: 'procedures.updateThreshold',
    expects: 'a number from 0 to 1, or null for the embedder’s default',
    example: '0.7',
  }),
  proceduresMaxPerPrompt: define({
    ...fromOption(procedures.maxPerPrompt),
    text: 'number',
    env: 'MEMOIR_PROCEDURES_MAX_PER_PROMPT',
    section: { name: 'procedures', key: 'maxPerPrompt' },
    option: 'procedures.maxPerPrompt',
    expects: 'a whole number from 1 to 50',
    example: '2',
  }),
} as const;

/** Name of one setting. */
export type Setting = keyof typeof SETTINGS;

/** The settings' names, in registry order. */
export const SETTING_NAMES = Object.keys(SETTINGS) as Setting[];

/** The registry row of `setting`, typed loosely for code that walks every setting. */
export const specOf = (setting: Setting): SettingSpec => SETTINGS[setting] as SettingSpec;

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;
const TRUE = new Set(['true', '1', 'yes']);
const FALSE = new Set(['false', '0', 'no']);

/**
 * Turn a text value (an environment variable, a flag) into the setting's value, unchecked;
 * `undefined` means "not set". Empty or `null` is `null` for a setting that accepts it.
 * A text that does not parse comes back as it was, for the schema to refuse with its words.
 */
export function parseSettingText(setting: Setting, raw: string): unknown {
  const spec = specOf(setting);
  const text = raw.trim();
  if (spec.text === 'path') return text || undefined;
  if (text === '' || text.toLowerCase() === 'null')
    return spec.schema.safeParse(null).success ? null : text || undefined;
  switch (spec.text) {
    case 'boolean': {
      const lower = text.toLowerCase();
      return TRUE.has(lower) ? true : FALSE.has(lower) ? false : raw;
    }
    case 'lowercase':
      return text.toLowerCase();
    case 'text':
      return text;
    case 'number':
      return NUMBER.test(text) ? Number(text) : raw;
  }
}
