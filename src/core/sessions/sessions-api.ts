import { z } from 'zod';
import type { MemoryEngine } from '../engine/memory-engine.js';
import { autoBackup } from '../lifecycle/backup/auto-backup.js';
import { applyTallies } from '../memories/record-tallies.js';
import { NotFoundError } from '../spec/errors.js';
import type { Session } from '../spec/records.js';
import { confirmSchema, idSchema } from '../utils/common-schemas.js';
import { parseInput } from '../utils/validate.js';
import { type SessionSummary, summariseSession } from './session-summaries.js';

const listSessionsSchema = z.object({ limit: z.number().int().min(1).max(10_000).default(100) }).strict();

/** The runs of an agent: which one new memories go to, resuming one, listing and deleting them. */
export interface SessionsApi {
  /** The session new memories go to (`sessionId` option, `'auto'`, or the last `resumeSession`); null when none. */
  currentSession(): string | null;
  /**
   * Continue an earlier session: new memories go to it, and recall ranks its memories
   * higher (`ranking.sessionWeight`). Rejects with NotFoundError for an unknown session.
   */
  resumeSession(id: string): Promise<Session>;
  /** Sessions of the client's scope with start/end, memory count and a summary of what happened. */
  listSessions(options?: { limit?: number }): Promise<SessionSummary[]>;
  /**
   * Delete every memory of a session, and the session. Refuses without `{ confirm: true }`.
   * Resolves to the number of memories deleted.
   */
  deleteSession(id: string, options: { confirm: boolean }): Promise<number>;
}

/** The sessions feature over an engine. */
export function createSessionsApi(engine: MemoryEngine): SessionsApi {
  const { store, session } = engine;

  async function resumeSession(idInput: unknown): Promise<Session> {
    const id = parseInput(idSchema, idInput, 'resumeSession', 'id');
    await engine.ready('resumeSession');
    const [found] = await store.sessions.get([id]);
    if (!found) throw new NotFoundError('session', id, { component: 'resumeSession' });
    session.current = id;
    session.resumed = id;
    return found;
  }

  async function listSessions(optionsInput?: unknown): Promise<SessionSummary[]> {
    const { limit } = parseInput(listSessionsSchema, optionsInput ?? {}, 'listSessions', 'options');
    await engine.ready('listSessions');
    const sessions = await store.sessions.list({ scope: engine.scope });
    const newestFirst = sessions.sort((a, b) => (a.startedAt < b.startedAt ? 1 : -1)).slice(0, limit);
    return Promise.all(
      newestFirst.map(async (each) =>
        summariseSession(each, await store.listMemories({ filter: { sessionId: each.id, scope: engine.scope } })),
      ),
    );
  }

  async function deleteSession(idInput: unknown, optionsInput: unknown): Promise<number> {
    const id = parseInput(idSchema, idInput, 'deleteSession', 'id');
    parseInput(confirmSchema, optionsInput ?? {}, 'deleteSession', 'options');
    await engine.ready('deleteSession');
    await autoBackup(engine, 'delete-session');
    const deleted = await store.transaction(async () => {
      const memories = await store.listMemories({ filter: { sessionId: id, scope: engine.scope } });
      if (memories.length > 0) {
        await store.deleteMemories(memories.map((memory) => memory.id));
        await applyTallies(store, memories, -1, engine.nowIso());
      }
      await store.sessions.delete([id]);
      return memories.map((memory) => memory.id);
    });
    if (deleted.length > 0) engine.emit('memory:forgotten', { ids: deleted });
    if (session.current === id) session.current = null;
    if (session.resumed === id) session.resumed = null;
    return deleted.length;
  }

  return {
    currentSession: () => session.current,
    resumeSession: (id) => resumeSession(id),
    listSessions: (options) => listSessions(options),
    deleteSession: (id, options) => deleteSession(id, options),
  };
}
