/** The seed's session tracking: resume a run, list the runs, delete one. */
import { z } from 'zod';
import type { SessionSummary } from '../../index.js';
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

/**
 * Continue an earlier session (the seed's `memory_resume_session`).
 *
 * @group Agent tools
 */
export const memoryResumeSessionTool = defineAgentTool({
  name: 'memory_resume_session',
  title: 'Resume a session',
  description:
    'Continue where an earlier session left off: new memories go to that session and searches rank its memories higher. ' +
    'Returns the session and its latest memories. Find ids with memory_list_sessions.',
  inputSchema: z.object({ session_id: sessionId.describe('The session to continue.') }).strict(),
  readOnly: false,
  destructive: false,
  async run(client, { session_id }) {
    const session = await client.resumeSession(session_id);
    const latest = await client.list({ sessionId: session.id, limit: RESUME_CONTEXT });
    const header = `Resumed session ${session.id} (started ${shortTime(session.startedAt)}, ${plural(session.memoryCount, 'memory', 'memories')}).`;
    return {
      text: section(
        `${header}\nLatest memories:`,
        latest.map((memory) => memoryLine(memory)),
        header,
      ),
      structured: { session, latest: latest.map((memory) => memoryView(memory, 500)) },
    };
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
