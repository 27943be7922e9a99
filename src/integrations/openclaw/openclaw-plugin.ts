import type { MemoryClient } from '../../index.js';
import { ConfigError } from '../../index.js';
import { CaptureQueue, retainBatch } from './openclaw-capture.js';
import { type ParsedOpenClawConfig, parseOpenClawConfig } from './openclaw-config.js';
import type {
  OpenClawAgentContext,
  OpenClawHookHandlers,
  OpenClawLegacyApi,
  OpenClawLogger,
  OpenClawPluginApi,
} from './openclaw-host-types.js';
import { identityOfHook, recordedSessionId, sessionKeyOf } from './openclaw-identity.js';
import { defaultStateDir, openPluginMemory, type PluginMemory } from './openclaw-memory.js';
import { decideTools } from './openclaw-neighbours.js';
import { learnFromRun, proceduresForPrompt, recordRunUse } from './openclaw-procedures.js';
import { recallForPrompt } from './openclaw-recall-hook.js';
import { openClawReflectTool } from './openclaw-reflect-tool.js';
import { senderNameOf } from './openclaw-sender-name.js';
import { type CaptureBatch, SessionCursors } from './openclaw-session-cursor.js';
import { openClawTools } from './openclaw-tools.js';
import { pluginWorkspaces } from './openclaw-workspace.js';

// register(api): parse the config, then wire recall, capture and the tools. register stays
// synchronous (the host requires it); the store opens on first use. No hook ever throws into
// the host: a failure is a log line, and the agent's turn goes on without memory.

/** Hosts before this version have `before_agent_start` and no `before_prompt_build`. */
const PROMPT_BUILD_SINCE = [2026, 2, 17] as const;
/** How long the gateway's stop waits for queued captures before closing the store, ms. */
const STOP_DRAIN_MS = 4000;

/**
 * True when the host predates `before_prompt_build` (2026.1.x). Hosts from 2026.8 reject
 * `before_agent_start` with a warning, so it is registered only where it is the only choice;
 * a host whose version cannot be read is taken to be current.
 */
export function hostNeedsLegacyPromptHook(version: string | undefined): boolean {
  const match = /^(\d{4})\.(\d{1,2})\.(\d{1,2})/.exec(version ?? '');
  if (!match) return false;
  const parts = match.slice(1, 4).map(Number);
  for (let index = 0; index < 3; index++) {
    if (parts[index]! !== PROMPT_BUILD_SINCE[index]) return parts[index]! < PROMPT_BUILD_SINCE[index]!;
  }
  return false;
}

/**
 * What {@link registerMemoirPlugin} leaves running.
 *
 * @group OpenClaw
 */
export interface MemoirPluginHandle {
  /** The parsed config. */
  readonly config: ParsedOpenClawConfig;
  /** The plugin's memory client (unscoped), made on first use. */
  memory(): MemoryClient;
  /** Where the memories live. */
  readonly location: string;
  /** Wait until captured messages queued so far are stored (or `timeoutMs` passes). */
  flush(timeoutMs?: number): Promise<boolean>;
  /** Store what sessions left pending, wait for it, and close the store. */
  close(): Promise<void>;
}

