import { generateStructured } from '../llm/model-json.js';
import {
  buildProcedureMergePrompt,
  buildReflectionPrompt,
  PROCEDURE_CONTRACT,
  type ProcedureOutput,
  type PromptToolCall,
  procedureOutputSchema,
} from '../prompts/procedure-prompt.js';
import type { LanguageModel } from '../spec/language-model.js';
import type { Procedure } from '../spec/records.js';
import { stableJson } from '../utils/stable-json.js';
import type { ParsedTaskTrace } from './procedure-inputs.js';

const MAX_TRIGGERS = 10;
// Enough of a tool's input or output to see what it did, without sending whole documents.
const TOOL_TEXT_CHARS = 500;
const NARRATION_CHARS = 8000;

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

function asText(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : stableJson(value);
}

/** The tool calls of a task as the reflection prompt shows them. */
export function promptToolCalls(task: ParsedTaskTrace): PromptToolCall[] {
  return task.toolCalls.map((call) => {
    if (typeof call === 'string') return { name: call };
    const output =
      call.error !== undefined && call.error !== null ? `error: ${asText(call.error)}` : asText(call.output);
    return {
      name: call.name,
      ...(call.input === undefined ? {} : { input: clip(asText(call.input), TOOL_TEXT_CHARS) }),
      ...(output ? { output: clip(output, TOOL_TEXT_CHARS) } : {}),
    };
  });
}

/** The narration as one text. */
export function narrationOf(task: ParsedTaskTrace): string {
  const narration = Array.isArray(task.narration) ? task.narration.join('\n') : (task.narration ?? '');
  return clip(narration, NARRATION_CHARS);
}

