import { z } from 'zod';
import { EXTRACTION_DEFAULTS, extractionSettings } from '../../config/door-defaults.js';
import { type Environment, processEnvironment, SETTINGS } from '../../config/setting-registry.js';
import { parseOptions } from '../../core/utils/parse-options.js';

// The plugin's config, `plugins.entries.memoir.config` in openclaw.json: the seed design's
// keys (embedding, llm, dbPath, autoCapture, autoRecall, recallLimit, recallMinScore,
// extractMinMessages, extractMaxChars) plus the store and a few memoir settings. Parsed once,
// in register(); openclaw.plugin.json carries the same schema as JSON (a unit test keeps the
// two equal). A key that is one of memoir's settings takes that setting's schema (and default)
// from the settings registry: docs/guides/openclaw.md maps each key to its registry row.

// A literal `${NAME}` is the syntax these texts describe, not a template.
const REFERENCE = '$' + '{NAME}';
const apiKey = z
  .string()
  .min(1, `expected a key, or ${REFERENCE} to read one from the environment variable NAME`)
  .describe(`API key: a literal, or ${REFERENCE} to read the environment variable NAME (e.g. $` + '{OPENAI_API_KEY}).');
const baseUrl = z
  .string()
  .regex(/^https?:\/\/\S+$/, 'expected an http(s) URL such as http://127.0.0.1:11434/v1')
  .describe(
    'Base URL of an OpenAI-compatible API (Ollama, LM Studio, vLLM, a gateway), e.g. http://127.0.0.1:11434/v1.',
  );

