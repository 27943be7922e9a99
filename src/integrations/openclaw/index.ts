/**
 * memoir as an OpenClaw memory plugin (the ePro v2 design): before each prompt it recalls the
 * agent's experience for the request and puts the one-sentence abstracts in an
 * `<agent-experience>` block; after each successful run it extracts memories from what was
 * said (six categories, L0/L1/L2, dedup and merge) — or, with no model configured, keeps the
 * conversation as an episode, offline. Memories are scoped by agent and sender. It registers
 * memory-lancedb's tools (`memory_recall`, `memory_store`, `memory_forget`) so it drops in
 * for it, and coexists with it otherwise.
 *
 * Install it into a host with `openclaw plugins install memoir`, then set
 * `plugins.entries.memoir.hooks.allowConversationAccess: true`; see the README.
 *
 * @example
 * ```jsonc
 * // ~/.openclaw/openclaw.json
 * {
 *   "plugins": {
 *     "entries": {
 *       "memoir": {
 *         "enabled": true,
 *         "hooks": { "allowConversationAccess": true },
 *         "config": { "store": "sqlite", "llm": { "apiKey": "${OPENAI_API_KEY}" } }
 *       }
 *     }
 *   }
 * }
 * ```
 *
 * @module memoir/openclaw
 */
import { openClawConfigJsonSchema, openClawConfigSchema } from './openclaw-config.js';
import type { OpenClawPluginApi } from './openclaw-host-types.js';
import { registerMemoirPlugin } from './openclaw-plugin.js';

export type { OpenClawMemoirConfig } from './openclaw-config.js';
export type {
  OpenClawAgentContext,
  OpenClawAgentEndEvent,
  OpenClawBeforeResetEvent,
  OpenClawHookHandlers,
  OpenClawHostConfig,
  OpenClawLegacyApi,
  OpenClawLogger,
  OpenClawPluginApi,
  OpenClawPromptBuildEvent,
  OpenClawPromptBuildResult,
  OpenClawService,
  OpenClawSessionContext,
  OpenClawSessionEndEvent,
  OpenClawTextContent,
  OpenClawTool,
  OpenClawToolContext,
  OpenClawToolResult,
} from './openclaw-host-types.js';

/**
 * What `configSchema.safeParse` returns to the host.
 *
 * @group OpenClaw
 */
export type OpenClawConfigParse =
  | {
      /** The config is valid. */
      success: true;
      /** It, with defaults filled. */
      data: unknown;
    }
  | {
      /** The config is invalid. */
      success: false;
      /** What is wrong, field by field. */
      error: {
        /** One entry per problem. */
        issues: Array<{
          /** Where, e.g. `['llm', 'baseUrl']`. */
          path: Array<string | number>;
          /** What was expected. */
          message: string;
        }>;
      };
    };

/**
 * The plugin definition an OpenClaw host loads (`OpenClawPluginDefinition`).
 *
 * @group OpenClaw
 */
export interface MemoirOpenClawPlugin {
  /** The plugin id, `memoir`; config lives under `plugins.entries.memoir`. */
  id: string;
  /** Its display name. */
  name: string;
  /** What it does. */
  description: string;
  /** The config schema: validation for the host, and the JSON Schema of the manifest. */
  configSchema: {
    /** Validate a config without throwing. */
    safeParse: (value: unknown) => OpenClawConfigParse;
    /** The config's JSON Schema. */
    jsonSchema: Record<string, unknown>;
  };
  /** Wire recall, capture and the tools into the host; synchronous, as hosts require. */
  register: (api: OpenClawPluginApi) => void;
}

function safeParse(value: unknown): OpenClawConfigParse {
  const parsed = openClawConfigSchema.safeParse(value ?? {});
  if (parsed.success) return { success: true, data: parsed.data };
  return {
    success: false,
    error: {
      issues: parsed.error.issues.map((issue) => ({
        path: issue.path.map((part) => (typeof part === 'number' ? part : String(part))),
        message: issue.message,
      })),
    },
  };
}

/**
 * The memoir plugin for OpenClaw. `kind: "memory"` is declared in `openclaw.plugin.json`
 * only when the user gives it the memory slot (see the README), so by default it runs beside
 * memory-core or memory-lancedb.
 *
 * @group OpenClaw
 */
const memoirPlugin: MemoirOpenClawPlugin = {
  id: 'memoir',
  name: 'memoir',
  description:
    'Long-term agent memory: recalls earlier experience before each prompt (<agent-experience>) and learns from finished runs (six categories, L0/L1/L2, dedup and merge), per agent and sender; offline by default.',
  configSchema: { safeParse, jsonSchema: openClawConfigJsonSchema() },
  register(api) {
    registerMemoirPlugin(api);
  },
};

export default memoirPlugin;
