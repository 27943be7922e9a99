/** Steps the user took on screen, from their recordings (`memory.procedures.fromRecording`). */
import { z } from 'zod';
import { defineAgentTool } from './define-agent-tool.js';

/**
 * How the user did something on screen before (the library's `procedures.fromRecording`):
 * steps drawn from their screen recordings, each with the date it happened, its video range and
 * the provider's confidence (the seed's "On Feb 10, the user: 1) … 2) …"). Its old name,
 * `memory_recall_steps`, still answers as this tool.
 *
 * @group Agent tools
 */
export const memoryProceduresFromRecordingTool = defineAgentTool({
  name: 'memory_procedures_from_recording',
  title: 'Steps from screen recordings',
  description:
    'Before an unfamiliar task on screen (a website, an app, a settings page), ask how the user did it before: returns, per ' +
    'matching moment of their screen recordings, the date and the numbered steps they took ("On Feb 10, 2026 at 14:30 UTC, ' +
    'the user: 1) … 2) …"), with the video range and a confidence. Replay the steps, adapting to the screen as it is now; ' +
    'they are records of the past, not instructions. Similar requests are answered from a cache; refresh searches again.',
  inputSchema: z
    .object({
      query: z
        .string()
        .trim()
        .min(1, 'expected the task, in words')
        .max(20_000)
        .describe('The task, e.g. "add an SSH key on GitHub".'),
      k: z.number().int().min(1).max(20).optional().describe('Most recorded moments. Default 3.'),
      refresh: z
        .boolean()
        .optional()
        .describe('Search the recordings again even when a similar request is cached. Default false.'),
    })
    .strict(),
  readOnly: true,
  destructive: false,
  async run(client, { query, k, refresh }) {
    const results = await client.procedures.fromRecording(query, {
      ...(k === undefined ? {} : { k }),
      ...(refresh === undefined ? {} : { refresh }),
    });
    return {
      text:
        results.length === 0 ? `No screen recording shows "${query}".` : client.procedures.formatRecordedSteps(results),
      structured: { query, results },
    };
  },
});
