import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { createLanceStore } from '../../adapters/lancedb/index.js';
import { createOpenAIChatModel, createOpenAIEmbedder } from '../../adapters/openai/index.js';
import { createSentenceEncoderEmbedder } from '../../adapters/sentence-encoder/index.js';
import { createSqliteStore } from '../../adapters/sqlite/index.js';
import { type Environment, processEnvironment } from '../../config/setting-registry.js';
import type { Embedder } from '../../core/spec/embedder.js';
import type { LanguageModel } from '../../core/spec/language-model.js';
import type { Logger, LogLevel } from '../../core/spec/runtime.js';
import type { MemoryStore } from '../../core/spec/store.js';
import { createMemory } from '../../create-memory.js';
import type { MemoryClient } from '../../index.js';
import type { ParsedOpenClawConfig } from './openclaw-config.js';
import { resolveSecret } from './openclaw-config.js';
import type { OpenClawLogger } from './openclaw-host-types.js';
import { videoOf } from './openclaw-video.js';

// The memory client behind the plugin, made from its config: a store (SQLite or LanceDB), an
// embedder (OpenAI-compatible with a key or a baseUrl, else the local one) and, with a key or
// a baseUrl, the extraction model. Without a model memoir keeps each conversation as an
// episode — it still recalls it — and the plugin says so once in the log.

// Provider deadlines. Recall embeds the prompt, so the embedder answers well inside the
// prompt hook's budget; an extraction call may take a minute on a slow local model.
const EMBED_TIMEOUT_MS = 10_000;
const CHAT_TIMEOUT_MS = 60_000;
// memoir's own backstop, above both: it also covers providers that ignore their signal.
const PROVIDER_TIMEOUT_MS = 90_000;

/** The parts the plugin runs on, and what it could not configure. */
export interface PluginMemory {
  /** The client (unscoped: every call passes the turn's scope). */
  client: MemoryClient;
  /** Where the memories live. */
  location: string;
  /** Why the plugin runs without an extraction model or a neural embedder, when it does. */
  offline: string[];
  /** Whether an extraction model is configured. */
  extracts: boolean;
}

/** The OpenClaw state directory: `$OPENCLAW_STATE_DIR`, else `~/.openclaw`. */
export function defaultStateDir(env: Environment = processEnvironment()): string {
  return env.OPENCLAW_STATE_DIR || join(homedir(), '.openclaw');
}

/** Where memories live by default: beside memory-lancedb's `memory/lancedb`, never in it. */
export function defaultDbPath(store: ParsedOpenClawConfig['store'], stateDir: string): string {
  return join(stateDir, 'memory', store === 'lancedb' ? 'memoir-lancedb' : 'memoir.sqlite');
}

/** memoir's diagnostics, to the host's logger (debug lines only where the host has a debug level). */
export function hostLogger(logger: OpenClawLogger): Logger {
  const write: Record<LogLevel, (message: string) => void> = {
    error: (message) => logger.error(message),
    warn: (message) => logger.warn(message),
    info: (message) => logger.info(message),
    debug: (message) => logger.debug?.(message),
  };
  return { log: (level, message) => write[level](`memoir: ${message}`) };
}

function missingKey(what: string, missing: string | undefined): string {
  return missing ? `no API key for ${what} (${missing} is not set)` : `no API key or baseUrl for ${what}`;
}

function embedderOf(config: ParsedOpenClawConfig, offline: string[]): Embedder | undefined {
  const section = config.embedding;
  if (section?.provider === 'use') return createSentenceEncoderEmbedder();
  const key = resolveSecret(section?.apiKey);
  if (key.value === undefined && section?.baseUrl === undefined) {
    offline.push(
      `${missingKey('embeddings', key.value === undefined ? key.missing : undefined)}: the local embedder runs instead`,
    );
    return undefined;
  }
  return createOpenAIEmbedder({
    ...(key.value !== undefined ? { apiKey: key.value } : {}),
    ...(section?.baseUrl !== undefined ? { baseURL: section.baseUrl } : {}),
    ...(section?.model !== undefined ? { model: section.model } : {}),
    ...(section?.dimensions !== undefined ? { dimensions: section.dimensions } : {}),
    timeoutMs: EMBED_TIMEOUT_MS,
  });
}

function modelOf(config: ParsedOpenClawConfig, offline: string[]): LanguageModel | undefined {
  const section = config.llm;
  const key = resolveSecret(section?.apiKey);
  if (key.value === undefined && section?.baseUrl === undefined) {
    offline.push(
      `${missingKey('the llm', key.value === undefined ? key.missing : undefined)}: conversations are kept as episodes, not extracted into memories`,
    );
    return undefined;
  }
  return createOpenAIChatModel({
    ...(key.value !== undefined ? { apiKey: key.value } : {}),
    ...(section?.baseUrl !== undefined ? { baseURL: section.baseUrl } : {}),
    ...(section?.model !== undefined ? { model: section.model } : {}),
    timeoutMs: CHAT_TIMEOUT_MS,
  });
}

function storeOf(config: ParsedOpenClawConfig, location: string, logger: Logger): MemoryStore {
  if (config.store === 'lancedb') return createLanceStore({ uri: location, logger });
  mkdirSync(dirname(location), { recursive: true });
  return createSqliteStore({ path: location, logger });
}

/**
 * Make the plugin's memory client. Nothing opens here: the store opens on the first call, so
 * a missing native module or a locked file shows up as an error of that call, which the hooks
 * log and survive.
 */
export function openPluginMemory(
  config: ParsedOpenClawConfig,
  options: { stateDir: string; logger: OpenClawLogger; resolvePath?: (input: string) => string },
): PluginMemory {
  const logger = hostLogger(options.logger);
  const location = config.dbPath
    ? (options.resolvePath?.(config.dbPath) ?? config.dbPath.replace(/^~(?=$|\/)/, homedir()))
    : defaultDbPath(config.store, options.stateDir);
  const offline: string[] = [];
  const embedder = embedderOf(config, offline);
  const languageModel = modelOf(config, offline);
  // memory_recall_steps searches the recordings with it (openclaw-video.ts).
  const video = videoOf(config, offline);
  const client = createMemory({
    store: storeOf(config, location, logger),
    // Procedure files beside the database (seed 003); the plugin decides when a run is learned from.
    procedures: {
      directory: config.procedures.directory
        ? (options.resolvePath?.(config.procedures.directory) ?? config.procedures.directory)
        : join(dirname(location), 'memoir-procedures'),
      minToolCalls: config.procedures.minToolCalls,
      maxPerPrompt: config.procedures.maxPerPrompt,
    },
    ...(embedder ? { embedder } : {}),
    ...(languageModel ? { languageModel } : {}),
    ...(video ? { video } : {}),
    // The plugin decides when a session has enough to extract (extractMinMessages) and splits
    // long runs itself, so each call memoir gets is extracted whole.
    extraction: { minMessages: 1, maxChars: config.extractMaxChars },
    providerTimeoutMs: PROVIDER_TIMEOUT_MS,
    // The gateway gives gateway_stop 5 s; close() must not hold it longer.
    closeTimeoutMs: 3000,
    logger,
  });
  return { client, location, offline, extracts: languageModel !== undefined };
}
