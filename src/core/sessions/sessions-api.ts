import { z } from 'zod';
import { autoBackup } from '../backup/auto-backup.js';
import type { MemoryEngine } from '../engine/memory-engine.js';
import { generateSessionId } from '../engine/session-id.js';
import { type AsyncMembers, drained } from '../engine/track-calls.js';
import { isEmptyScope, narrowScope } from '../search/scope-boundary.js';
import { applyTallies, sessionIdOf } from '../shared/record-tallies.js';
import { type SessionSummary, summariseSession } from '../shared/session-summaries.js';
import { NotFoundError } from '../spec/errors.js';
import { type Scope, scopeSchema } from '../spec/memory.js';
import type { Session } from '../spec/records.js';
import { idSchema, parseConfirm } from '../utils/common-schemas.js';
import { pagesOf } from '../utils/pages.js';
import { parseInput } from '../utils/validate.js';

const listSessionsSchema = z
  .object({ limit: z.number().int().min(1).max(10_000).default(100), scope: scopeSchema.optional() })
  .strict();

/**
 * The runs of an agent: which one new memories go to, resuming one, listing and deleting them.
 *
 * @group Client
 */
export interface SessionsApi {
  /** The session new memories go to (`sessionId` option, `'auto'`, or the last `resumeSession`); null when none. */
  currentSession(): string | null;
  /**
   * Continue an earlier session: new memories go to it, and recall ranks its memories
   * higher (`ranking.sessionWeight`). Rejects with NotFoundError for an unknown session.
   */
  resumeSession(id: string): Promise<Session>;
  /**
   * Make `id` the session new memories go to — a name the caller chose (e.g. `banking_2026`,
   * which capture's exclusions then match), or a generated `session_…` id when omitted. An id
   * this scope has used before is continued as {@link SessionsApi.resumeSession} would; a new
   * one is recorded with its first memory. Resolves to the id and whether it already existed.
   */
  startSession(id?: string): Promise<SessionStart>;
  /**
   * Sessions of the client's scope with start/end, memory count and a summary of what happened.
   * `scope` narrows it (a door serving many users on one client names the caller's); it never
   * widens a scoped client's.
   */
  listSessions(options?: { limit?: number; scope?: Scope }): Promise<SessionSummary[]>;
  /**
   * Delete every memory of a session, and the session. Refuses without `{ confirm: true }`.
   * `scope` narrows what is deleted, as in `listSessions`. Resolves to the number of memories deleted.
   */
  deleteSession(id: string, options: { confirm: boolean; scope?: Scope }): Promise<number>;
}

/** The call's `scope` apart from the rest of its options (`{ confirm }` is parsed strictly). */
function splitScope(input: unknown): { scope: unknown; rest: unknown } {
  if (typeof input !== 'object' || input === null || Array.isArray(input) || !('scope' in input)) {
    return { scope: undefined, rest: input };
  }
  const { scope, ...rest } = input as Record<string, unknown>;
  return { scope, rest };
}

/**
 * What `startSession` resolves to.
 *
 * @group Memories and sessions
 */
export interface SessionStart {
  /** The session new memories now go to. */
  id: string;
  /** True when this scope had used the id before: the session is continued, as by `resumeSession`. */
  resumed: boolean;
}

