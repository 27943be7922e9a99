/**
 * The shape of memoir's settings, one field per registry row, each documented once here:
 * `MemoirConfig` is derived from this schema, and the table in docs/guides/configuration.md
 * takes each setting's "what it does" from these comments (scripts/write-config-table.ts).
 *
 * @module
 */
import { z } from 'zod';
import { SETTINGS, type SettingSpec } from './setting-registry.js';

// The registry's schema with its default: the field's type and default come from one row.
const field = <S extends z.ZodType>(spec: SettingSpec<S>) => spec.schema.default(spec.default as never);

/** The zod schema of {@link MemoirConfig}; the type and defaults come from the settings registry. */
export const memoirConfigSchema = z
  .object({
    /**
     * Directory holding memoir's files (`memoir.sqlite`, `procedures/`, `config.json`, …). A
     * leading `~` is the user's home directory; {@link loadConfig} returns an absolute path (a
     * relative one in a config file is relative to that file).
     */
    home: field(SETTINGS.home),
    /**
     * Days cleanup keeps a memory after memoir last learned or used it; only memories of an
     * origin in `retentionAppliesTo` expire (by default those capture recorded), and bookmarked
     * ones never do.
     */
    retentionDays: field(SETTINGS.retentionDays),
    /** Storage quota `stats()` reports usage against, in megabytes. */
    maxSizeMb: field(SETTINGS.maxSizeMb),
    /** Most memories to keep (storing more evicts the lowest-ranked that may expire), or `null` for no limit. */
    maxMemories: field(SETTINGS.maxMemories),
    /**
     * When `memoir mcp` runs cleanup (retention) each day, as a cron line of a
     * daily run or `HH:MM` in local time (`"schedule": {"cleanup": "0 3 * * *"}` in the file):
     * the seed's "daily at 3 AM" by default; `off` for never. It deletes only what cleanup may:
     * old memories of an origin in `retentionAppliesTo` (auto-captured ones by default), never
     * bookmarked or `manual_save` ones, after a verified backup.
     */
    scheduleCleanup: field(SETTINGS.scheduleCleanup),
    /**
     * When `memoir mcp` merges near-duplicates (consolidate, cosine >= 0.95) each day, in the
     * same form; `null` or `off` (the default): never on a schedule, only when asked.
     */
    scheduleConsolidate: field(SETTINGS.scheduleConsolidate),
    /** Results `recall` returns when the call names no `k`, 1 to 1000. */
    recallK: field(SETTINGS.recallK),
    /** `memoir recall` drops results scoring below this, 0 to 1. */
    recallMinScore: field(SETTINGS.recallMinScore),
    /** Tokens `memoir recall` packs its results into, or `null` for no limit. */
    tokenBudget: field(SETTINGS.tokenBudget),
    /** Least severe level logged (to stderr). */
    logLevel: field(SETTINGS.logLevel),
    /** Whether tool events are captured into memory automatically. Capture is opt-in. */
    captureEnabled: field(SETTINGS.captureEnabled),
    /**
     * The tool sets `memoir mcp` serves when `--tools` names none, separated by commas: `core`,
     * `workspace`, `procedures`, `admin` or `all`; `null` for `core` (and `workspace` with
     * `--workspace`). Hosts send every served tool's definition to the model on each turn.
     */
    mcpTools: field(SETTINGS.mcpTools),
    /**
     * Which embedder the `memoir` command opens the store with: `local` (the built-in hashing
     * embedder) or `openai` (OpenAI's API or any OpenAI-compatible server: Ollama, LM Studio,
     * vLLM, llama.cpp). A store refuses an embedder other than the one it was built with.
     */
    embedderProvider: field(SETTINGS.embedderProvider),
    /**
     * Embedding model of the `openai` provider, e.g. `text-embedding-3-small` or Ollama's
     * `nomic-embed-text`; `null` for the provider's default (`text-embedding-3-small`).
     */
    embedderModel: field(SETTINGS.embedderModel),
    /**
     * Base URL of the OpenAI-compatible API, with its prefix, e.g. `http://127.0.0.1:11434/v1`
     * for Ollama; `null` for `OPENAI_BASE_URL`, else OpenAI's own API.
     */
    embedderBaseUrl: field(SETTINGS.embedderBaseUrl),
    /**
     * Length of the model's vectors: required for a model memoir doesn't know (e.g. 768 for
     * `nomic-embed-text`), optional for OpenAI's; `null` for the model's own.
     */
    embedderDimensions: field(SETTINGS.embedderDimensions),
    /**
     * Name of the environment variable holding the API key, e.g. `MY_OPENAI_KEY`; `null` for
     * `OPENAI_API_KEY`. The key itself never goes into a config file; a server at a custom base
     * URL needs no key.
     */
    embedderApiKeyEnv: field(SETTINGS.embedderApiKeyEnv),
    /**
     * The chat model of every door (the `memoir` command, `memoir mcp`, a zero-configuration
     * `createMemory()`), on an OpenAI-compatible server: it extracts memories from
     * conversations, reflects on finished tasks to write procedures, and merges them, e.g.
     * `gpt-4o-mini`, or `llama3.1` with `baseUrl` pointing at Ollama. `null`: no model (tasks
     * become procedures from their tool calls alone, conversations are kept as episodes).
     */
    model: field(SETTINGS.model),
    /**
     * Base URL of the model's OpenAI-compatible API, with its prefix, e.g.
     * `http://127.0.0.1:11434/v1` for Ollama; `null` for `OPENAI_BASE_URL`, else OpenAI's own API.
     */
    baseUrl: field(SETTINGS.baseUrl),
    /**
     * Name of the environment variable holding the model's API key; `null` for `MEMOIR_API_KEY`,
     * else `OPENAI_API_KEY`. The key itself is never a setting, a flag or a logged value; a
     * server at a custom `baseUrl` needs none.
     */
    apiKeyEnv: field(SETTINGS.apiKeyEnv),
    /** Learn procedures from finished tasks (the seed's `[procedures] enabled`). */
    proceduresEnabled: field(SETTINGS.proceduresEnabled),
    /**
     * Chat model name for reflections (`reflection_model`), e.g. `gpt-4o-mini`, served where
     * `model` is (`baseUrl`, the same key); `null` for `model` itself.
     */
    proceduresReflectionModel: field(SETTINGS.proceduresReflectionModel),
    /** Fewest tool calls a task needs before it is worth reflecting on (`min_tool_calls`). */
    proceduresMinToolCalls: field(SETTINGS.proceduresMinToolCalls),
    /**
     * Least similarity for a procedure to go into a prompt (`similarity_threshold`), 0 to 1;
     * `null` for the embedder's default (0.5 semantic, calibrated for the local one).
     */
    proceduresSimilarityThreshold: field(SETTINGS.proceduresSimilarityThreshold),
    /**
     * Least similarity at which a new procedure updates a stored one (`update_threshold`), 0 to
     * 1; `null` for the embedder's default (0.7 semantic).
     */
    proceduresUpdateThreshold: field(SETTINGS.proceduresUpdateThreshold),
    /** Procedures put into one prompt (`max_per_prompt`). */
    proceduresMaxPerPrompt: field(SETTINGS.proceduresMaxPerPrompt),
  })
  .strict();

/**
 * memoir's settings, after defaults are applied: what {@link loadConfig} reads from the config
 * file, the environment and the `memoir` command's flags. Every setting, its sources and its
 * default are listed in the configuration guide (docs/guides/configuration.md).
 *
 * @group Configuration
 */
export type MemoirConfig = z.output<typeof memoirConfigSchema>;

/**
 * The default settings. `home` is `~/.memoir` here; {@link loadConfig} expands the `~`.
 *
 * @group Configuration
 */
export const DEFAULT_CONFIG: Readonly<MemoirConfig> = Object.freeze(memoirConfigSchema.parse({}));