/** Schema of the plugin's config. */
export const openClawConfigSchema = z
  .object({
    /** A neural embedder (OpenAI-compatible). Without an API key or baseUrl the local embedder runs, offline. */
    embedding: z
      .object({
        /**
         * `openai` (default when a key or baseUrl is given): an OpenAI-compatible server; `use`:
         * the Universal Sentence Encoder from npm, offline (its packages installed beside memoir).
         */
        provider: z
          .enum(['openai', 'use'])
          .optional()
          .describe(
            'openai (an OpenAI-compatible server) or use (the Universal Sentence Encoder from npm, offline). Default openai when a key or baseUrl is given.',
          ),
        /** Embedding model (the `embedderModel` setting). Default `text-embedding-3-small`. */
        model: SETTINGS.embedderModel.schema
          .unwrap()
          .optional()
          .describe('Embedding model. Default text-embedding-3-small.'),
        /** API key: a literal, or `${NAME}` to read the environment variable NAME. */
        apiKey: apiKey.optional(),
        /** Base URL of an OpenAI-compatible API, e.g. `http://127.0.0.1:11434/v1`. */
        baseUrl: baseUrl.optional(),
        /** Vector length; required for models other than OpenAI's `text-embedding-3-*`. */
        dimensions: SETTINGS.embedderDimensions.schema
          .unwrap()
          .optional()
          .describe('Vector length; required for models other than OpenAI text-embedding-3-*.'),
      })
      .strict()
      .optional()
      .describe('A neural embedder. Without an API key or baseUrl, the local embedder runs offline.'),
    /** The extraction model (OpenAI-compatible). Without an API key or baseUrl, conversations are kept as episodes. */
    llm: z
      .object({
        /** Chat model for extraction, dedup and merge (the `model` setting). Default `gpt-4o-mini`. */
        model: SETTINGS.model.schema
          .unwrap()
          .optional()
          .describe('Chat model for extraction, dedup and merge. Default gpt-4o-mini.'),
        /** API key: a literal, or `${NAME}` to read the environment variable NAME. */
        apiKey: apiKey.optional(),
        /** Base URL of an OpenAI-compatible API, e.g. `http://127.0.0.1:11434/v1`. */
        baseUrl: baseUrl.optional(),
      })
      .strict()
      .optional()
      .describe('The extraction model. Without an API key or baseUrl, conversations are kept as episodes.'),
    /** The `store` setting: `sqlite` (default, no extra install) or `lancedb` (`npm install @lancedb/lancedb apache-arrow`). */
    store: SETTINGS.store.schema
      .default(SETTINGS.store.default)
      .describe('sqlite (default; no extra install) or lancedb (npm install @lancedb/lancedb apache-arrow).'),
    /** Where memories live. Default `<state dir>/memory/memoir.sqlite`, or `<state dir>/memory/memoir-lancedb`. */
    dbPath: z
      .string()
      .min(1)
      .optional()
      .describe(
        'Where memories live. Default <state dir>/memory/memoir.sqlite, or <state dir>/memory/memoir-lancedb for LanceDB.',
      ),
    /** Learn from finished runs (`agent_end`). Default true. */
    autoCapture: z.boolean().default(true).describe('Learn from finished runs (agent_end). Default true.'),
    /** Put recalled experience before each prompt (`before_prompt_build`). Default true. */
    autoRecall: z.boolean().default(true).describe('Put recalled experience before each prompt. Default true.'),
    /** Most memories put before a prompt. Default 5. */
    recallLimit: z.number().int().min(1).max(50).default(5).describe('Most memories put before a prompt. Default 5.'),
    /**
     * The lowest cosine similarity (0..1) between the prompt and a memory for it to be injected,
     * as memory-lancedb's 0.3 means. Judged on the similarity memoir's vector search measured for
     * each result; a result without one (found by words alone, outside the vector search's
     * nearest candidates, or listed for an entity or a date the prompt names) is kept. 0 turns the
     * floor off. Default 0.3.
     */
    recallMinScore: z
      .number()
      .min(0)
      .max(1)
      .default(0.3)
      .describe(
        'Lowest cosine similarity (0..1) between the prompt and a memory for it to be injected, as in memory-lancedb. A result whose similarity was not measured (found by words alone, or listed for an entity or date the prompt names) is kept; 0 turns the floor off. Default 0.3.',
      ),
    /** New messages a session gathers before they are extracted; the rest is stored when the session ends. Default 4 (the library's `extraction.minMessages`). */
    extractMinMessages: z
      .number()
      .int()
      .min(1)
      .max(1000)
      .default(EXTRACTION_DEFAULTS.minMessages)
      .describe(
        `New messages a session must gather before they are extracted. Default ${EXTRACTION_DEFAULTS.minMessages}.`,
      ),
    /** Transcript characters per extraction call; longer runs are split, never cut. Default 8000 (the library's `extraction.maxChars`). */
    extractMaxChars: extractionSettings.maxChars.describe(
      `Transcript characters per extraction call; longer runs are split, never cut. Default ${EXTRACTION_DEFAULTS.maxChars}.`,
    ),
    /** Capture the assistant's replies beside the user's messages. Default true. */
    captureAssistant: z
      .boolean()
      .default(true)
      .describe("Capture the assistant's replies beside the user's messages. Default true."),
    /**
     * Register memory_recall, memory_store, memory_forget, memory_history, memory_correct, memory_recall_steps, memory_read and the session tools (memory_list_sessions, memory_resume_session, memory_delete_session).
     * Unset: registered, unless memory-lancedb is enabled or owns the memory slot (its three tools
     * keep their names, seed 002's side-by-side phase; the log says so). `true` registers them
     * anyway (the host then keeps one tool per clashing name); `false` never.
     */
    registerTools: z
      .boolean()
      .optional()
      .describe(
        'Register memory_recall, memory_store, memory_forget, memory_history, memory_correct, memory_recall_steps, memory_read and the session tools (memory_list_sessions, memory_resume_session, memory_delete_session). Unset: yes, unless memory-lancedb is enabled or owns plugins.slots.memory (then none, and the log says why). true: always (beside memory-lancedb, OpenClaw keeps one tool per clashing name); false: never.',
      ),
    /**
     * The agent's Markdown workspace (memory.md, memory/YYYY-MM-DD.md, bank/): indexed at start,
     * kept current as its files change, reflected on daily, recalled before each prompt.
     * Default: the workspace directory the host gives the agent, when it gives one.
     */
    workspace: z
      .string()
      .min(1)
      .optional()
      .describe(
        "The agent's Markdown workspace: indexed at start, re-indexed as files change, reflected on daily, recalled before each prompt. Default: the agent's workspace directory, when the host gives one.",
      ),
    /**
     * Where memory_recall_steps searches the sender's screen recordings: Memories AI for search,
     * ffmpeg for key frames, and a vision model that names each action. Unset: on when the
     * environment has MEMORIES_AI_API_KEY, else memory_recall_steps answers from steps already cached.
     */
    video: z
      .object({
        /** The Memories AI Datalake key: a literal, or `${NAME}`. Default: env `MEMORIES_AI_API_KEY`. */
        apiKey: z
          .string()
          .min(1, `expected a key, or ${REFERENCE} to read one from the environment variable NAME`)
          .optional()
          .describe(
            `Memories AI Datalake key (sk-mai-…): a literal, or ${REFERENCE} to read the environment variable NAME. Default: the environment's MEMORIES_AI_API_KEY.`,
          ),
        /** The Datalake API root. Default env `MEMORIES_AI_BASE_URL`, else Memories AI's own. */
        baseUrl: z
          .string()
          .regex(/^https?:\/\/\S+$/, 'expected an http(s) URL such as https://api.memories.ai/serve/datalake/v1')
          .optional()
          .describe(
            'Memories AI Datalake API root. Default: MEMORIES_AI_BASE_URL, else https://api.memories.ai/serve/datalake/v1.',
          ),
        /** Most requests a second to Memories AI (its per-account rate limit). Default 1. */
        requestsPerSecond: z
          .number()
          .min(0.01)
          .max(1000)
          .optional()
          .describe('Most requests a second to Memories AI (its per-account limit is about one). Default 1.'),
        /**
         * Who may search the recordings (they show the whole account's screen): `owner` (default)
         * — the gateway's owner, and turns that name no sender outside a group, such as the
         * operator's CLI turns; other senders get only steps already cached for them. `all`: everyone.
         */
        senders: z
          .enum(['owner', 'all'])
          .default('owner')
          .describe(
            "Who may search the recordings: owner (default: the gateway's owner and the operator's sender-less turns; others get only steps cached for them) or all.",
          ),
        /** The vision model naming each action between key frames. Default: the `llm` model. */
        vision: z
          .object({
            /** A vision-capable chat model (the `visionModel` setting), e.g. `gpt-4o-mini`. */
            model: SETTINGS.visionModel.schema.unwrap().describe('A vision-capable chat model, e.g. gpt-4o-mini.'),
            /** API key: a literal, or `${NAME}`. */
            apiKey: apiKey.optional(),
            /** Base URL of an OpenAI-compatible API. */
            baseUrl: baseUrl.optional(),
          })
          .strict()
          .optional()
          .describe(
            "The vision model that names each action between key frames. Default: the llm model; without either, steps come from the recordings' captions.",
          ),
      })
      .strict()
      .optional()
      .describe(
        'Screen recordings for memory_recall_steps: Memories AI search, ffmpeg key frames, a vision model. Unset: on when MEMORIES_AI_API_KEY is set, else memory_recall_steps answers from steps already cached.',
      ),
    /** Longest a prompt waits for recall before going on without it, ms. Default 5000. */
    recallTimeoutMs: z
      .number()
      .int()
      .min(100)
      .max(14_000)
      .default(5000)
      .describe('Longest a prompt waits for recall before going on without it, ms. Default 5000.'),
    /** Keep a core block per sender: put it at the top of every prompt and register the memory_core_* tools that edit it. Default true. */
    coreBlock: z
      .boolean()
      .default(true)
      .describe(
        'Keep a core block per sender: put it at the top of every prompt and register memory_core_read, memory_core_append, memory_core_replace and memory_core_insert. Default true.',
      ),
    /**
     * Procedures (seed 003): how the agent did a multi-step task before. By default a run that
     * succeeded with at least `minToolCalls` tool calls is learned from (agent_end), the best
     * `maxPerPrompt` matching procedures go before each prompt, and the agent gets
     * memory_find_procedures, memory_get_procedure and memory_learn_procedure. Files live in
     * `directory`, one Markdown file per procedure a person can edit.
     */
    procedures: z
      .object({
        /** Learn a procedure from each run that succeeded with at least `minToolCalls` tool calls (the `proceduresEnabled` setting). Default true. */
        learn: SETTINGS.proceduresEnabled.schema
          .default(SETTINGS.proceduresEnabled.default)
          .describe(
            'Learn a procedure from each run that succeeded with at least minToolCalls tool calls. Default true.',
          ),
        /** Put the best matching procedures before each prompt ("Relevant Procedures"). Default true. */
        inject: z
          .boolean()
          .default(true)
          .describe('Put the best matching procedures before each prompt ("Relevant Procedures"). Default true.'),
        /** Fewest tool calls a run needs before it is learned from (the `proceduresMinToolCalls` setting). Default 3. */
        minToolCalls: SETTINGS.proceduresMinToolCalls.schema
          .default(SETTINGS.proceduresMinToolCalls.default)
          .describe(
            `Fewest tool calls a run needs before it is learned from. Default ${SETTINGS.proceduresMinToolCalls.default}.`,
          ),
        /** Most procedures put before one prompt (the `proceduresMaxPerPrompt` setting). Default 2. */
        maxPerPrompt: SETTINGS.proceduresMaxPerPrompt.schema
          .default(SETTINGS.proceduresMaxPerPrompt.default)
          .describe(`Most procedures put before one prompt. Default ${SETTINGS.proceduresMaxPerPrompt.default}.`),
        /** Register memory_find_procedures, memory_get_procedure and memory_learn_procedure. Default true. */
        tools: z
          .boolean()
          .default(true)
          .describe('Register memory_find_procedures, memory_get_procedure and memory_learn_procedure. Default true.'),
        /** Where the procedure files live. Default: `memoir-procedures` beside the database. */
        directory: z
          .string()
          .min(1)
          .optional()
          .describe('Where the procedure files live. Default: memoir-procedures beside the database.'),
      })
      .strict()
      .prefault({})
      .describe(
        'Procedures: learned from runs with enough tool calls, the best matches put before each prompt, and tools to find, read and hand over procedures.',
      ),
  })
  .strict();