/** Options of {@link registerMemoirPlugin}, for tests and embedders; OpenClaw passes none. */
export interface RegisterOptions {
  /** The state directory default paths go under. Default `$OPENCLAW_STATE_DIR` or `~/.openclaw`. */
  stateDir?: string;
  /** Messages written before this (epoch ms) are not captured from a session seen the first time. Default: now. */
  since?: number;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

function describeConfigError(error: unknown): string {
  return ConfigError.isInstance(error) && error.suggestion
    ? `${error.message} (${error.suggestion})`
    : errorText(error);
}

/**
 * Wire memoir into an OpenClaw host. Returns null (and logs why) when the config is invalid:
 * the host then runs without memoir instead of failing to start.
 *
 * @group OpenClaw
 */
export function registerMemoirPlugin(api: OpenClawPluginApi, options: RegisterOptions = {}): MemoirPluginHandle | null {
  const logger: OpenClawLogger = api.logger;
  let config: ParsedOpenClawConfig;
  try {
    config = parseOpenClawConfig(api.pluginConfig);
  } catch (error) {
    logger.error(`memoir: disabled, the config is invalid: ${describeConfigError(error)}`);
    return null;
  }
  let opened: PluginMemory | undefined;
  const open = (): PluginMemory => {
    if (opened) return opened;
    opened = openPluginMemory(config, {
      stateDir: options.stateDir ?? defaultStateDir(),
      logger,
      ...(api.resolvePath ? { resolvePath: api.resolvePath } : {}),
    });
    // Never a silent failure: running without a model or a key is said once, with the reason.
    if (opened.offline.length > 0) {
      logger.info(`memoir: ${opened.extracts ? '' : 'running offline — '}${opened.offline.join('; ')}`);
    }
    opened.client.on('error', (event) => logger.warn(`memoir: background work failed: ${errorText(event.error)}`));
    return opened;
  };
  const memory = () => open().client;
  const workspaces = pluginWorkspaces(config, {
    logger,
    ...(api.resolvePath ? { resolvePath: api.resolvePath } : {}),
  });
  const cursors = new SessionCursors(options.since ?? Date.now());
  // Per session, the procedures put before its current run's prompt (until the run ends).
  const injectedProcedures = new Map<string, string[]>();
  const queue = new CaptureQueue(async (batch: CaptureBatch) => {
    const outcome = await retainBatch(memory(), batch, config, logger);
    if (outcome.extracted > 0 || outcome.episodes === 0) logger.info(`memoir: extracted ${outcome.extracted} memories`);
    if (outcome.episodes > 0) {
      logger.info(`memoir: kept ${batch.messages.length} message(s) as ${outcome.episodes} episode(s)`);
    }
  }, logger);
  const push = (batches: readonly CaptureBatch[]) => {
    for (const batch of batches) queue.push(batch);
  };

  const recall: OpenClawHookHandlers['before_prompt_build'] = async (event, ctx) => {
    try {
      // Only the prompt's own sender's memories; a group turn whose sender is unknown gets none.
      const identity = identityOfHook(ctx);
      if (!identity.personal) return undefined;
      // The agent's workspace notes beside the sender's memories (workspace: openclaw-workspace.ts),
      // and the sender's procedures that match the request (openclaw-procedures.ts).
      const [own, notes, procedures] = await Promise.all([
        config.autoRecall ? recallForPrompt(event, identity.scope, { client: memory, config, logger }) : undefined,
        config.autoRecall ? workspaces.recall(event, ctx.workspaceDir) : undefined,
        config.procedures.inject
          ? proceduresForPrompt(event, identity.scope, { client: memory, config, logger }).catch((error: unknown) => {
              logger.warn(`memoir: procedures skipped: ${errorText(error)}`);
              return undefined;
            })
          : undefined,
      ]);
      // Which procedures this session's run was given: agent_end counts the run as a use of each.
      if (procedures) injectedProcedures.set(sessionKeyOf(ctx), procedures.ids);
      const blocks = [own?.prependContext, notes?.prependContext, procedures?.prependContext].filter(
        (block) => block !== undefined,
      );
      return blocks.length === 0 ? undefined : { prependContext: blocks.join('\n\n') };
    } catch (error) {
      logger.warn(`memoir: recall skipped: ${errorText(error)}`);
      return undefined;
    }
  };

  // Reads the transcript synchronously and returns: storing happens in the queue.
  const capture = (messages: unknown, ctx: OpenClawAgentContext, discard: boolean) => {
    if (!Array.isArray(messages)) return;
    const identity = identityOfHook(ctx);
    // A name labels a person's own messages only, never a group's shared pool.
    const userName = identity.personal ? senderNameOf(ctx, messages) : undefined;
    push(
      cursors.read(sessionKeyOf(ctx), messages, {
        // The run's new messages are its sender's (a group turn without one: the group's pool).
        scope: identity.scope,
        pool: identity.pool,
        sessionId: recordedSessionId(ctx.sessionId),
        captureAssistant: config.captureAssistant,
        minMessages: config.extractMinMessages,
        discard,
        ...(userName === undefined ? {} : { userName }),
        onDiscard: (count) => logger.info(`memoir: capture skipped ${count} message(s) of a failed run`),
      }),
    );
  };

  if (config.autoRecall || config.procedures.inject) {
    if (hostNeedsLegacyPromptHook(api.runtime?.version)) {
      (api as unknown as OpenClawLegacyApi).on('before_agent_start', recall);
    } else api.on('before_prompt_build', recall);
  }
  if (config.autoCapture || config.procedures.learn || config.procedures.inject) {
    api.on('agent_end', (event, ctx) => {
      if (config.autoCapture) {
        try {
          // A failed run's messages are passed over, so a later run does not capture them either.
          capture(event.messages, ctx, event.success !== true);
        } catch (error) {
          logger.warn(`memoir: capture skipped: ${errorText(error)}`);
        }
      }
      // The procedures put before this run's prompt were used, successfully or not.
      const used = injectedProcedures.get(sessionKeyOf(ctx));
      injectedProcedures.delete(sessionKeyOf(ctx));
      if (used) recordRunUse(memory(), used, event.success === true, logger);
      // A run that succeeded with enough tool calls is learned from (seed 003), in the sender's scope.
      if (config.procedures.learn && event.success === true && Array.isArray(event.messages)) {
        try {
          const identity = identityOfHook(ctx);
          if (identity.personal) learnFromRun(memory(), event.messages, identity.scope, config.procedures, logger);
        } catch (error) {
          logger.warn(`memoir: procedure learning skipped: ${errorText(error)}`);
        }
      }
    });
  }
  if (config.autoCapture) {
    api.on('before_reset', (event, ctx) => {
      try {
        capture(event.messages ?? [], ctx, false);
        const key = sessionKeyOf(ctx);
        push(cursors.flush(key));
        cursors.forget(key);
      } catch (error) {
        logger.warn(`memoir: capture before reset skipped: ${errorText(error)}`);
      }
    });
    api.on('session_end', (_event, ctx) => {
      try {
        const key = sessionKeyOf(ctx);
        push(cursors.flush(key));
        cursors.forget(key);
      } catch (error) {
        logger.warn(`memoir: capture at session end skipped: ${errorText(error)}`);
      }
    });
  }

  // A tool call's scope comes from its own context only (openclaw-tools.ts).
  const tools = decideTools(config.registerTools, api.config);
  if (tools.log) logger[tools.log.level](tools.log.message);
  // The core block tools clash with no other memory plugin's names: they follow coreBlock alone.
  for (const tool of openClawTools(memory, {
    memory: tools.register,
    core: config.coreBlock,
    procedures: config.procedures.tools,
    recordingSenders: config.video?.senders ?? 'owner',
  })) {
    api.registerTool((ctx) => tool.create(ctx), { name: tool.name });
  }
  // memory_reflect clashes with no other plugin's names either. It writes pages into the
  // workspace, so it is offered only where someone named one (`workspace`), not on every
  // host's default agent directory.
  if (config.workspace !== undefined) {
    const reflect = openClawReflectTool(workspaces.open);
    api.registerTool((ctx) => reflect.create(ctx), { name: reflect.name });
  }

  let closing: Promise<void> | undefined;
  const handle: MemoirPluginHandle = {
    config,
    memory,
    get location() {
      return open().location;
    },
    flush: (timeoutMs = 60_000) => queue.idle(timeoutMs),
    close() {
      closing ??= (async () => {
        push(cursors.flushAll());
        const drained = await queue.idle(STOP_DRAIN_MS);
        if (!drained) logger.warn(`memoir: ${queue.pending} capture batch(es) still running at shutdown`);
        await workspaces.close();
        if (opened) await opened.client.close();
      })().catch((error: unknown) => logger.warn(`memoir: close failed: ${errorText(error)}`));
      return closing;
    },
  };
  api.registerService({
    id: 'memoir',
    // The agent's workspace is indexed and watched from the start (never failing the start).
    start: (ctx) => void workspaces.open(ctx?.workspaceDir),
    stop: () => handle.close(),
  });
  return handle;
}
