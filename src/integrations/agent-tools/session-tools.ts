/** The seed's session tracking: resume a run, list the runs, delete one. */
import { z } from 'zod';
import { type MemoryClient, NotFoundError, type SessionSummary, ValidationError } from '../../index.js';
import { defineAgentTool, requireConfirm } from './define-agent-tool.js';
import { memoryLine, memoryView, plural, section, shortTime } from './tool-text.js';

const sessionId = z.string().trim().min(1, 'expected a session id').max(256);
// What a resumed session shows of itself: enough to pick up the thread, not the whole run.
const RESUME_CONTEXT = 10;

function sessionLine(session: SessionSummary): string {
  const span = `${shortTime(session.startedAt)} → ${session.endedAt ? shortTime(session.endedAt) : 'open'}`;
  const top = [...session.topActions, ...session.topCategories]
    .slice(0, 4)
    .map((tally) => `${tally.name}×${tally.count}`)
    .join(', ');
  return `- ${session.id} (${span}, ${plural(session.memoryCount, 'memory', 'memories')}${top ? `; ${top}` : ''})`;
}

/** The latest memories of a session a client continues, as tool text and data. */
async function continued(client: MemoryClient, id: string, header: string) {
  const latest = await client.list({ sessionId: id, limit: RESUME_CONTEXT });
  return {
    text: section(
      `${header}\nLatest memories:`,
      latest.map((memory) => memoryLine(memory)),
      header,
    ),
    latest: latest.map((memory) => memoryView(memory, 500)),
  };
}

/**
 * Continue an earlier session (the seed's `memory_resume_session`); an id never used starts a
 * session of that id, so a client may name its own runs.
 *
 * @group Agent tools
 */
export const memoryResumeSessionTool = defineAgentTool({
  name: 'memory_resume_session',
  title: 'Resume a session',
  description:
    'Continue where an earlier session left off: new memories go to that session and searches rank its memories higher. ' +
    'Returns the session and its latest memories. Find ids with memory_list_sessions. ' +
    'An id not used before starts a new session with that id (as memory_start_session does).',
  inputSchema: z.object({ session_id: sessionId.describe('The session to continue.') }).strict(),
  readOnly: false,
  destructive: false,
  async run(client, { session_id }) {
    let session: Awaited<ReturnType<MemoryClient['resumeSession']>>;
    try {
      session = await client.resumeSession(session_id);
    } catch (error) {
      if (!NotFoundError.isInstance(error)) throw error;
      const started = await client.startSession(session_id);
      const text = `No session ${started.id} yet: started it; new memories go to it.`;
      return { text, structured: { session: { id: started.id }, started: true, latest: [] } };
    }
    const header = `Resumed session ${session.id} (started ${shortTime(session.startedAt)}, ${plural(session.memoryCount, 'memory', 'memories')}).`;
    const { text, latest } = await continued(client, session.id, header);
    return { text, structured: { session, started: false, latest } };
  },
});

/**
 * Name (or start) the session new memories go to, e.g. so capture exclusions such as
 * `banking_*` match it.
 *
 * @group Agent tools
 */
export const memoryStartSessionTool = defineAgentTool({
  name: 'memory_start_session',
  title: 'Start a session',
  description:
    'Start a session (run) that new memories and captured tool calls go to, named by you (e.g. "banking_2026") or generated when no name is given. ' +
    'A name used before continues that session. Privacy exclusions of the server (e.g. --capture-exclude "banking_*") match this name.',
  inputSchema: z
    .object({
      name: sessionId.optional().describe('The session id to use, e.g. "banking_2026". Default: a new session_… id.'),
      session_id: sessionId.optional().describe('The same as name, in the words of the other session tools.'),
    })
    .strict(),
  readOnly: false,
  destructive: false,
  async run(client, { name, session_id }) {
    if (name !== undefined && session_id !== undefined && name !== session_id) {
      throw new ValidationError([{ field: 'session_id', message: `names another session than name (${name})` }], {
        component: 'memory_start_session',
        suggestion: 'Pass one of name and session_id.',
      });
    }
    const started = await client.startSession(name ?? session_id);
    if (!started.resumed) {
      return {
        text: `Started session ${started.id}; new memories go to it.`,
        structured: { session: { id: started.id }, started: true, latest: [] },
      };
    }
    const { text, latest } = await continued(client, started.id, `Continuing session ${started.id}.`);
    return { text, structured: { session: { id: started.id }, started: false, latest } };
  },
});

/**
 * Every session with its span, size and summary (the seed's `memory_list_sessions`).
 *
 * @group Agent tools
 */
export const memoryListSessionsTool = defineAgentTool({
  name: 'memory_list_sessions',
  title: 'List sessions',
  description:
    'List the sessions (runs) memories were stored in, newest first: id, start and end, number of memories and the most common actions and categories. ' +
    'Use an id with memory_resume_session, memory_list or memory_create_workflow_from_session.',
  inputSchema: z
    .object({ limit: z.number().int().min(1).max(1000).optional().describe('Most sessions. Default 50.') })
    .strict(),
  readOnly: true,
  destructive: false,
  async run(client, { limit = 50 }) {
    const sessions = await client.listSessions({ limit });
    const current = client.currentSession();
    return {
      text: section(
        `${plural(sessions.length, 'session', 'sessions')}${current ? ` (current: ${current})` : ''}:`,
        sessions.map(sessionLine),
        'No sessions yet.',
      ),
      structured: { current, sessions },
    };
  },
});

/**
 * Delete a session and its memories, after an automatic backup (the seed's `memory_delete_session`).
 *
 * @group Agent tools
 */
export const memoryDeleteSessionTool = defineAgentTool({
  name: 'memory_delete_session',
  title: 'Delete a session',
  description:
    'Delete every memory of a session, for example after sensitive work. A backup is made first. ' +
    'Ask the user before calling; confirm must be true. Returns how many memories were deleted.',
  inputSchema: z
    .object({
      session_id: sessionId.describe('The session to delete.'),
      confirm: z.boolean().optional().describe('Must be true: the user agreed to the deletion.'),
    })
    .strict(),
  readOnly: false,
  destructive: true,
  async run(client, { session_id, confirm }) {
    requireConfirm('memory_delete_session', confirm, `deletes every memory of session ${session_id}`);
    const deleted = await client.deleteSession(session_id, { confirm: true });
    return {
      text: `Deleted session ${session_id}: ${plural(deleted, 'memory', 'memories')} removed (a backup was made first).`,
      structured: { sessionId: session_id, deleted },
    };
  },
});
