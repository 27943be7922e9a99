import { z } from 'zod';
import { ConfigError } from '../../core/spec/errors.js';
import { tenantScopeSchema } from '../../core/spec/memory.js';
import { parseOptions } from '../../core/utils/parse-options.js';
import type { MemoirError, MemoryClient, Scope } from '../../index.js';
import type { AiSdkCallOptions } from './ai-sdk-types.js';

/** The roles whose messages the middleware may retain. */
export const CAPTURE_ROLES = ['user', 'assistant', 'tool'] as const;

/**
 * A role whose messages the middleware may retain.
 *
 * @group AI SDK
 */
export type CaptureRole = (typeof CAPTURE_ROLES)[number];

/**
 * One message of an exchange, as the capture filter sees it.
 *
 * @group AI SDK
 */
export interface CapturedMessage {
  /** Who spoke. */
  readonly role: CaptureRole;
  /** What was said, as one text (tool calls as `→ name(arguments)` lines, files as `[file: name]`). */
  readonly content: string;
}

/**
 * What the middleware knows about one model call: passed to the scope and session resolvers
 * and to the capture filter.
 *
 * @group AI SDK
 */
export interface MemoryCallInfo {
  /** `generate` (generateText) or `stream` (streamText). */
  readonly type: 'generate' | 'stream';
  /** The call's parameters as the AI SDK passed them (the prompt, providerOptions, …). */
  readonly params: AiSdkCallOptions;
}

/**
 * Whose memories a call reads and writes: a scope, or a function of the call that returns one.
 *
 * @group AI SDK
 */
export type ScopeResolver = Scope | ((call: MemoryCallInfo) => Scope | undefined | Promise<Scope | undefined>);

/**
 * The session a call's exchange is retained under: an id, or a function of the call that returns one.
 *
 * @group AI SDK
 */
export type SessionResolver = string | ((call: MemoryCallInfo) => string | undefined | Promise<string | undefined>);

const isFunction = (value: unknown): value is (...args: never[]) => unknown => typeof value === 'function';

const clientSchema = z.custom<MemoryClient>(
  (value) =>
    typeof value === 'object' &&
    value !== null &&
    ['recall', 'retainAsync', 'formatContext'].every(
      (method) => typeof (value as Record<string, unknown>)[method] === 'function',
    ),
  { message: 'expected a memory client (createMemory())' },
);

const functionSchema = z.custom<(...args: never[]) => unknown>(isFunction, { message: 'expected a function' });

const procedureOptionsSchema = z
  .object({
    /** Learn a procedure from each turn that ends after enough tool calls. Default true. */
    learn: z.boolean().default(true),
    /** Put the best matching procedures into the system prompt before each call. Default true. */
    inject: z.boolean().default(true),
    /** Fewest tool calls a turn needs before it is learned from; the client's `procedures.minToolCalls` (3) applies too. */
    minToolCalls: z.number().int().min(1).max(1000).optional(),
    /** Most procedures put into one prompt. Default: the client's `procedures.maxPerPrompt` (2). */
    k: z.number().int().min(1).max(20).optional(),
  })
  .strict();

/**
 * How the middleware learns and injects procedures (seed 003).
 *
 * @group AI SDK
 */
export interface MemoryMiddlewareProcedureOptions {
  /** Learn a procedure from each turn that ends after enough tool calls (in the background). Default true. */
  learn?: boolean;
  /** Put the best matching procedures ("Relevant Procedures") into the system prompt before each call. Default true. */
  inject?: boolean;
  /**
   * Fewest tool calls a turn needs before it is learned from. Default: the client's
   * `procedures.minToolCalls` (3), which applies too, so a lower value needs the client's lowered.
   */
  minToolCalls?: number;
  /** Most procedures put into one prompt. Default: the client's `procedures.maxPerPrompt` (2). */
  k?: number;
}