/** The task as plain text: what an episode keeps when reflection fails. */
export function transcriptOf(task: ParsedTaskTrace): string {
  const calls = promptToolCalls(task).map(
    (call, index) =>
      `${index + 1}. ${call.name}${call.input ? ` ${call.input}` : ''}${call.output ? ` → ${call.output}` : ''}`,
  );
  return [
    `Request: ${task.request}`,
    `Tool calls:\n${calls.join('\n')}`,
    narrationOf(task) ? `Narration: ${narrationOf(task)}` : '',
    task.response ? `Response: ${task.response}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

function distinct(items: readonly string[], max: number): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const item of items) {
    const key = item.trim().toLowerCase().replace(/\s+/g, ' ');
    if (key === '' || seen.has(key)) continue;
    seen.add(key);
    out.push(item.trim());
    if (out.length === max) break;
  }
  return out;
}

/** The draft with the task's own request among its triggers: the request that certainly should find it. */
export function withRequestTrigger(draft: ProcedureOutput, request: string): ProcedureOutput {
  const requestTrigger = clip(request.replace(/\s+/g, ' ').trim(), 300);
  return { ...draft, triggerExamples: distinct([requestTrigger, ...draft.triggerExamples], MAX_TRIGGERS) };
}

/**
 * True for a tool call that failed: it carries an error (a thrown one included), or its output
 * is a tool result that says so (`isError: true`, as MCP and the AI SDK mark one). A failed
 * call is never a step of a procedure written without a model.
 */
export function failedCall(call: ParsedTaskTrace['toolCalls'][number]): boolean {
  if (typeof call === 'string') return false;
  if (call.error !== undefined && call.error !== null && call.error !== false) return true;
  const output = call.output;
  return typeof output === 'object' && output !== null && (output as { isError?: unknown }).isError === true;
}

/** A draft written without a model, and the tool calls it left out because they failed. */
export interface DeterministicDraft {
  /** The draft: the request as title and trigger, the calls that worked as steps. */
  draft: ProcedureOutput;
  /** Names of the calls left out because they failed, in order. */
  failed: string[];
}

/**
 * What a task teaches without a model: its request as title and trigger, the tool calls that
 * succeeded as steps (a failed call is no step to repeat). What works, what doesn't and the
 * output format are judgements only a model makes, so they stay empty (the file says so).
 */
export function deterministicDraft(task: ParsedTaskTrace): DeterministicDraft {
  const title = clip(task.request.replace(/\s+/g, ' ').trim(), 120);
  const calls = promptToolCalls(task);
  const steps: string[] = [];
  const failed: string[] = [];
  task.toolCalls.forEach((call, index) => {
    const shown = calls[index]!;
    if (failedCall(call)) failed.push(shown.name);
    else steps.push(shown.input ? `${shown.name}(${shown.input})` : shown.name);
  });
  return {
    draft: {
      title,
      triggerExamples: [clip(title, 300)],
      steps,
      whatWorks: [],
      whatDoesNotWork: [],
      outputFormat: null,
    },
    failed,
  };
}

/** The heading of the note a procedure written without a model carries. */
export const NEEDS_MODEL_HEADING = '## Needs a model';

/** The note a procedure written without a model carries, as a section of its file. */
export function needsModelSection(failed: readonly string[]): string {
  const leftOut =
    failed.length === 0
      ? ''
      : ` Left out: ${failed.length === 1 ? 'one call that failed' : `${failed.length} calls that failed`} (${failed.join(', ')}).`;
  return [
    NEEDS_MODEL_HEADING,
    `Written from the tool calls alone: the steps are the calls that succeeded, in order.${leftOut}`,
    "When to use it (more trigger examples), what works, what doesn't work and the output format need a language model:",
    'give memoir one (`--model` / `MEMOIR_MODEL` with `--base-url` / `MEMOIR_BASE_URL`, or `createMemory({ languageModel })`)',
    'and the next similar task fills them in.',
  ].join('\n');
}

/** A file's own sections without the note {@link needsModelSection} wrote: a model's merge answers it. */
export function withoutNeedsModel(extraSections: string): string {
  return extraSections
    .split(/^(?=## )/m)
    .filter((part) => !part.startsWith(NEEDS_MODEL_HEADING))
    .join('')
    .trim();
}

/** The reflection: the model's procedure for a task, validated, repaired and retried once. */
export async function reflectOnTask(
  model: LanguageModel,
  task: ParsedTaskTrace,
): Promise<{ ok: true; draft: ProcedureOutput } | { ok: false; error: string }> {
  const result = await generateStructured(
    model,
    buildReflectionPrompt({
      request: task.request,
      toolCalls: promptToolCalls(task),
      narration: narrationOf(task),
      response: clip(task.response ?? '', NARRATION_CHARS),
    }),
    procedureOutputSchema,
    { retries: 1, contract: PROCEDURE_CONTRACT },
  );
  return result.ok ? { ok: true, draft: result.value } : { ok: false, error: result.error };
}

/** A procedure's text parts as a draft, for the merge prompt. */
export function draftOf(procedure: Procedure): ProcedureOutput {
  return {
    title: procedure.title,
    triggerExamples: procedure.triggerExamples,
    steps: procedure.steps,
    whatWorks: procedure.whatWorks,
    whatDoesNotWork: procedure.whatDoesNotWork,
    outputFormat: procedure.outputFormat,
  };
}

/** The merge without a model: existing steps and title, every distinct tip and trigger of both. */
export function unionDraft(existing: ProcedureOutput, incoming: ProcedureOutput): ProcedureOutput {
  return {
    title: existing.title,
    triggerExamples: distinct([...existing.triggerExamples, ...incoming.triggerExamples], MAX_TRIGGERS),
    steps: existing.steps.length > 0 ? existing.steps : incoming.steps,
    whatWorks: distinct([...existing.whatWorks, ...incoming.whatWorks], 20),
    whatDoesNotWork: distinct([...existing.whatDoesNotWork, ...incoming.whatDoesNotWork], 20),
    outputFormat: existing.outputFormat ?? incoming.outputFormat,
  };
}

/**
 * Merge a new draft into a stored procedure with the model (validated, retried once); when
 * there is no model or its answer is unusable, the union merge. Both triggers lists survive
 * either way, so every request that found one of them finds the result.
 */
export async function mergeDrafts(
  model: LanguageModel | undefined,
  existing: ProcedureOutput,
  incoming: ProcedureOutput,
): Promise<{ draft: ProcedureOutput; byModel: boolean; error: string | null }> {
  const union = unionDraft(existing, incoming);
  if (!model) return { draft: union, byModel: false, error: null };
  const result = await generateStructured(
    model,
    buildProcedureMergePrompt({ existing, incoming }),
    procedureOutputSchema,
    {
      retries: 1,
      contract: PROCEDURE_CONTRACT,
    },
  );
  if (!result.ok) return { draft: union, byModel: false, error: result.error };
  const triggers = distinct([...result.value.triggerExamples, ...union.triggerExamples], MAX_TRIGGERS);
  return { draft: { ...result.value, triggerExamples: triggers }, byModel: true, error: null };
}