/** The sessions feature over an engine. */
export function createSessionsApi(engine: MemoryEngine): SessionsApi {
  const { store, session } = engine;

  // Records are keyed by scope and session id; callers see the bare session id.
  const asSession = (record: Session): Session => ({ ...record, id: sessionIdOf(record) });

  /** The records of this session id inside `scope` (one per scope that used it). */
  async function recordsOf(id: string, scope: Scope | undefined = engine.scope): Promise<Session[]> {
    const records: Session[] = [];
    for await (const page of pagesOf((offset, limit) => store.sessions.list({ scope, limit, offset }))) {
      records.push(...page.filter((record) => sessionIdOf(record) === id));
    }
    return records;
  }

  async function resumeSession(idInput: unknown): Promise<Session> {
    const id = parseInput(idSchema, idInput, 'resumeSession', 'id');
    await engine.ready('resumeSession');
    const [found] = await recordsOf(id);
    if (!found) throw new NotFoundError('session', id, { component: 'resumeSession' });
    session.current = id;
    session.resumed = id;
    return asSession(found);
  }

  async function startSession(idInput?: unknown): Promise<SessionStart> {
    const id =
      idInput === undefined
        ? generateSessionId(engine.clock.now())
        : parseInput(idSchema, idInput, 'startSession', 'id');
    await engine.ready('startSession');
    const [found] = await recordsOf(id);
    session.current = id;
    // Recall favours a resumed session's memories; a new one has none yet.
    session.resumed = found ? id : null;
    return { id, resumed: found !== undefined };
  }

  async function listSessions(optionsInput?: unknown): Promise<SessionSummary[]> {
    const options = parseInput(listSessionsSchema, optionsInput ?? {}, 'listSessions', 'options');
    await engine.ready('listSessions');
    // Another tenant's scope than the client's own: nothing there, as for list.
    const scope = narrowScope(engine.scope, options.scope);
    if (scope === null) return [];
    const records = await store.sessions.list({ scope });
    // A scoped client sees one session per id, however its memories narrowed the scope;
    // an admin sees each tenant's session of that id apart.
    const groups = new Map<string, Session[]>();
    for (const record of records) {
      const key = isEmptyScope(scope) ? record.id : sessionIdOf(record);
      groups.set(key, [...(groups.get(key) ?? []), record]);
    }
    const sessions = [...groups.values()].map((group) => merged(group, scope));
    const newestFirst = sessions.sort((a, b) => (a.startedAt < b.startedAt ? 1 : -1)).slice(0, options.limit);
    return Promise.all(
      newestFirst.map(async (each) => {
        const filter = { sessionId: each.id, scope: each.scope };
        return summariseSession(each, await store.listMemories({ filter }));
      }),
    );
  }

  // One session from the records of one id: the scope listed, the earliest start, the latest end.
  function merged(group: readonly Session[], scope: Scope | undefined): Session {
    const [first, ...rest] = group.map(asSession) as [Session, ...Session[]];
    if (rest.length === 0) return first;
    const sum: Session = { ...first, scope: scope ?? {} };
    for (const record of rest) {
      if (record.startedAt < sum.startedAt) sum.startedAt = record.startedAt;
      if (record.endedAt !== null && (sum.endedAt === null || record.endedAt > sum.endedAt))
        sum.endedAt = record.endedAt;
      sum.memoryCount += record.memoryCount;
      sum.summary ??= record.summary;
    }
    return sum;
  }

  async function deleteSession(idInput: unknown, optionsInput: unknown): Promise<number> {
    const id = parseInput(idSchema, idInput, 'deleteSession', 'id');
    const { scope: scopeInput, rest } = splitScope(optionsInput);
    parseConfirm(rest, 'deleteSession');
    const call =
      scopeInput === undefined ? undefined : parseInput(scopeSchema, scopeInput, 'deleteSession', 'options.scope');
    const scope = narrowScope(engine.scope, call);
    // Another tenant's session is not there for this client: nothing to delete.
    if (scope === null) return 0;
    await engine.ready('deleteSession');
    await autoBackup(engine, 'delete-session');
    const deleted = await store.transaction(async () => {
      const memories = await store.listMemories({ filter: { sessionId: id, scope } });
      if (memories.length > 0) {
        await store.deleteMemories(memories.map((memory) => memory.id));
        await applyTallies(store, memories, -1, engine.nowIso());
      }
      await store.sessions.delete((await recordsOf(id, scope)).map((record) => record.id));
      return memories.map((memory) => memory.id);
    });
    if (deleted.length > 0) engine.emit('memory:forgotten', { ids: deleted });
    if (session.current === id) session.current = null;
    if (session.resumed === id) session.resumed = null;
    return deleted.length;
  }

  return {
    currentSession: () => session.current,
    ...drained<AsyncMembers<SessionsApi>>({
      resumeSession: (id) => resumeSession(id),
      startSession: (id) => startSession(id),
      listSessions: (options) => listSessions(options),
      deleteSession: (id, options) => deleteSession(id, options),
    }),
  };
}
