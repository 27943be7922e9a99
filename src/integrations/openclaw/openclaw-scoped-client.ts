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

const withScope = (input: string | MemoryInput, scope: Scope): MemoryInput =>
  typeof input === 'string' ? { content: input, scope } : { ...input, scope };

type ScopedMembers = Pick<
  MemoryClient,
  'recall' | 'retain' | 'get' | 'forget' | 'list' | 'history' | 'correct' | 'procedures' | 'core'
>;

// Of the procedure library, only steps from recordings, looked up and cached inside the scope.
// The recordings belong to the whole account: a caller who may not search them gets only the
// steps already cached in its own scope.
function scopedProcedures(client: MemoryClient, scope: Scope, searchRecordings: boolean): MemoryClient['procedures'] {
  const own: Partial<MemoryClient['procedures']> = {
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

function scopedMembers(client: MemoryClient, scope: Scope, searchRecordings: boolean): ScopedMembers {
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
      const scoped = items.map((item) => withScope(item as string | MemoryInput, scope));
      return client.retain(Array.isArray(input) ? scoped : scoped[0]!, options);
    }) as MemoryClient['retain'],
    get,
    list: (options) => client.list({ ...options, scope }),
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
      const result = await client.correct(id, withScope(input, scope));
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
const PASS_THROUGH = new Set<PropertyKey>(['formatContext', 'currentSession', 'embedder']);

/**
 * A view of `client` held inside `scope`, for the shared tool handlers. Members the memory
 * tools do not use reject with a MemoirError instead of reaching outside the scope.
 */
export function scopedToolClient(
  client: MemoryClient,
  scope: Scope,
  options: { searchRecordings?: boolean } = {},
): MemoryClient {
  // A scope naming no one would match every memory: the tools would reach every tenant.
  if (!namesSomeone(scope)) {
    throw new ValidationError([{ field: 'scope', message: 'expected a userId, agentId or namespace (got none)' }], {
      component: 'openclaw-tools',
      suggestion: 'Hold the tools in the scope of the user they act for.',
    });
  }
  const members = scopedMembers(client, scope, options.searchRecordings ?? true) as unknown as Record<
    PropertyKey,
    unknown
  >;
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
            'The plugin exposes memory_recall, memory_store, memory_forget, memory_history, memory_correct and the memory_core_* tools.',
        });
      // Objects (the store, procedures) would reach every scope: refused as they are read.
      if (typeof value !== 'function') throw unavailable();
      return () => {
        throw unavailable();
      };
    },
  });
}