export const middlewareOptionsSchema = z
  .object({
    /** The memory client recall and retention go through. */
    memory: clientSchema,
    /**
     * Whose memories each call reads and writes: `{ userId, agentId, namespace }`, or a
     * function of the call returning one (read a user id from your request, say). A call's
     * `providerOptions.memoir` may add fields to it, never change one it sets. Inside a
     * scoped client it can only narrow the client's scope. Default: the client's scope.
     */
    scope: z.union([tenantScopeSchema, functionSchema]).optional(),
    /** See {@link MemoryMiddlewareOptions.requireScope}. */
    requireScope: z.boolean().optional(),
    /** The session exchanges are retained under: an id or a function of the call. Default: the client's current session. */
    sessionId: z.union([z.string().trim().min(1).max(256), functionSchema]).optional(),
    /** Recall before each call and add the memories to the system prompt. Default true. */
    recall: z.boolean().default(true),
    /** Token budget of the memory block (o200k_base tokens). Default 1000. */
    budget: z.number().int().min(1).max(1_000_000).default(1000),
    /** Most memories in the block. Default: the client's `recallK`. */
    k: z.number().int().min(1).max(1000).optional(),
    /** Leave out memories scoring below this (0..1). Default 0. */
    minScore: z.number().min(0).max(1).optional(),
    /** Heading of the memory block. Default `Relevant memories`. */
    title: z.string().trim().min(1).max(200).optional(),
    /**
     * Longest recall may take before the call goes ahead without memories, ms. Default 10000.
     * A slow embedder or store delays the answer at most this long.
     */
    recallTimeoutMs: z.number().int().min(1).max(600_000).default(10_000),
    /** Retain each finished exchange (background, through the conversation pipeline). Default true. */
    capture: z.boolean().default(true),
    /** Which messages of an exchange are retained. Default `['user', 'assistant']`. */
    captureRoles: z
      .array(z.enum(CAPTURE_ROLES))
      .min(1, 'expected at least one role')
      .default(['user', 'assistant'])
      .transform((roles) => new Set(roles)),
    /**
     * Decide per message whether it is retained: return false to leave it out. A filter that
     * throws leaves the whole exchange out (and reports through `onError`).
     */
    filter: functionSchema.optional(),
    /**
     * Procedures (seed 003): `true` (default) learns from each turn that ends after enough
     * tool calls and puts the best matching procedures into the system prompt; `false` does
     * neither; an object chooses. Needs a client that keeps procedure files (a `home` or
     * `procedures.directory`); on one that does not, nothing is learned or injected.
     */
    procedures: z
      .union([z.boolean(), procedureOptionsSchema])
      .default(true)
      .transform((value) =>
        typeof value === 'boolean' ? procedureOptionsSchema.parse({ learn: value, inject: value }) : value,
      ),
    /**
     * Receives what the middleware could not do without failing the call: a recall that
     * failed or timed out (the call ran without memories), an exchange that could not be
     * queued. Failures of the queued retention itself are the client's `error` and
     * `extraction:failed` events. Default: one line on stderr.
     */
    onError: functionSchema.optional(),
  })
  .strict();

/**
 * Options of {@link memoryMiddleware}.
 *
 * @group AI SDK
 */
