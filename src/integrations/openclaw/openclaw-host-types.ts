// The slice of OpenClaw's plugin API this plugin uses, declared structurally so memoir never
// imports openclaw (not even its types: it is not a dependency). Every member mirrors
// openclaw@2026.9.6's `openclaw/plugin-sdk/plugin-entry` types; `npm run test:openclaw`
// type-checks the plugin against the published ones, so a drift fails there. Fields the
// older 2026.1.x hosts lack are optional.

/**
 * The logger OpenClaw hands a plugin.
 *
 * @group OpenClaw
 */
export interface OpenClawLogger {
  /** Verbose diagnostics; not every host has it. */
  debug?: (message: string) => void;
  /** Normal operation. */
  info: (message: string) => void;
  /** Something degraded. */
  warn: (message: string) => void;
  /** Something failed. */
  error: (message: string) => void;
}

/**
 * Who and where a hook runs for (`PluginHookAgentContext`).
 *
 * @group OpenClaw
 */
export interface OpenClawAgentContext {
  /** The agent's id (on 2026.1.x hosts it may be missing or wrong; see `sessionKey`). */
  agentId?: string;
  /** The session key, `agent:<agentId>:<rest>`. */
  sessionKey?: string;
  /** The session's id. */
  sessionId?: string;
  /** The id of the person who sent the message, on channels that know it. */
  senderId?: string;
  /** The sender, as some host versions name it in hook contexts. */
  requesterSenderId?: string | null;
  /** The chat the message came from (a DM's peer, a group). */
  chatId?: string;
  /** The conversation, as some host versions name the chat. */
  conversationId?: string | null;
  /** The channel the message came in on (`telegram`, `discord`, …). */
  channel?: string | null;
  /** The channel's id; on the hosts read it names the channel (`telegram`), not a chat. */
  channelId?: string;
  /** The surface the message came from; the channel when `channel` is absent. */
  messageProvider?: string | null;
  /** Whether the message came from a group or channel chat, when the host says. */
  isGroup?: boolean | null;
  /** The agent's workspace directory, on hosts that give it. */
  workspaceDir?: string;
  /** What started the run: `user`, `cron`, `heartbeat`, … */
  trigger?: string;
  /** Channel details: the sender and the chat, when the channel gives them. */
  channelContext?: {
    /** The sender. */
    sender?: {
      /** Its id. */
      id?: string;
      /** Its display name, on channels that add one (the host lets channel plugins extend the sender). */
      name?: unknown;
      /** Its display name, as some channels spell it. */
      displayName?: unknown;
      /** Its user name (`@handle`), on channels that add one. */
      username?: unknown;
    };
    /** The chat. */
    chat?: {
      /** Its id. */
      id?: string;
    };
  };
}

/**
 * The event of `before_prompt_build` (2026.2.17+ hosts) and, with `messages` optional, of the
 * legacy `before_agent_start`.
 *
 * @group OpenClaw
 */
export interface OpenClawPromptBuildEvent {
  /** The prompt as the host will send it (it may hold reconstructed history). */
  prompt: string;
  /** The user's request before projection; `''` when it has no text. Often absent. */
  currentUserMessage?: string;
  /** The session's messages prepared for this run (on the gateway path: the earlier transcript). */
  messages?: unknown[];
}

/**
 * What a prompt hook may return; memoir only prepends context.
 *
 * @group OpenClaw
 */
export interface OpenClawPromptBuildResult {
  /** Text put before the user's prompt. */
  prependContext?: string;
}

/**
 * The event of `agent_end`.
 *
 * @group OpenClaw
 */
export interface OpenClawAgentEndEvent {
  /** The session's messages after the run (the whole transcript so far). */
  messages: unknown[];
  /** Whether the run finished without error or abort. */
  success: boolean;
  /** Why it failed. */
  error?: string;
  /** How long it took. */
  durationMs?: number;
}

/**
 * The event of `session_end`.
 *
 * @group OpenClaw
 */
export interface OpenClawSessionEndEvent {
  /** The session's id. */
  sessionId: string;
  /** The session's key. */
  sessionKey?: string;
}

/**
 * The event of `before_reset` (`/new`, `/reset`).
 *
 * @group OpenClaw
 */
export interface OpenClawBeforeResetEvent {
  /** The transcript about to be reset. */
  messages?: unknown[];
}

/**
 * The context of `session_end` and `before_reset`.
 *
 * @group OpenClaw
 */
export interface OpenClawSessionContext {
  /** The agent's id. */
  agentId?: string;
  /** The session's id. */
  sessionId?: string;
  /** The session's key. */
  sessionKey?: string;
}

/**
 * One part of a tool result.
 *
 * @group OpenClaw
 */
export interface OpenClawTextContent {
  /** Always `text`. */
  type: 'text';
  /** The text the model reads. */
  text: string;
}

/**
 * What a tool returns to the agent.
 *
 * @group OpenClaw
 */
export interface OpenClawToolResult {
  /** What the model reads. */
  content: OpenClawTextContent[];
  /** Structured data for logs and UIs. */
  details: unknown;
}

/**
 * An agent tool (pi-agent-core's `AgentTool`, as `AnyAgentTool` erases it).
 *
 * @group OpenClaw
 */
export interface OpenClawTool {
  /** The name the model calls. */
  name: string;
  /** A label for UIs. */
  label: string;
  /** What the model is told about it. */
  description: string;
  /** JSON Schema of its parameters. */
  parameters: Record<string, unknown>;
  /**
   * `direct-only` keeps the tool in the model's tool list; otherwise 2026.9 hosts may list it
   * only behind their tool-search bridge (`tool_search`/`tool_call`).
   */
  catalogMode?: 'direct-only';
  /** Run one call. */
  execute(this: void, toolCallId: string, params: unknown, signal?: AbortSignal): Promise<OpenClawToolResult>;
}

