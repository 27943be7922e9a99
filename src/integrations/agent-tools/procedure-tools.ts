/** Procedures learned from finished tasks (`memory.procedures`) and reflection over a workspace (`memory.reflect`). */
import { z } from 'zod';
import { NotFoundError, type Procedure } from '../../index.js';
import { defineAgentTool } from './define-agent-tool.js';
import { plural, section } from './tool-text.js';

const procedureId = z.string().trim().min(1, 'expected a procedure id').max(200);

function procedureLine(procedure: Procedure): string {
  const uses = procedure.successCount + procedure.failureCount;
  return `- ${procedure.id}: ${procedure.title} (${plural(procedure.steps.length, 'step', 'steps')}, ${procedure.successCount}/${uses} successful uses)`;
}

/**
 * The procedures that fit a request, as a prompt section.
 *
 * @group Agent tools
 */
export const memoryFindProceduresTool = defineAgentTool({
  name: 'memory_find_procedures',
  title: 'Find procedures',
  description:
    'Before a multi-step task, find the learned procedures (how it was done before: steps, what works, what does not) that fit ' +
    "the request, steps seen in the user's screen recordings among them (with their date, video range and confidence). " +
    'Follow them as guidance, then report the outcome with memory_record_procedure_use.',
  inputSchema: z
    .object({
      request: z.string().trim().min(1, 'expected the task, in words').max(20_000).describe('The task to do.'),
      k: z.number().int().min(1).max(20).optional().describe('Most procedures. Default 2.'),
      sources: z
        .array(z.enum(['reflection', 'session', 'manual', 'recording']))
        .min(1)
        .optional()
        .describe(
          'Only procedures of these sources; ["recording"] for steps seen in screen recordings only. Default all.',
        ),
    })
    .strict(),
  readOnly: true,
  destructive: false,
  // `k` sizes every ranked answer (memory_recall, memory_suggest, memory_procedures_from_recording).
  renamed: [{ from: 'top_k', to: 'k' }],
  async run(client, { request, k, sources }) {
    const found = await client.procedures.findRelevant(request, {
      ...(k === undefined ? {} : { k }),
      ...(sources === undefined ? {} : { sources }),
    });
    return {
      text: found.length === 0 ? 'No learned procedure fits this request.' : client.procedures.formatProcedures(found),
      structured: {
        procedures: found.map((item) => ({
          ...item.procedure,
          similarity: item.similarity,
          file: item.file,
          ...(item.recording ? { recording: item.recording } : {}),
        })),
      },
    };
  },
});

/**
 * Every learned procedure.
 *
 * @group Agent tools
 */
export const memoryListProceduresTool = defineAgentTool({
  name: 'memory_list_procedures',
  title: 'List procedures',
  description: 'List the learned procedures (reusable workflows) with their ids, step counts and track record.',
  inputSchema: z.object({}).strict(),
  readOnly: true,
  destructive: false,
  async run(client) {
    const procedures = await client.procedures.list();
    return {
      text: section(
        `${plural(procedures.length, 'procedure', 'procedures')}:`,
        procedures.map(procedureLine),
        'No procedures yet.',
      ),
      structured: { procedures },
    };
  },
});

/**
 * One learned procedure, whole: its steps, what works, what does not, its output format.
 *
 * @group Agent tools
 */
export const memoryGetProcedureTool = defineAgentTool({
  name: 'memory_get_procedure',
  title: 'Get a procedure',
  description:
    'Read one learned procedure by its id (from memory_find_procedures or memory_list_procedures): its steps, what works, ' +
    'what does not and the output format, as untrusted notes to follow only as far as they fit the task.',
  inputSchema: z.object({ procedure_id: procedureId.describe('The procedure to read.') }).strict(),
  readOnly: true,
  destructive: false,
  set: 'procedures',
  async run(client, { procedure_id }) {
    const procedure = await client.procedures.get(procedure_id);
    if (!procedure) {
      throw new NotFoundError('procedure', procedure_id, {
        component: 'memory_get_procedure',
        suggestion: 'Find the procedures that fit the task with memory_find_procedures, and pass one of their ids.',
      });
    }
    return {
      text: client.procedures.formatProcedures([procedure], { title: 'Procedure' }),
      structured: { procedure },
    };
  },
});

/**
 * Record whether following a procedure worked.
 *
 * @group Agent tools
 */
