import { namesSomeone } from '../../core/spec/memory.js';
import type {
  Memory,
  MemoryClient,
  MemoryHistory,
  MemoryInput,
  RecallOptions,
  RetainOptions,
  Scope,
} from '../../index.js';
import { MemoirError, NotFoundError, ValidationError } from '../../index.js';

// The shared tools run over a MemoryClient and use its scope. The plugin keeps one unscoped
// client for every sender (one store, one engine), so a tool call gets this view of it: the
// calls the memory tools make, each held inside the caller's scope, and nothing else. Reads
// narrow to the scope, writes are stamped with it, and a memory of another scope is "not
// found" — it can be neither read nor deleted.

/** True when a memory belongs to `scope` (every field the scope sets matches). */
export function inScope(memory: Pick<Memory, 'scope'>, scope: Scope): boolean {
  return (
    (scope.agentId === undefined || memory.scope.agentId === scope.agentId) &&
    (scope.userId === undefined || memory.scope.userId === scope.userId) &&
    (scope.namespace === undefined || memory.scope.namespace === scope.namespace)
  );
}

// A memory goes to the session its caller resumed, unless the call names one itself.
const withScope = (input: string | MemoryInput, scope: Scope, sessionId?: string): MemoryInput => {
  const item = typeof input === 'string' ? { content: input } : input;
  return { ...(sessionId === undefined ? {} : { sessionId }), ...item, scope };
};

type ScopedMembers = Pick<
  MemoryClient,
  | 'recall'
  | 'retain'
  | 'get'
  | 'forget'
  | 'list'
  | 'history'
  | 'correct'
  | 'procedures'
  | 'core'
  | 'currentSession'
  | 'listSessions'
  | 'resumeSession'
  | 'deleteSession'
>;

/** Most sessions a sender's resume looks through for the one named. */
const SESSIONS_SEARCHED = 10_000;

/**
 * The session each scope resumed with memory_resume_session. The plugin's client is shared by
 * every sender, so a resume cannot move the client's own current session (that would send
 * every sender's memory_store into one sender's session): each scope keeps its own here, and
 * only that scope's memory_store calls go to it.
 */
export class ResumedSessions {
  readonly #byScope = new Map<string, string>();
  static #key(scope: Scope): string {
    return JSON.stringify([scope.agentId ?? null, scope.userId ?? null, scope.namespace ?? null]);
  }
  /** The session `scope` resumed, if any. */
  get(scope: Scope): string | undefined {
    return this.#byScope.get(ResumedSessions.#key(scope));
  }
  /** `scope` continues `id` from now on. */
  set(scope: Scope, id: string): void {
    this.#byScope.set(ResumedSessions.#key(scope), id);
  }
  /** `scope` no longer continues `id` (it was deleted). */
  forget(scope: Scope, id: string): void {
    if (this.get(scope) === id) this.#byScope.delete(ResumedSessions.#key(scope));
  }
}

// Of the procedure library: the sender's own learned procedures (found, read and learned
// inside the scope), and steps from recordings, looked up and cached inside the scope. The
// recordings belong to the whole account: a caller who may not search them gets only the
// steps already cached in its own scope.
function scopedProcedures(client: MemoryClient, scope: Scope, searchRecordings: boolean): MemoryClient['procedures'] {
  const own: Partial<MemoryClient['procedures']> = {
    findRelevant: (query, options) => client.procedures.findRelevant(query, { ...options, scope }),
    get: (id) => client.procedures.get(id, { scope }),
    learn: (task) => client.procedures.learn(task, { scope }),
    formatProcedures: (found, options) => client.procedures.formatProcedures(found, options),
    fromRecording: (query, options) =>
      client.procedures.fromRecording(query, { ...options, scope, ...(searchRecordings ? {} : { search: false }) }),
    formatRecordedSteps: (results, options) => client.procedures.formatRecordedSteps(results, options),
  };
  return new Proxy(client.procedures, {
    get(_target, property) {
      if (property in own) return own[property as keyof typeof own];
      throw new MemoirError(
        'VALIDATION_FAILED',
        `procedures.${String(property)} is not available to an OpenClaw memory tool`,
        {
          component: 'openclaw-tools',
        },
      );
    },
  });
}

// The versions of a fact inside the scope only: a link to another scope's memory is never followed into it.
function historyInScope(history: MemoryHistory, scope: Scope): MemoryHistory {
  const versions = history.versions.filter((version) => inScope(version.memory, scope));
  const current = versions.some((version) => version.memory.id === history.current) ? history.current : null;
  return { ...history, versions, current };
}

