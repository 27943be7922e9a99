/** The versions of a fact: its history, and a correction that supersedes an old version in one call. */
import { z } from 'zod';
import { ValidationError } from '../../core/spec/errors.js';
import { MEMORY_KINDS, type MemoryClient, type MemoryHistory, type MemoryInput } from '../../index.js';
import { defineAgentTool } from './define-agent-tool.js';
import { memoryView, preview, shortTime } from './tool-text.js';

const idField = z.string().trim().min(1, 'expected a memory id').max(256);

// The memory tools name an id `memory_id`; `id` is read the same, so either spelling works.
const idArguments = {
  memory_id: idField.optional().describe('The memory id (any version of the fact).'),
  id: idField.optional().describe('Same as memory_id.'),
};

function memoryIdOf(tool: string, input: { memory_id?: string | undefined; id?: string | undefined }): string {
  if (input.memory_id !== undefined && input.id !== undefined && input.memory_id !== input.id) {
    throw new ValidationError(
      [{ field: 'id', message: 'expected one memory id: memory_id and id name different memories' }],
      {
        component: tool,
      },
    );
  }
  const id = input.memory_id ?? input.id;
  if (id === undefined) {
    throw new ValidationError([{ field: 'memory_id', message: 'expected a memory id' }], { component: tool });
  }
  return id;
}

// What the day alone says when the time is midnight (most facts carry only a day).
function day(iso: string): string {
  return iso.slice(11, 23) === '00:00:00.000' ? iso.slice(0, 10) : shortTime(iso);
}

/** The versions as lines a model reads: when each held, its id (the current one marked), its text and why it ended. */
function historyText(history: MemoryHistory): string {
  const lines = history.versions.map((version) => {
    const current = version.memory.id === history.current ? ' [current]' : '';
    const until = version.until === null ? 'now' : day(version.until);
    const ended = version.until === null ? '' : ` (ended: ${version.reason ?? 'superseded'})`;
    return `- ${day(version.from)} → ${until}  ${version.memory.id}${current}: ${preview(version.memory.content)}${ended}`;
  });
  const count = history.versions.length;
  const heading =
    count === 1
      ? `Memory ${history.id} has one version: it was never superseded.`
      : `${count} versions of the fact in memory ${history.id}, oldest first:`;
  const current =
    history.current === null
      ? 'No version is true now (each was invalidated).'
      : `The current version is ${history.current}; earlier ones are no longer true.`;
  return [heading, ...lines, current].join('\n');
}

function historyView(history: MemoryHistory) {
  return {
    id: history.id,
    current: history.current,
    versions: history.versions.map((version) => ({
      ...memoryView(version.memory),
      from: version.from,
      until: version.until,
      reason: version.reason,
      supersededBy: version.memory.supersededBy,
    })),
  };
}

/**
 * The versions of the fact a memory belongs to (the library's `history(id)`).
 *
 * @group Agent tools
 */
export const memoryHistoryTool = defineAgentTool({
  name: 'memory_history',
  title: 'History of a fact',
  description:
    'Show every version of the fact a memory belongs to, oldest first: when each was true, which one is current, and why the ' +
    'older ones stopped being true (a newer fact superseded them, or a correction). Use it when a recalled memory is marked ' +
    'superseded, or to answer what was true before a change. Takes the id of any version.',
  inputSchema: z.object(idArguments).strict(),
  readOnly: true,
  destructive: false,
  async run(client, input) {
    const history = await client.history(memoryIdOf('memory_history', input));
    return { text: historyText(history), structured: historyView(history) };
  },
});

/**
 * Store a corrected version of a memory, superseding the old one (the library's `correct(id, input)`).
 *
 * @group Agent tools
 */
export const memoryCorrectTool = defineAgentTool({
  name: 'memory_correct',
  title: 'Correct a memory',
  description:
    'Replace a remembered fact that changed or was wrong with its corrected version, in one call: the new text is stored as ' +
    'a new memory that supersedes the old one. The old one is kept as history (memory_history shows both) and recalled ' +
    'below the new one, marked superseded. Kind, category and entities default to the old memory’s. Returns the new id.',
  inputSchema: z
    .object({
      ...idArguments,
      content: z
        .string()
        .trim()
        .min(1, 'expected the corrected text')
        .max(100_000)
        .describe('The corrected fact, in full (not only the part that changed).'),
      category: z.string().trim().min(1).max(128).optional().describe('Its topic. Default: the old memory’s.'),
      kind: z
        .enum(MEMORY_KINDS)
        .optional()
        .describe('world, experience, opinion or observation. Default: the old memory’s.'),
      entities: z
        .array(z.string().min(1).max(200))
        .max(100)
        .optional()
        .describe('People, projects or things it is about. Default: the old memory’s.'),
      importance: z.number().min(0).max(1).optional().describe('0..1, how much it matters. Default 0.5.'),
      occurred_at: z
        .string()
        .trim()
        .min(1)
        .max(100)
        .optional()
        .describe('When the new version became true, e.g. "2025-12-01". Default: now.'),
    })
    .strict(),
  readOnly: false,
  destructive: false,
  // `type` was this argument's name before the vocabulary gave every door the library's `category`.
  renamed: [{ from: 'type', to: 'category' }],
  async run(client, input) {
    const id = memoryIdOf('memory_correct', input);
    const corrected: MemoryInput = {
      content: input.content,
      ...(input.category === undefined ? {} : { category: input.category }),
      ...(input.kind === undefined ? {} : { kind: input.kind }),
      ...(input.entities === undefined ? {} : { entities: input.entities }),
      ...(input.importance === undefined ? {} : { importance: input.importance }),
      ...(input.occurred_at === undefined ? {} : { occurredAt: input.occurred_at }),
    };
    const result = await correctNaming(client, id, corrected);
    return {
      text: `Stored ${result.id}, which supersedes ${id}.\n${historyText(result.history)}`,
      structured: { id: result.id, supersedes: id, history: historyView(result.history) },
    };
  },
});

// The library names the input's fields `input.occurredAt`; a model sent `occurred_at`.
async function correctNaming(client: MemoryClient, id: string, input: MemoryInput) {
  try {
    return await client.correct(id, input);
  } catch (error) {
    if (!ValidationError.isInstance(error)) throw error;
    const renamed = error.issues.map((issue) => ({ ...issue, field: toolField(issue.field) }));
    throw new ValidationError(renamed, { component: 'memory_correct', cause: error });
  }
}

const TOOL_FIELDS: Record<string, string> = {
  'input.content': 'content',
  'input.occurredAt': 'occurred_at',
  'input.category': 'category',
  'input.kind': 'kind',
  'input.entities': 'entities',
  'input.importance': 'importance',
  id: 'memory_id',
};

function toolField(field: string): string {
  for (const [library, tool] of Object.entries(TOOL_FIELDS)) {
    if (field === library || field.startsWith(`${library}.`) || field.startsWith(`${library}[`)) {
      return tool + field.slice(library.length);
    }
  }
  return field;
}