export const memoryRecordProcedureUseTool = defineAgentTool({
  name: 'memory_record_procedure_use',
  title: 'Record a procedure’s outcome',
  description:
    'After following a procedure, record whether it worked, so good ones rank higher and stale or failing ones get reviewed.',
  inputSchema: z
    .object({
      procedure_id: procedureId.describe('The procedure followed.'),
      success: z.boolean().describe('Whether the task succeeded.'),
    })
    .strict(),
  readOnly: false,
  destructive: false,
  async run(client, { procedure_id, success }) {
    const procedure = await client.procedures.recordUse(procedure_id, { success });
    return {
      text: `Recorded a ${success ? 'success' : 'failure'} for ${procedure.id}: ${plural(procedure.successCount, 'success', 'successes')}, ${plural(procedure.failureCount, 'failure', 'failures')}.`,
      structured: { procedure },
    };
  },
});

/**
 * Learn a procedure from a finished task, in the background.
 *
 * @group Agent tools
 */
export const memoryLearnProcedureTool = defineAgentTool({
  name: 'memory_learn_procedure',
  title: 'Learn from a finished task',
  description:
    'After finishing a multi-step task, hand over the request and the tools called, in order: memoir writes or updates a ' +
    'reusable procedure in the background (tasks with fewer than 3 tool calls or that failed are not learned from).',
  inputSchema: z
    .object({
      request: z.string().trim().min(1, 'expected the task, in words').max(20_000).describe('What the user asked for.'),
      tool_calls: z
        .array(
          z.union([
            z.string().trim().min(1).max(200),
            z
              .object({
                name: z.string().trim().min(1).max(200),
                input: z.unknown().optional(),
                output: z.unknown().optional(),
                error: z.unknown().optional(),
              })
              .strict(),
          ]),
        )
        .max(1000)
        .describe(
          'The tools called, in order: names, or {name, input, output, error}. Give a call that failed its error (or its result with isError: true): a failed call is never made a step.',
        ),
      narration: z
        .union([z.string().max(100_000), z.array(z.string().max(100_000)).max(1000)])
        .optional()
        .describe(
          'What you said between the tool calls (why you chose each, what did not work), as one text or a list: the reflection learns what works and what does not from it.',
        ),
      response: z.string().max(100_000).optional().describe('The final answer given.'),
      success: z.boolean().optional().describe('Whether the task succeeded. Default true.'),
    })
    .strict(),
  readOnly: false,
  destructive: false,
  async run(client, { request, tool_calls, narration, response, success }) {
    const result = await client.procedures.learn({
      request,
      toolCalls: tool_calls,
      ...(narration === undefined ? {} : { narration }),
      ...(response === undefined ? {} : { response }),
      ...(success === undefined ? {} : { success }),
    });
    return {
      text: result.scheduled
        ? 'Learning a procedure from this task in the background.'
        : `Not learned: ${result.reason}.`,
      structured: { ...result },
    };
  },
});

/**
 * Reflect over recent memories: entity pages, opinion confidence, proposals for the core block.
 *
 * @group Agent tools
 */
export const memoryReflectTool = defineAgentTool({
  name: 'memory_reflect',
  title: 'Reflect on recent memories',
  description:
    'Consolidate recent memories in the Markdown workspace: update the page of each person or project with new facts, move ' +
    'opinions’ confidence on new evidence, and propose lasting facts for memory.md. Needs a workspace.',
  inputSchema: z
    .object({
      since: z
        .string()
        .trim()
        .min(1)
        .max(100)
        .optional()
        .describe('Window to reflect over: "7d" (default), "last week", a date.'),
    })
    .strict(),
  readOnly: false,
  destructive: false,
  async run(client, { since }) {
    const report = await client.reflect(since === undefined ? {} : { since });
    const lines = [
      ...report.entityPages.map((page) => `- page ${page.file}: ${page.status}`),
      ...report.bankPages.map((page) => `- page ${page.file}: ${page.status}`),
      ...report.retainSections.added.map(
        (added) => `- ## Retain inferred for ${added.file}: ${added.bullets.length} bullet(s)`,
      ),
      ...report.retainSections.skipped.map(
        (skipped) => `- ## Retain not inferred for ${skipped.file}: ${skipped.reason}`,
      ),
      ...report.opinions.map(
        (change) => `- opinion "${change.statement}": ${change.before.toFixed(2)} → ${change.after.toFixed(2)}`,
      ),
      ...(report.coreProposals.lines.length > 0
        ? [
            `- ${plural(report.coreProposals.lines.length, 'proposal', 'proposals')} for memory.md in ${report.coreProposals.file}`,
          ]
        : []),
      ...report.warnings.map((warning) => `- warning: ${warning}`),
    ];
    return {
      text: section(
        `Reflected over memories since ${report.since}:`,
        lines,
        `Nothing new to reflect on since ${report.since}.`,
      ),
      structured: { ...report },
    };
  },
});
