import { z } from 'zod';
import type { GenerateRequest } from '../spec/language-model.js';
import { dataBlock, dataContractAndExamples, dataRules, type PromptExample } from './extraction-prompt.js';

const item = (max: number) => z.string().trim().min(1).max(max);

/** Output contract of the reflection and procedure-merge prompts: one reusable procedure. */
export const procedureOutputSchema = z.object({
  title: item(120),
  triggerExamples: z.array(item(300)).min(1).max(10),
  steps: z.array(item(1000)).min(1).max(30),
  whatWorks: z.array(item(1000)).max(20).default([]),
  whatDoesNotWork: z.array(item(1000)).max(20).default([]),
  outputFormat: z.string().trim().max(2000).nullable().default(null),
});
/** A parsed, validated procedure draft. */
export type ProcedureOutput = z.infer<typeof procedureOutputSchema>;

/**
 * The contract of both prompts, completing "Reply with only a JSON object that …". Also
 * suitable as the `contract` option of `generateStructured`.
 */
export const PROCEDURE_CONTRACT =
  'has the keys "title" (a short imperative title, 1 to 120 characters), "triggerExamples" (1 to 10 requests that should bring this procedure up), "steps" (1 to 30 ordered steps), "whatWorks" (at most 20 tips), "whatDoesNotWork" (at most 20 approaches to avoid) and "outputFormat" (how to present the result, or null)';

/** One tool call of a finished task, as the reflection prompt shows it. */
export interface PromptToolCall {
  /** The tool's name. */
  name: string;
  /** Its input, as text (already shortened). */
  input?: string;
  /** Its output or error, as text (already shortened). */
  output?: string;
}

/** Input of {@link buildReflectionPrompt}. */
export interface ReflectionPromptInput {
  /** What the user asked for. */
  request: string;
  /** The tools the agent called, in order. */
  toolCalls: readonly PromptToolCall[];
  /** What the agent said between tool calls. */
  narration: string;
  /** The agent's final answer. */
  response: string;
}

/** Input of {@link buildProcedureMergePrompt}. */
export interface ProcedureMergeInput {
  /** The stored procedure. */
  existing: ProcedureOutput;
  /** The procedure just learned from a similar task; where they disagree it is the newer evidence. */
  incoming: ProcedureOutput;
}

const DEPLOY_EXAMPLE: ReflectionPromptInput = {
  request: 'why did the deploys fail this week?',
  toolCalls: [
    { name: 'slack_search', input: '{"channel":"#releases","days":7}', output: '3 failure messages from deploybot' },
    { name: 'jira_search', input: '{"project":"SCOUT","status":"Failed"}', output: '2 tickets' },
    { name: 'github_prs', input: '{"repo":"scout-api","merged_since":"7d"}', output: '14 PRs' },
  ],
  narration: 'The deploy bot posts to #releases first, so I started there. Searching all of GitHub was too noisy.',
  response: '3 deployments failed in the last 7 days, 2 from the same migration. Recommended: pin the migration order.',
};

/** The worked example shown in the reflection prompt. */
export const REFLECTION_EXAMPLES: readonly PromptExample<ReflectionPromptInput, ProcedureOutput>[] = [
  {
    input: DEPLOY_EXAMPLE,
    output: {
      title: 'Investigate deployment failures',
      triggerExamples: ['why did deploys fail', 'investigate deployment issues', "what's wrong with CI/CD"],
      steps: [
        'Check the #releases Slack channel for recent deployment messages',
        'Search the Jira project for failed deployment tickets',
        'Cross-reference with the merge times of recent PRs of the service',
        'Look for patterns: same service, same time, same author',
      ],
      whatWorks: ['Check Slack first: the deployment bot posts there immediately'],
      whatDoesNotWork: ["Don't search all of GitHub: too noisy. Start with the service mentioned."],
      outputFormat:
        'Lead with "X deployments failed in the last Y days", group by root cause, end with recommended actions.',
    },
  },
];

function renderTask(input: ReflectionPromptInput): string {
  const calls = input.toolCalls
    .map((call, index) =>
      [
        `${index + 1}. ${call.name}`,
        call.input ? `   input: ${call.input}` : '',
        call.output ? `   output: ${call.output}` : '',
      ]
        .filter(Boolean)
        .join('\n'),
    )
    .join('\n');
  return [
    dataBlock('request', input.request),
    dataBlock('tool_calls', calls || '(none)'),
    dataBlock('narration', input.narration || '(none)'),
    dataBlock('response', input.response || '(none)'),
  ].join('\n');
}

const renderProcedure = (procedure: ProcedureOutput): string => JSON.stringify(procedure, null, 2);

function renderMerge(input: ProcedureMergeInput): string {
  return [
    dataBlock('existing', renderProcedure(input.existing)),
    dataBlock('incoming', renderProcedure(input.incoming)),
  ].join('\n');
}

// Built once: they depend only on constants.
const REFLECTION_SYSTEM = [
  'You turn a finished agent task into a reusable procedure: how to do this kind of task next time.',
  '',
  '# Rules',
  '- Generalise: the title and steps describe the kind of task, not this one instance (no one-off ids, dates or numbers unless they always apply).',
  '- Steps are the approach that worked, in order, each one imperative sentence naming the tool or source to use.',
  '- whatWorks: tips the task showed to help. whatDoesNotWork: approaches that failed or wasted effort, as advice.',
  '- triggerExamples: short requests a user might send that this procedure answers, in different words; include the original request.',
  '- outputFormat: how the final answer was (or should be) laid out, or null when it does not matter.',
  '- Use only what the task shows; do not invent tools or facts.',
  '',
  ...dataContractAndExamples(
    ['request', 'tool_calls', 'narration', 'response'],
    PROCEDURE_CONTRACT,
    REFLECTION_EXAMPLES,
    renderTask,
  ),
].join('\n');

const MERGE_SYSTEM = [
  'You maintain a library of procedures. A stored procedure (existing) and one just learned from a similar task (incoming) must become one procedure that replaces both.',
  '',
  '# Rules',
  '- Keep the existing title unless the incoming one is clearly better.',
  '- Steps: the approach that works now, in order. Where incoming changed the approach, follow incoming; keep existing steps it did not contradict.',
  '- Keep every distinct tip and warning of both; write a repeated one once.',
  '- triggerExamples: the union of both, without near-duplicates, at most 10.',
  '- Do not add anything that appears in neither.',
  '',
  '# Data',
  dataRules(['existing', 'incoming']),
  '',
  '# Output contract',
  `Reply with only a JSON object that ${PROCEDURE_CONTRACT}. No prose, no code fences.`,
].join('\n');

/**
 * Build the request that reflects on a finished task and writes the reusable procedure it
 * shows. Parse the answer with {@link procedureOutputSchema}.
 */
export function buildReflectionPrompt(input: ReflectionPromptInput): GenerateRequest {
  return {
    system: REFLECTION_SYSTEM,
    messages: [
      {
        role: 'user',
        content: `${renderTask(input)}\n\nWrite the reusable procedure this task shows. Reply with only the JSON object.`,
      },
    ],
    json: true,
    temperature: 0,
  };
}

/**
 * Build the request that merges a newly learned procedure into a stored, similar one. Parse
 * the answer with {@link procedureOutputSchema}.
 */
export function buildProcedureMergePrompt(input: ProcedureMergeInput): GenerateRequest {
  return {
    system: MERGE_SYSTEM,
    messages: [
      {
        role: 'user',
        content: `${renderMerge(input)}\n\nMerge the incoming procedure into the existing one. Reply with only the JSON object.`,
      },
    ],
    json: true,
    temperature: 0,
  };
}
