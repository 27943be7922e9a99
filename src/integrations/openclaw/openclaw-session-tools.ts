import { z } from 'zod';
import { memoryDeleteSessionTool, memoryListSessionsTool, memoryResumeSessionTool } from '../agent-tools.js';
import { type Mapping, mapping } from './openclaw-tool-mapping.js';

// The session tools MCP serves (list, resume, delete), with the plugin's parameter names. A
// session here is an OpenClaw session memoir captured (its sessionId), or one memory_store
// wrote into after a resume. Each call runs on the caller's view of the client (`withScope`,
// openclaw-tenant-views.ts): a sender lists, resumes and deletes only their own sessions, and
// a resume moves only their view's session, so only their memory_store calls, never another sender's.

const sessionIdParam = z.string().trim().min(1, 'expected a session id').max(256);

const listSessions = mapping({
  name: 'memory_list_sessions',
  label: 'Memory List Sessions',
  description:
    'List the sessions your memories were kept in, newest first: id, start and end, number of memories and the most common ' +
    'categories. Use an id with memory_resume_session or memory_delete_session.',
  params: z
    .object({ limit: z.number().int().min(1).max(1000).optional().describe('Max sessions (default: 50)') })
    .strict(),
  tool: memoryListSessionsTool,
  toArgs: (params) => (params.limit === undefined ? {} : { limit: params.limit }),
});

const resumeSession = mapping({
  name: 'memory_resume_session',
  label: 'Memory Resume Session',
  description:
    'Continue where an earlier session left off: returns the session and its latest memories, and what you store with ' +
    'memory_store from now on goes to that session. Find ids with memory_list_sessions; an id not used before starts a ' +
    'session of that name.',
  params: z.object({ sessionId: sessionIdParam.describe('The session to continue') }).strict(),
  tool: memoryResumeSessionTool,
  toArgs: (params) => ({ session_id: params.sessionId }),
});

const deleteSession = mapping({
  name: 'memory_delete_session',
  label: 'Memory Delete Session',
  description:
    'Delete every memory of one of your sessions, for example after sensitive work. A backup is made first. ' +
    'Ask the user before calling; confirm must be true. Returns how many memories were deleted.',
  params: z
    .object({
      sessionId: sessionIdParam.describe('The session to delete'),
      confirm: z.boolean().optional().describe('Must be true: the user agreed to the deletion'),
    })
    .strict(),
  tool: memoryDeleteSessionTool,
  toArgs: (params) => ({
    session_id: params.sessionId,
    ...(params.confirm === undefined ? {} : { confirm: params.confirm }),
  }),
});

/** The session tools, registered with the memory tools (`registerTools`). */
export const SESSION_MAPPINGS: readonly Mapping[] = [listSessions, resumeSession, deleteSession];
