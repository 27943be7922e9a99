import { z } from 'zod';
import { ValidationError } from '../../core/spec/errors.js';
import { namesSomeone, scopeSchema } from '../../core/spec/memory.js';
import { parseInput } from '../../core/utils/validate.js';
import type { Scope } from '../../index.js';
import type { MemoryCallInfo, ParsedMiddlewareOptions } from './ai-sdk-options.js';
import type { AiSdkCallOptions } from './ai-sdk-types.js';

/** The key of `providerOptions` a call sets memoir's per-call options under. */
export const PROVIDER_KEY = 'memoir';

const COMPONENT = 'ai-sdk';
const SCOPE_KEYS = ['userId', 'agentId', 'namespace'] as const;

/** What a call may set under `providerOptions.memoir`. */
export const callOptionsSchema = z
  .object({
    ...scopeSchema.shape,
    /** The session this exchange is retained under. */
    sessionId: z.string().trim().min(1).max(256).optional(),
    /** false: no recall for this call. */
    recall: z.boolean().optional(),
    /** false: this exchange is not retained. */
    capture: z.boolean().optional(),
  })
  .strict();

/**
 * What a call may set under `providerOptions.memoir` (JSON values, as the AI SDK requires):
 * its scope, its session, and whether it recalls and is retained. memoir removes the key
 * before the provider sees the call.
 *
 * @group AI SDK
 */
export interface MemoirCallOptions {
  /** The user whose memories this call reads and writes; adds to the middleware's scope, never changes it. */
  userId?: string;
  /** The agent whose memories this call reads and writes. */
  agentId?: string;
  /** A further partition (a project, a tenant). */
  namespace?: string;
  /** The session this exchange is retained under. */
  sessionId?: string;
  /** false: no recall for this call. */
  recall?: boolean;
  /** false: this exchange is not retained. */
  capture?: boolean;
}

/** What the middleware does for one call. */
export interface CallPlan {
  /** The scope recall and retention use; undefined for the client's own. */
  scope: Scope | undefined;
  /** The session the exchange is retained under; undefined for the client's current one. */
  sessionId: string | undefined;
  /** Whether to recall before the call. */
  recall: boolean;
  /** Whether to retain the exchange. */
  capture: boolean;
}

async function baseScope(options: ParsedMiddlewareOptions, call: MemoryCallInfo): Promise<Scope | undefined> {
  const { scope } = options;
  if (typeof scope !== 'function') return scope;
  const resolved = await scope(call);
  if (resolved === undefined) return undefined;
  // What a resolver returns is checked like the option itself: a typo must not widen a scope.
  return parseInput(scopeSchema, resolved, COMPONENT, 'scope');
}

/** The base scope with the call's fields added; a field set in both with different values is refused. */
function mergeScopes(base: Scope | undefined, call: Scope): Scope | undefined {
  const merged: Scope = { ...base };
  for (const key of SCOPE_KEYS) {
    const value = call[key];
    if (value === undefined) continue;
    const set = base?.[key];
    if (set !== undefined && set !== value) {
      throw new ValidationError(
        [
          {
            field: `providerOptions.${PROVIDER_KEY}.${key}`,
            message: `expected ${JSON.stringify(set)} (the middleware's scope sets it) or nothing (got ${JSON.stringify(value)})`,
          },
        ],
        { component: COMPONENT, suggestion: "A call may narrow the middleware's scope, never change it." },
      );
    }
    merged[key] = value;
  }
  return SCOPE_KEYS.some((key) => merged[key] !== undefined) ? merged : undefined;
}

async function sessionOf(options: ParsedMiddlewareOptions, call: MemoryCallInfo): Promise<string | undefined> {
  const { sessionId } = options;
  if (typeof sessionId !== 'function') return sessionId;
  const resolved = await sessionId(call);
  if (resolved === undefined) return undefined;
  return parseInput(z.string().trim().min(1).max(256), resolved, COMPONENT, 'sessionId');
}

/**
 * Work out what the middleware does for a call: its scope (the middleware's, narrowed by
 * `providerOptions.memoir`), session, and whether it recalls and retains. Bad per-call
 * options are a ValidationError naming the field, which the AI SDK call rejects with.
 */
export async function planCall(options: ParsedMiddlewareOptions, call: MemoryCallInfo): Promise<CallPlan> {
  const raw = call.params.providerOptions?.[PROVIDER_KEY];
  const own = parseInput(callOptionsSchema, raw ?? {}, COMPONENT, `providerOptions.${PROVIDER_KEY}`);
  const scope = mergeScopes(await baseScope(options, call), own);
  // No scope here means the client's own; on an unscoped client that is every user's memories.
  if (scope === undefined && !namesSomeone(options.memory.scope) && options.requireScope !== false) {
    throw new ValidationError(
      [
        {
          field: typeof options.scope === 'function' ? 'scope' : `providerOptions.${PROVIDER_KEY}.userId`,
          message:
            typeof options.scope === 'function'
              ? 'expected the scope resolver to return a userId, agentId or namespace for this call (it named no one)'
              : 'expected a userId, agentId or namespace for this call: the client is unscoped',
        },
      ],
      {
        component: COMPONENT,
        suggestion:
          'Resolve a scope for every call (a request with no signed-in user has no memories), or pass requireScope: false to allow admin calls on purpose.',
      },
    );
  }
  return {
    scope,
    sessionId: own.sessionId ?? (await sessionOf(options, call)),
    recall: options.recall && own.recall !== false,
    capture: options.capture && own.capture !== false,
  };
}

/** The parameters without memoir's own provider options, which no provider should receive. */
export function withoutOwnOptions<Params extends AiSdkCallOptions>(params: Params): Params {
  const providerOptions = params.providerOptions;
  if (providerOptions === undefined || !Object.hasOwn(providerOptions, PROVIDER_KEY)) return params;
  const { [PROVIDER_KEY]: _own, ...rest } = providerOptions;
  return { ...params, providerOptions: rest };
}