/**
 * What a tool factory is called with, once per run (`OpenClawPluginToolContext`).
 *
 * @group OpenClaw
 */
export interface OpenClawToolContext {
  /** The agent's id. */
  agentId?: string;
  /** The session key. */
  sessionKey?: string;
  /** The session id. */
  sessionId?: string;
  /** The sender of the message the run answers. */
  requesterSenderId?: string | null;
  /** True when that sender is the gateway's owner (set by the host, never by the message). */
  senderIsOwner?: boolean;
  /** The channel the run's message came in on (`telegram`, `discord`, …). */
  messageChannel?: string | null;
  /** Where the run's reply goes; `to` is the chat. */
  deliveryContext?: {
    /** The chat's id. */
    to?: string;
  };
  /** The agent's workspace directory, on hosts that give it. */
  workspaceDir?: string;
}

/**
 * A background service: started with the gateway, stopped with it.
 *
 * @group OpenClaw
 */
export interface OpenClawService {
  /** Its id. */
  id: string;
  /** Called when the gateway starts. */
  start: (ctx: {
    stateDir: string;
    logger: OpenClawLogger;
    /** The agent's workspace directory, on hosts that give it. */
    workspaceDir?: string;
  }) => void | Promise<void>;
  /** Called when the gateway stops. */
  stop?: (ctx: { stateDir: string; logger: OpenClawLogger }) => void | Promise<void>;
}

/**
 * Handlers of the typed hooks memoir registers.
 *
 * @group OpenClaw
 */
export interface OpenClawHookHandlers {
  /** Recall, on 2026.2.17+ hosts. */
  before_prompt_build: (
    event: OpenClawPromptBuildEvent,
    ctx: OpenClawAgentContext,
  ) => Promise<OpenClawPromptBuildResult | undefined> | OpenClawPromptBuildResult | undefined;
  /** Capture. */
  agent_end: (event: OpenClawAgentEndEvent, ctx: OpenClawAgentContext) => Promise<void> | void;
  /** Flushes what the session left pending. */
  session_end: (event: OpenClawSessionEndEvent, ctx: OpenClawSessionContext) => Promise<void> | void;
  /** Flushes the transcript about to be reset. */
  before_reset: (event: OpenClawBeforeResetEvent, ctx: OpenClawAgentContext) => Promise<void> | void;
}

/**
 * The part of the host's config (`openclaw.json`) memoir reads: which plugins are on.
 *
 * @group OpenClaw
 */
export interface OpenClawHostConfig {
  /** The plugins section. */
  plugins?: {
    /** `false` turns every plugin off. */
    enabled?: boolean;
    /** When set, only these plugin ids load. */
    allow?: readonly string[];
    /** These plugin ids never load. */
    deny?: readonly string[];
    /** Exclusive slots: `memory` names the plugin that owns the memory slot. */
    slots?: {
      /** The memory slot's owner (`memory-core` by default, `memory-lancedb`, `none`). */
      memory?: string | null;
    };
    /** Per plugin: whether it is enabled, and its config. */
    entries?: Record<
      string,
      | {
          /** `false` disables the plugin. */
          enabled?: boolean;
        }
      | undefined
    >;
  };
}

/**
 * The plugin API (`OpenClawPluginApi`), reduced to what memoir calls. `on` takes the hook
 * names of current hosts; the legacy `before_agent_start` goes through {@link OpenClawLegacyApi}.
 *
 * @group OpenClaw
 */
export interface OpenClawPluginApi {
  /** The plugin's id as the host knows it. */
  id: string;
  /** The plugin's config, `plugins.entries.<id>.config`. */
  pluginConfig?: Record<string, unknown>;
  /** The host's whole config (`openclaw.json`); memoir reads only `plugins`, to see its neighbours. */
  config?: OpenClawHostConfig;
  /** The host's logger. */
  logger: OpenClawLogger;
  /** The host runtime; `version` is the host's version (`2026.9.6`). */
  runtime?: {
    /** The host's version. */
    version?: string;
  };
  /** Resolve a user path (`~/…`) the way the host does. */
  resolvePath?: (input: string) => string;
  /**
   * Register a typed hook. A property with one call signature per hook, not a method, so that
   * the type check against the host compares each handler strictly (methods are bivariant).
   */
  on: {
    (hookName: 'before_prompt_build', handler: OpenClawHookHandlers['before_prompt_build']): void;
    (hookName: 'agent_end', handler: OpenClawHookHandlers['agent_end']): void;
    (hookName: 'session_end', handler: OpenClawHookHandlers['session_end']): void;
    (hookName: 'before_reset', handler: OpenClawHookHandlers['before_reset']): void;
  };
  /** Register a tool factory: called once per run with who the run is for. */
  registerTool: (
    tool: (ctx: OpenClawToolContext) => OpenClawTool | null | undefined,
    opts?: {
      /** The tool's name. */
      name?: string;
    },
  ) => void;
  /** Register a background service. */
  registerService: (service: OpenClawService) => void;
}

/**
 * The API of 2026.1.x hosts, whose prompt hook is `before_agent_start`.
 *
 * @group OpenClaw
 */
export interface OpenClawLegacyApi {
  /** Register the legacy prompt hook. */
  on: (hookName: 'before_agent_start', handler: OpenClawHookHandlers['before_prompt_build']) => void;
}
