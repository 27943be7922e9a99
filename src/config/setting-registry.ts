/**
 * The registry of memoir's settings: for each one, where it is read from (config file key,
 * environment variable, CLI flag), which createMemory option it becomes, its value schema and
 * default — taken from the core's option schemas wherever an option exists, so a default such
 * as `retentionDays: 30` is written once — and, in the comment on its row, what it does. The
 * config file's schema ({@link memoirConfigSchema}), the config loader (one merge of flags,
 * environment, file and defaults for every door), the flag parsers of `memoir`,
 * {@link memoryOptionsFromConfig} and the table in docs/guides/configuration.md all read this
 * one table. Every door reads the environment through here (or {@link processEnvironment}).
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
import { defineSetting as define, fromOption, oneOf, type SettingSpec } from './setting-spec.js';

export {
  childEnvironment,
  type Environment,
  processEnvironment,
} from '../core/utils/environment.js';
export type { SettingSpec, SettingText } from './setting-spec.js';

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
 * The stores a door that keeps memories in memoir's home can open (`store`): `sqlite` (the
 * default, `<home>/memoir.sqlite`) and `lancedb` (`<home>/lancedb`, with `@lancedb/lancedb`
 * and `apache-arrow` installed). The in-memory store is for tests and embedding code: a
 * command's memories would be gone when it exits.
 */
export const STORE_KINDS = ['sqlite', 'lancedb'] as const;

/** One of {@link STORE_KINDS}. */
export type StoreKind = (typeof STORE_KINDS)[number];

/** Where a store of `kind` keeps its files under memoir's home. */
export const STORE_LOCATIONS: Readonly<Record<StoreKind, string>> = { sqlite: 'memoir.sqlite', lancedb: 'lancedb' };

const options = memoryOptionsSchema.shape;
const procedures = procedureOptionsSchema.shape;
const modelName = z.string().trim().min(1).max(256).nullable();
const httpUrl = z.string().refine(isHttpUrl).nullable();
// A scope field, as the core's scope schema bounds it; `null`: every scope.
const scopeField = z.string().trim().min(1).max(256).nullable();
const CLI = 'the `memoir` command (and `memoir mcp`)';
const DOORS = 'the `memoir` command, `memoir mcp` and `memoir ui`';
const MODEL_READERS = 'the `memoir` command, `memoir mcp` and a zero-configuration `createMemory()`';
const VIDEO_READERS = '`memoir recall-video` and `memoir mcp` (memory_recall_steps)';
const variableName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
  .max(128)
  .nullable();