export interface MemoryMiddlewareOptions {
  /** The memory client recall and retention go through. */
  memory: MemoryClient;
  /**
   * Whose memories each call reads and writes: `{ userId, agentId, namespace }`, or a function
   * of the call returning one. A call's `providerOptions.memoir` may add fields to it, never
   * change one it sets. Inside a scoped client it can only narrow the client's scope.
   * Default: the client's scope.
   */
  scope?: ScopeResolver;
  /**
   * Whether a call whose scope names no user, agent or namespace — the client's, `scope`'s, what
   * the resolver returned and the call's `providerOptions.memoir` together — is refused (a
   * ValidationError from generateText / streamText), so that a request with no signed-in user
   * never reads or writes everyone's memories. Default true. On an unscoped client with no
   * `scope`, the middleware cannot be created until you say which you mean: `true` (each call
   * names its user in `providerOptions.memoir`) or `false` (a call without one is an admin call
   * that reads and writes every user's memories, on purpose).
   */
  requireScope?: boolean;
  /** The session exchanges are retained under. Default: the client's current session. */
  sessionId?: SessionResolver;
  /** Recall before each call and add the memories to the system prompt. Default true. */
  recall?: boolean;
  /** Token budget of the memory block (o200k_base tokens). Default 1000. */
  budget?: number;
  /** Most memories in the block. Default: the client's `recallK`. */
  k?: number;
  /** Leave out memories scoring below this (0..1). Default 0. */
  minScore?: number;
  /** Heading of the memory block. Default `Relevant memories`. */
  title?: string;
  /** Longest recall may take before the call goes ahead without memories, ms. Default 10000. */
  recallTimeoutMs?: number;
  /** Retain each finished exchange (background, through the conversation pipeline). Default true. */
  capture?: boolean;
  /** Which messages of an exchange are retained. Default `['user', 'assistant']`. */
  captureRoles?: readonly CaptureRole[];
  /**
   * Decide per message whether it is retained: return false to leave it out. A filter that
   * throws leaves the whole exchange out (and reports through `onError`).
   */
  filter?: (message: CapturedMessage, call: MemoryCallInfo) => boolean;
  /**
   * Procedures (seed 003): `true` (default) learns a procedure from each turn that ends after
   * enough tool calls (the client's `procedures.minToolCalls`, 3), in the background, and puts
   * the best matching procedures into the system prompt before each call ("Relevant
   * Procedures"), in the call's scope; `false` does neither; an object chooses. A call with
   * `capture: false` is not learned from, one with `recall: false` gets none. Needs a client
   * that keeps procedure files (a `home` or `procedures.directory`); on one that does not,
   * nothing is learned or injected.
   */
  procedures?: boolean | MemoryMiddlewareProcedureOptions;
  /**
   * Receives what the middleware could not do without failing the call (a recall that failed
   * or timed out, an exchange that could not be queued). Default: one line on stderr.
   */
  onError?: (error: MemoirError) => void;
}

/** Parsed options; the functions keep their declared types. */
export interface ParsedMiddlewareOptions
  extends Omit<z.output<typeof middlewareOptionsSchema>, 'scope' | 'sessionId' | 'filter' | 'onError'> {
  scope: ScopeResolver | undefined;
  sessionId: SessionResolver | undefined;
  filter: MemoryMiddlewareOptions['filter'];
  onError: (error: MemoirError) => void;
}

function writeToStderr(error: MemoirError): void {
  process.stderr.write(`${error.message}\n`);
}

/** Parse the middleware's options once; a bad one is a ConfigError naming it. */
export function parseMiddlewareOptions(options: MemoryMiddlewareOptions): ParsedMiddlewareOptions {
  const parsed = parseOptions(
    middlewareOptionsSchema,
    options,
    'ai-sdk',
    (field) => `Check memoryMiddleware's option ${field || 'options'} (docs/guides/ai-sdk.md).`,
  );
  if (parsed.memory.scope === undefined && parsed.scope === undefined && parsed.requireScope === undefined) {
    throw new ConfigError(
      "memoryMiddleware on an unscoped client needs a scope: without one every call would read and write every user's memories",
      {
        component: 'ai-sdk',
        field: 'scope',
        suggestion:
          "Pass scope: { userId } or a resolver of the call, requireScope: true to take each call's providerOptions.memoir.userId, or requireScope: false for admin calls on purpose.",
      },
    );
  }
  return {
    ...parsed,
    // The functions passed the schema as functions; their signatures are the declared ones.
    scope: parsed.scope as ScopeResolver | undefined,
    sessionId: parsed.sessionId as SessionResolver | undefined,
    filter: options.filter,
    onError: options.onError ?? writeToStderr,
  };
}
