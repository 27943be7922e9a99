/** The seed's workflow learning and context-aware suggestions, over captured actions. */
import { z } from 'zod';
import type { Procedure } from '../../index.js';
import { defineAgentTool } from './define-agent-tool.js';
import { resolveSession } from './memory-tools.js';
import { plural, preview, section } from './tool-text.js';

function procedureText(procedure: Procedure): string {
  const steps = procedure.steps.map((step, index) => `${index + 1}. ${step}`);
  return [
    `Workflow "${procedure.title}" (id ${procedure.id}, ${plural(steps.length, 'step', 'steps')}):`,
    ...steps,
  ].join('\n');
}

/**
 * Turn a session's successful actions into a reusable workflow (the seed's `memory_create_workflow_from_session`).
 *
 * @group Agent tools
 */
export const memoryCreateWorkflowTool = defineAgentTool({
  name: 'memory_create_workflow_from_session',
  title: 'Create a workflow from a session',
  description:
    'Save the successful actions of a session, in order, as a named reusable workflow (a procedure) that can be suggested ' +
    'when a similar task comes up. session_id "current" is this server run.',
  inputSchema: z
    .object({
      session_id: z
        .string()
        .trim()
        .min(1, 'expected a session id or "current"')
        .max(256)
        .describe('The session whose actions to keep.'),
      name: z
        .string()
        .trim()
        .min(1, 'expected a name')
        .max(200)
        .describe('A name for the workflow, e.g. "google_search_workflow".'),
    })
    .strict(),
  readOnly: false,
  destructive: false,
  async run(client, { session_id, name }) {
    const session = resolveSession(client, session_id) ?? session_id;
    const procedure = await client.createWorkflowFromSession(session, name);
    return { text: procedureText(procedure), structured: { procedure } };
  },
});

/**
 * Past successful actions and workflows similar to the present context (the seed's suggestions).
 *
 * @group Agent tools
 */
export const memorySuggestTool = defineAgentTool({
  name: 'memory_suggest',
  title: 'Suggest from experience',
  description:
    'Before starting a task, describe what you see or want to do (e.g. "login form on example.com"): returns similar ' +
    'past successful actions and workflows with their memory ids, so you can replay what worked.',
  inputSchema: z
    .object({
      context: z
        .string()
        .trim()
        .min(1, 'expected a description of the situation')
        .max(20_000)
        .describe('The situation or task, in words.'),
      k: z.number().int().min(1).max(50).optional().describe('Most suggestions. Default 5.'),
    })
    .strict(),
  readOnly: true,
  destructive: false,
  async run(client, { context, k }) {
    const suggestions = await client.suggest(context, k === undefined ? {} : { k });
    const lines = suggestions.map(
      (item) => `- ${item.memoryId} (${item.category}, score ${item.score.toFixed(2)}): ${preview(item.content)}`,
    );
    return {
      text: section('Similar past experience:', lines, 'Nothing similar has been done before.'),
      structured: { suggestions },
    };
  },
});

/**
 * The record of an action about to be taken: failures, success rate, alternatives (the seed's warnings).
 *
 * @group Agent tools
 */
export const memoryWarnTool = defineAgentTool({
  name: 'memory_warn',
  title: 'Check an action’s record',
  description:
    'Before calling a tool, check how it went before: how often it failed, its success rate, and successful actions ' +
    'taken instead after its failures. action is the tool name; parameters, when given, count only calls with the same ones.',
  inputSchema: z
    .object({
      action: z
        .string()
        .trim()
        .min(1, 'expected a tool name')
        .max(256)
        .describe('The tool about to be called, e.g. "mouse_click".'),
      parameters: z.record(z.string(), z.unknown()).optional().describe('Its arguments, e.g. {"x": 500, "y": 300}.'),
    })
    .strict(),
  readOnly: true,
  destructive: false,
  async run(client, { action, parameters }) {
    const warning = await client.warn({ tool: action, ...(parameters === undefined ? {} : { parameters }) });
    const alternatives = warning.alternatives.map(
      (item) => `- ${item.memoryId} (${item.tool}): ${preview(item.content)}`,
    );
    const head =
      warning.message === null
        ? `No record of ${action}${parameters ? ' with these parameters' : ''}.`
        : warning.failures > 0
          ? `Warning: ${warning.message}.`
          : `${warning.message}.`;
    return {
      text: section(`${head}\nWhat worked instead:`, alternatives, head),
      structured: { ...warning },
    };
  },
});

/**
 * Success rates per tool with the strong and weak ones named (the seed's `memory_analyze_patterns`).
 *
 * @group Agent tools
 */
export const memoryAnalyzePatternsTool = defineAgentTool({
  name: 'memory_analyze_patterns',
  title: 'Analyze success patterns',
  description:
    'Measure how reliable captured actions have been: success rate per tool, the high-success and failure-prone ones, ' +
    'with an insight for each. category is the memory category to analyse (default "action").',
  inputSchema: z
    .object({
      category: z.string().trim().min(1).max(128).optional().describe('Category to analyse. Default "action".'),
      metric: z.enum(['success_rate']).optional().describe('What to measure. Only "success_rate".'),
      min_attempts: z
        .number()
        .int()
        .min(1)
        .max(10_000)
        .optional()
        .describe('Leave out tools tried fewer times. Default 3.'),
    })
    .strict(),
  readOnly: true,
  destructive: false,
  renamed: [{ from: 'type', to: 'category' }],
  async run(client, { category, metric, min_attempts }) {
    const analysis = await client.analyzePatterns({
      ...(category === undefined ? {} : { category }),
      ...(metric === undefined ? {} : { metric }),
      ...(min_attempts === undefined ? {} : { minAttempts: min_attempts }),
    });
    const lines = analysis.tools.map(
      (tool) => `- ${tool.tool}: ${Math.round(tool.successRate * 100)}% of ${tool.attempts} (${tool.insight})`,
    );
    return {
      text: section('Success rate per tool:', lines, 'Not enough captured actions to analyse yet.'),
      structured: { ...analysis },
    };
  },
});

/**
 * Find repeated tool sequences and store them as workflow memories (the seed's pattern detection).
 *
 * @group Agent tools
 */
export const memoryDetectWorkflowsTool = defineAgentTool({
  name: 'memory_detect_workflows',
  title: 'Detect repeated workflows',
  description:
    'Look for sequences of 2–6 actions repeated at least 3 times in the last week and store each as a workflow memory ' +
    'with a confidence score, so it can be suggested or automated.',
  inputSchema: z.object({}).strict(),
  readOnly: false,
  destructive: false,
  async run(client) {
    const workflows = await client.detectWorkflows();
    const lines = workflows.map(
      (flow) => `- ${flow.steps.join(' → ')} (${flow.repeats}×, confidence ${flow.confidence.toFixed(2)})`,
    );
    return {
      text: section('Repeated workflows found and stored:', lines, 'No repeated workflow found.'),
      structured: { workflows },
    };
  },
});