/** Every setting, in the order the docs list them; the comment on each row says what it does. */
export const SETTINGS = {
  /**
   * Directory holding memoir's files (the store: `memoir.sqlite` or `lancedb/`; `procedures/`, `config.json`, …). A
   * leading `~` is the user's home directory; {@link loadConfig} returns an absolute path (a
   * relative one in a config file is relative to that file).
   */
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
  /**
   * The store the `memoir` command, `memoir mcp` and `memoir ui` keep memories in, under
   * `home`: `sqlite` (`<home>/memoir.sqlite`, no extra install) or `lancedb` (the directory
   * `<home>/lancedb`; `npm install @lancedb/lancedb apache-arrow`). Each is a store of its
   * own: switching does not move memories (`memoir export` then `import` does).
   */
  store: define({
    schema: z.enum(STORE_KINDS),
    default: 'sqlite',
    text: 'lowercase',
    env: 'MEMOIR_STORE',
    flag: '--store',
    readBy: DOORS,
    expects: oneOf(STORE_KINDS),
    example: 'lancedb',
  }),
  /**
   * The user every command acts as (`--user`): it reads and changes only their memories.
   * With `agentId` and `namespace` `null` too, a command acts on every scope.
   */
  userId: define({
    schema: scopeField,
    default: null,
    text: 'name',
    env: 'MEMOIR_USER_ID',
    flag: '--user',
    readBy: DOORS,
    expects: 'a user id (1 to 256 characters), or null for none',
    example: 'alice',
  }),
  /** The agent every command acts as (`--agent`), or `null` for none. */
  agentId: define({
    schema: scopeField,
    default: null,
    text: 'name',
    env: 'MEMOIR_AGENT_ID',
    flag: '--agent',
    readBy: DOORS,
    expects: 'an agent id (1 to 256 characters), or null for none',
    example: 'support-bot',
  }),
  /** The namespace every command acts inside (`--namespace`): a project, a workspace, a tenant; `null` for none. */
  namespace: define({
    schema: scopeField,
    default: null,
    text: 'name',
    env: 'MEMOIR_NAMESPACE',
    flag: '--namespace',
    readBy: DOORS,
    expects: 'a namespace (1 to 256 characters), or null for none',
    example: 'project-x',
  }),
  /**
   * Days cleanup keeps a memory after memoir last learned or used it; only memories of an
   * origin in `retentionAppliesTo` expire (by default those capture recorded), and bookmarked
   * ones never do.
   */
  retentionDays: define({
    ...fromOption(options.retentionDays),
    text: 'number',
    env: 'MEMOIR_RETENTION_DAYS',
    flag: '--retention-days',
    option: 'retentionDays',
    expects: 'a positive number of days',
    example: '30',
  }),
  /** Storage quota `stats()` reports usage against, in megabytes. */
  maxSizeMb: define({
    ...fromOption(options.maxSizeMb),
    text: 'number',
    env: 'MEMOIR_MAX_SIZE_MB',
    flag: '--max-size-mb',
    option: 'maxSizeMb',
    expects: 'a positive number of megabytes',
    example: '500',
  }),
  /** Most memories to keep (storing more evicts the lowest-ranked that may expire), or `null` for no limit. */
  maxMemories: define({
    ...fromOption(options.maxMemories),
    text: 'number',
    env: 'MEMOIR_MAX_MEMORIES',
    flag: '--max-memories',
    option: 'maxMemories',
    expects: 'a positive whole number, or null for no limit',
    example: '100000',
  }),
  /**
   * When `memoir mcp` runs cleanup (retention) each day, as a cron line of a
   * daily run or `HH:MM` in local time (`"schedule": {"cleanup": "0 3 * * *"}` in the file):
   * the seed's "daily at 3 AM" by default; `off` for never. It deletes only what cleanup may:
   * old memories of an origin in `retentionAppliesTo` (auto-captured ones by default), never
   * bookmarked or `manual_save` ones, after a verified backup.
   */
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
  /**
   * When `memoir mcp` merges near-duplicates (consolidate, cosine >= 0.95) each day, in the
   * same form; `null` or `off` (the default): never on a schedule, only when asked.
   */
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
  /** Results `recall` returns when the call names no `k`, 1 to 1000. */
  recallK: define({
    ...fromOption(options.recallK),
    text: 'number',
    env: 'MEMOIR_RECALL_K',
    option: 'recallK',
    expects: 'a whole number from 1 to 1000',
    example: '10',
  }),
  /** `memoir recall` drops results scoring below this, 0 to 1. */
  recallMinScore: define({
    schema: z.number().min(0).max(1),
    default: 0,
    text: 'number',
    env: 'MEMOIR_RECALL_MIN_SCORE',
    readBy: '`memoir recall` (the default of `--min-score`)',
    expects: 'a number from 0 to 1',
    example: '0.2',
  }),
  /** Tokens `memoir recall` packs its results into, or `null` for no limit. */
  tokenBudget: define({
    schema: z.number().int().positive().nullable(),
    default: null,
    text: 'number',
    env: 'MEMOIR_TOKEN_BUDGET',
    readBy: '`memoir recall` (the default of `--token-budget`)',
    expects: 'a positive whole number of tokens, or null for no limit',
    example: '2000',
  }),
  /** Least severe level logged (to stderr). */
  logLevel: define({
    schema: z.enum(LOG_LEVELS),
    default: 'warn',
    text: 'lowercase',
    env: 'MEMOIR_LOG_LEVEL',
    option: 'logger',
    expects: oneOf(LOG_LEVELS),
    example: 'info',
  }),
  /** Whether tool events are captured into memory automatically. Capture is opt-in. */
  captureEnabled: define({
    ...fromOption(captureOptionsSchema.shape.enabled),
    text: 'boolean',
    env: 'MEMOIR_CAPTURE_ENABLED',
    option: 'capture.enabled',
    expects: 'true or false',
    example: 'true',
  }),
  /**
   * The tool sets `memoir mcp` serves when `--tools` names none, separated by commas: `core`,
   * `workspace`, `procedures`, `admin` or `all`; `null` for `core` (and `workspace` with
   * `--workspace`). Hosts send every served tool's definition to the model on each turn.
   */
  mcpTools: define({
    schema: toolSetListSchema,
    default: null,
    text: 'lowercase',
    env: 'MEMOIR_MCP_TOOLS',
    readBy: '`memoir mcp` (the default of `--tools`)',
    expects: `tool sets separated by commas (${TOOL_SET_CHOICES_TEXT}), or null for core (core,workspace with --workspace)`,
    example: 'core,procedures',
  }),
  /**
   * The bearer token HTTP clients of `memoir mcp --http` send when `--token` names none;
   * `null`: a new one is made for each run and printed on stderr. A secret: it is read from
   * the environment only, never from config.json, and never printed.
   */
  mcpToken: define({
    schema: z.string().trim().min(16).max(1024).nullable(),
    default: null,
    text: 'text',
    env: 'MEMOIR_MCP_TOKEN',
    file: false,
    readBy: '`memoir mcp --http` (the default of `--token`)',
    expects: 'a token of at least 16 characters, or null for a new one each run',
    example: 'a-long-random-token-0123456789',
    redact: true,
  }),
  /**
   * Which embedder the `memoir` command opens the store with: `local` (the built-in hashing
   * embedder) or `openai` (OpenAI's API or any OpenAI-compatible server: Ollama, LM Studio,
   * vLLM, llama.cpp). A store refuses an embedder other than the one it was built with.
   */
  embedderProvider: define({
    schema: z.enum(EMBEDDER_PROVIDERS),
    default: 'local',
    text: 'lowercase',
    env: 'MEMOIR_EMBEDDER_PROVIDER',
    flag: '--embedder-provider',
    readBy: CLI,
    expects: oneOf(EMBEDDER_PROVIDERS),
    example: 'openai',
  }),
  /**
   * Embedding model of the `openai` provider, e.g. `text-embedding-3-small` or Ollama's
   * `nomic-embed-text`; `null` for the provider's default (`text-embedding-3-small`).
   */
  embedderModel: define({
    schema: modelName,
    default: null,
    text: 'text',
    env: 'MEMOIR_EMBEDDER_MODEL',
    readBy: CLI,
    expects: 'a model name, or null for the default',
    example: 'text-embedding-3-small',
  }),
  /**
   * Base URL of the OpenAI-compatible API, with its prefix, e.g. `http://127.0.0.1:11434/v1`
   * for Ollama; `null` for `OPENAI_BASE_URL`, else OpenAI's own API.
   */
  embedderBaseUrl: define({
    schema: httpUrl,
    default: null,
    text: 'text',
    env: 'MEMOIR_EMBEDDER_BASE_URL',
    readBy: CLI,
    expects: 'an http(s) URL, or null for the default',
    example: 'http://127.0.0.1:11434/v1',
  }),
  /**
   * Length of the model's vectors: required for a model memoir doesn't know (e.g. 768 for
   * `nomic-embed-text`), optional for OpenAI's; `null` for the model's own.
   */
  embedderDimensions: define({
    schema: z.number().int().positive().max(65_536).nullable(),
    default: null,
    text: 'number',
    env: 'MEMOIR_EMBEDDER_DIMENSIONS',
    readBy: CLI,
    expects: 'a whole number from 1 to 65536, or null for the model’s own',
    example: '768',
  }),
  /**
   * Name of the environment variable holding the API key, e.g. `MY_OPENAI_KEY`; `null` for
   * `OPENAI_API_KEY`. The key itself never goes into a config file; a server at a custom base
   * URL needs no key.
   */
  embedderApiKeyEnv: define({
    schema: variableName,
    default: null,
    text: 'text',
    env: 'MEMOIR_EMBEDDER_API_KEY_ENV',
    readBy: CLI,
    expects: 'the name of the environment variable holding the API key (never the key itself), or null',
    example: 'OPENAI_API_KEY',
    secret: true,
  }),
  /**
   * The chat model of every door (the `memoir` command, `memoir mcp`, a zero-configuration
   * `createMemory()`), on an OpenAI-compatible server: it extracts memories from
   * conversations, reflects on finished tasks to write procedures, and merges them, e.g.
   * `gpt-4o-mini`, or `llama3.1` with `baseUrl` pointing at Ollama. `null`: no model (tasks
   * become procedures from their tool calls alone, conversations are kept as episodes).
   */
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
  /**
   * Base URL of the model's OpenAI-compatible API, with its prefix, e.g.
   * `http://127.0.0.1:11434/v1` for Ollama; `null` for `OPENAI_BASE_URL`, else OpenAI's own API.
   */
  baseUrl: define({
    schema: httpUrl,
    default: null,
    text: 'text',
    env: 'MEMOIR_BASE_URL',
    flag: '--base-url',
    readBy: MODEL_READERS,
    expects: 'an http(s) URL, or null for OpenAI’s own API',
    example: 'http://127.0.0.1:11434/v1',
  }),
  /**
   * Name of the environment variable holding the model's API key; `null` for `MEMOIR_API_KEY`,
   * else `OPENAI_API_KEY`. The key itself is never a setting, a flag or a logged value; a
   * server at a custom `baseUrl` needs none.
   */
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
  /**
   * The vision-capable chat model that names each action between a recording's key frames
   * (`memoir recall-video`, memory_recall_steps), e.g. `gpt-4o-mini`; `null`: steps come from
   * the recordings' captions. Its key is read as the adapter reads one (`OPENAI_API_KEY`).
   */
  visionModel: define({
    schema: modelName,
    default: null,
    text: 'text',
    env: 'MEMOIR_VISION_MODEL',
    readBy: VIDEO_READERS,
    expects: 'a vision-capable chat model name, or null for none',
    example: 'gpt-4o-mini',
  }),
  /** Base URL of the vision model's OpenAI-compatible API; `null` for `OPENAI_BASE_URL`, else OpenAI's own API. */
  visionBaseUrl: define({
    schema: httpUrl,
    default: null,
    text: 'text',
    env: 'MEMOIR_VISION_BASE_URL',
    readBy: VIDEO_READERS,
    expects: 'an http(s) URL, or null for the default',
    example: 'http://127.0.0.1:11434/v1',
  }),
  /** Learn procedures from finished tasks (the seed's `[procedures] enabled`). */
  proceduresEnabled: define({
    ...fromOption(procedures.enabled),
    text: 'boolean',
    env: 'MEMOIR_PROCEDURES_ENABLED',
    section: { name: 'procedures', key: 'enabled' },
    option: 'procedures.enabled',
    expects: 'true or false',
    example: 'true',
  }),
  /**
   * Chat model name for reflections (`reflection_model`), e.g. `gpt-4o-mini`, served where
   * `model` is (`baseUrl`, the same key); `null` for `model` itself.
   */
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
  /** Fewest tool calls a task needs before it is worth reflecting on (`min_tool_calls`). */
  proceduresMinToolCalls: define({
    ...fromOption(procedures.minToolCalls),
    text: 'number',
    env: 'MEMOIR_PROCEDURES_MIN_TOOL_CALLS',
    section: { name: 'procedures', key: 'minToolCalls' },
    option: 'procedures.minToolCalls',
    expects: 'a whole number from 1 to 1000',
    example: '3',
  }),
  /**
   * Least similarity for a procedure to go into a prompt (`similarity_threshold`), 0 to 1;
   * `null` for the embedder's default (0.5 semantic, calibrated for the local one).
   */
  proceduresSimilarityThreshold: define({
    ...fromOption(procedures.similarityThreshold),
    text: 'number',
    env: 'MEMOIR_PROCEDURES_SIMILARITY_THRESHOLD',
    section: { name: 'procedures', key: 'similarityThreshold' },
    option: 'procedures.similarityThreshold',
    expects: 'a number from 0 to 1, or null for the embedder’s default',
    example: '0.5',
  }),
  /**
   * Least similarity at which a new procedure updates a stored one (`update_threshold`), 0 to
   * 1; `null` for the embedder's default (0.7 semantic).
   */
  proceduresUpdateThreshold: define({
    ...fromOption(procedures.updateThreshold),
    text: 'number',
    env: 'MEMOIR_PROCEDURES_UPDATE_THRESHOLD',
    section: { name: 'procedures', key: 'updateThreshold' },
    option: 'procedures.updateThreshold',
    expects: 'a number from 0 to 1, or null for the embedder’s default',
    example: '0.7',
  }),
  /** Procedures put into one prompt (`max_per_prompt`). */
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
  if (spec.text === 'path' || spec.text === 'name') return text || undefined;
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