function scopedMembers(
  client: MemoryClient,
  scope: Scope,
  searchRecordings: boolean,
  resumed: ResumedSessions,
  shared: boolean,
): ScopedMembers {
  // A client shared by many senders has no current session of any one of them.
  const current = () => resumed.get(scope) ?? (shared ? null : client.currentSession());
  const get = async (id: string): Promise<Memory> => {
    const memory = await client.get(id);
    if (!inScope(memory, scope)) throw new NotFoundError('memory', id, { component: 'openclaw-tools' });
    return memory;
  };
  return {
    procedures: scopedProcedures(client, scope, searchRecordings),
    recall: (query: string, options?: RecallOptions) => client.recall(query, { ...options, scope }),
    retain: ((input: unknown, options?: RetainOptions) => {
      if (typeof input === 'object' && input !== null && !Array.isArray(input) && 'messages' in input) {
        return client.retain({ ...(input as Parameters<MemoryClient['retain']>[0] & object), scope } as never);
      }
      const items = Array.isArray(input) ? input : [input];
      const scoped = items.map((item) => withScope(item as string | MemoryInput, scope, resumed.get(scope)));
      return client.retain(Array.isArray(input) ? scoped : scoped[0]!, options);
    }) as MemoryClient['retain'],
    get,
    list: async (options) => {
      // "current" is the session this scope resumed, not the shared client's.
      if (options?.sessionId !== 'current') return client.list({ ...options, scope });
      const session = current();
      return session === null ? [] : client.list({ ...options, sessionId: session, scope });
    },
    currentSession: current,
    listSessions: (options) => client.listSessions({ ...options, scope }),
    async resumeSession(id) {
      const found = (await client.listSessions({ scope, limit: SESSIONS_SEARCHED })).find((each) => each.id === id);
      if (!found) throw new NotFoundError('session', id, { component: 'openclaw-tools' });
      resumed.set(scope, found.id);
      return found;
    },
    async deleteSession(id, options) {
      const deleted = await client.deleteSession(id, { ...options, scope });
      resumed.forget(scope, id);
      return deleted;
    },
    // The sender's own core block: every call names the scope, so it is never another's.
    core: {
      get: () => client.core.get({ scope }),
      append: (text) => client.core.append(text, { scope }),
      replace: (edit) => client.core.replace(edit, { scope }),
      insert: (edit) => client.core.insert(edit, { scope }),
    },
    async history(id) {
      await get(id);
      return historyInScope(await client.history(id), scope);
    },
    async correct(id, input) {
      await get(id);
      const result = await client.correct(id, withScope(input, scope, resumed.get(scope)));
      return { id: result.id, history: historyInScope(result.history, scope) };
    },
    async forget(ids) {
      const wanted = typeof ids === 'string' ? [ids] : [...ids];
      const mine: string[] = [];
      for (const id of wanted) {
        try {
          mine.push((await get(id)).id);
        } catch (error) {
          // Unknown ids and other scopes' ids are ignored, as forget ignores unknown ids.
          if (!NotFoundError.isInstance(error)) throw error;
        }
      }
      return mine.length === 0 ? 0 : client.forget(mine);
    },
  };
}

// Members that carry no data of any scope, safe to pass through. The store is not one of them:
// it reads and writes every scope, so a tool never reaches it.
const PASS_THROUGH = new Set<PropertyKey>(['formatContext', 'embedder']);

/**
 * A view of `client` held inside `scope`, for the shared tool handlers. Members the memory
 * tools do not use reject with a MemoirError instead of reaching outside the scope.
 */
export function scopedToolClient(
  client: MemoryClient,
  scope: Scope,
  options: {
    searchRecordings?: boolean;
    /** The sessions each scope resumed, when many scopes share `client` (the plugin); else the client's own session is current. */
    resumed?: ResumedSessions;
  } = {},
): MemoryClient {
  // A scope naming no one would match every memory: the tools would reach every tenant.
  if (!namesSomeone(scope)) {
    throw new ValidationError([{ field: 'scope', message: 'expected a userId, agentId or namespace (got none)' }], {
      component: 'openclaw-tools',
      suggestion: 'Hold the tools in the scope of the user they act for.',
    });
  }
  const resumed = options.resumed ?? new ResumedSessions();
  const members = {
    ...scopedMembers(client, scope, options.searchRecordings ?? true, resumed, options.resumed !== undefined),
    // A resume naming a session this scope never used starts it (the shared tool's fallback).
    async startSession(id: string) {
      if (typeof id !== 'string' || id.trim() === '') {
        throw new ValidationError([{ field: 'session_id', message: 'expected a session id' }], {
          component: 'openclaw-tools',
        });
      }
      const known = (await client.listSessions({ scope, limit: SESSIONS_SEARCHED })).some((each) => each.id === id);
      resumed.set(scope, id);
      return { id, resumed: known };
    },
  } as unknown as Record<PropertyKey, unknown>;
  return new Proxy(client, {
    get(target, property) {
      if (property in members) return members[property];
      const value = Reflect.get(target, property, target) as unknown;
      if (PASS_THROUGH.has(property)) return typeof value === 'function' ? value.bind(target) : value;
      // Absent members and symbols (`then`, `Symbol.toStringTag`) carry nothing.
      if (value === undefined || typeof property === 'symbol') return value;
      const unavailable = () =>
        new MemoirError('VALIDATION_FAILED', `${String(property)} is not available to an OpenClaw memory tool`, {
          component: 'openclaw-tools',
          suggestion:
            'The plugin exposes memory_recall, memory_store, memory_forget, memory_read, memory_history, memory_correct, the session tools and the memory_core_* tools.',
        });
      // Objects (the store, procedures) would reach every scope: refused as they are read.
      if (typeof value !== 'function') throw unavailable();
      return () => {
        throw unavailable();
      };
    },
  });
}