/**
 * The plugin's config as written in `plugins.entries.memoir.config`. All optional: an empty
 * config runs offline on SQLite.
 *
 * @group OpenClaw
 */
export type OpenClawMemoirConfig = z.input<typeof openClawConfigSchema>;

/** The config with defaults filled. */
export type ParsedOpenClawConfig = z.output<typeof openClawConfigSchema>;

/** Parse the plugin's config once; a problem is a ConfigError naming the field. */
export function parseOpenClawConfig(value: unknown): ParsedOpenClawConfig {
  return parseOptions(
    openClawConfigSchema,
    value ?? {},
    'openclaw-plugin',
    (field) => `Fix plugins.entries.memoir.config${field ? `.${field}` : ''} in openclaw.json (see the README).`,
  );
}

/** The JSON Schema of the config, as openclaw.plugin.json declares it. */
export function openClawConfigJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(openClawConfigSchema, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  delete schema.$schema;
  return schema;
}

/** A secret with its `${NAME}` reference resolved, or why there is none. */
export type ResolvedSecret = { value: string } | { value: undefined; missing: string | undefined };

/**
 * Resolve `${NAME}` to the environment variable NAME. A literal comes back as it is; an unset
 * variable comes back as missing, with its name, so the offline notice can say which one.
 */
export function resolveSecret(value: string | undefined, env: Environment = processEnvironment()): ResolvedSecret {
  if (value === undefined) return { value: undefined, missing: undefined };
  const reference = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(value.trim());
  if (!reference) return { value };
  const found = env[reference[1]!];
  return found ? { value: found } : { value: undefined, missing: reference[1]! };
}
