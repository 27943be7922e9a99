import { z } from 'zod';
import type { GenerateRequest } from '../spec/language-model.js';
import type { PromptMemoryText } from './dedup-prompt.js';
import { dataBlock, dataContractAndExamples, type PromptExample } from './extraction-prompt.js';

/** Output contract of the merge prompt: the merged memory's three tiers, with the extraction limits. */
export const mergeOutputSchema = z.object({
  abstract: z.string().min(1).max(400),
  overview: z.string().max(4000),
  content: z.string().min(1).max(20000),
});
/** A parsed, validated merge result. */
export type MergeOutput = z.infer<typeof mergeOutputSchema>;

/** Input of {@link buildMergePrompt}. */
export interface MergePromptInput {
  /** Category of both memories, e.g. `profile` or `preferences`. */
  category: string;
  /** The stored memory. */
  existing: PromptMemoryText;
  /** The newer memory to fold into it; it wins where the two disagree. */
  incoming: PromptMemoryText;
}

/**
 * The merge contract, completing "Reply with only a JSON object that …". Also suitable as
 * the `contract` option of `generateStructured`.
 */
export const MERGE_CONTRACT =
  'has the keys "abstract" (one sentence, 1 to 400 characters), "overview" (Markdown, at most 4000 characters) and "content" (1 to 20000 characters) of the merged memory';

/** The worked examples shown in the merge prompt. */
export const MERGE_EXAMPLES: readonly PromptExample<MergePromptInput, MergeOutput>[] = [
  {
    input: {
      category: 'preferences',
      existing: {
        abstract: 'The user drinks coffee black with no sugar.',
        overview: '## Coffee\n- Black\n- No sugar',
        content: 'The user takes their coffee black and never adds sugar.',
      },
      incoming: {
        abstract: 'Since May 2025 the user takes oat milk in their coffee.',
        overview: '## Coffee\n- Oat milk (since May 2025)',
        content: 'In May 2025 the user said they now add oat milk to their coffee.',
      },
    },
    output: {
      abstract: 'The user drinks coffee with oat milk and no sugar (oat milk since May 2025).',
      overview: '## Coffee\n- Oat milk (since May 2025; before that, black)\n- No sugar',
      content:
        'The user drinks coffee with oat milk and never adds sugar. Until May 2025 they took it black; since then they add oat milk.',
    },
  },
  {
    input: {
      category: 'entities',
      existing: {
        abstract: "Atlas is the team's internal analytics dashboard, built with React.",
        overview: '## Atlas\n- Internal analytics dashboard\n- Frontend: React',
        content: "Atlas is the team's internal analytics dashboard. Its frontend is written in React.",
      },
      incoming: {
        abstract: 'Atlas was rewritten in Svelte in June 2025 and has three maintainers.',
        overview: '## Atlas\n- Frontend: Svelte (since June 2025)\n- Maintainers: 3',
        content: 'In June 2025 the Atlas frontend was rewritten from React to Svelte. Three people maintain it.',
      },
    },
    output: {
      abstract:
        "Atlas is the team's internal analytics dashboard, written in Svelte since June 2025 and kept by three maintainers.",
      overview:
        '## Atlas\n- Internal analytics dashboard\n- Frontend: Svelte (since June 2025; React before)\n- Maintainers: 3',
      content:
        "Atlas is the team's internal analytics dashboard. Its frontend was written in React until June 2025, when it was rewritten in Svelte. Three people maintain it.",
    },
  },
];

function memoryBody(memory: PromptMemoryText): string {
  return [
    `abstract: ${memory.abstract}`,
    'overview:',
    memory.overview?.trim() ? memory.overview : '(none)',
    'content:',
    memory.content,
  ].join('\n');
}

function renderMergeInput(input: MergePromptInput): string {
  return [
    dataBlock('existing', memoryBody(input.existing), { category: input.category }),
    dataBlock('incoming', memoryBody(input.incoming), { category: input.category }),
  ].join('\n');
}

// Built once: it depends only on constants.
const MERGE_SYSTEM = [
  'You maintain a long-term memory store. Two memories about the same subject must become one: the stored memory (existing) and newer information about it (incoming). You write the single memory that replaces both.',
  '',
  '# Rules',
  '- Newer wins: where incoming contradicts existing, keep the incoming fact. Mention the earlier state only when the change itself is worth knowing (e.g. "since May 2025; before that …").',
  '- Drop nothing true: every fact from either memory that is not contradicted stays in the result.',
  '- Do not repeat a fact that both memories state; write it once.',
  '- The result must be self-contained: someone who has seen neither memory understands it. Do not mention that a merge happened.',
  '- Do not add facts that appear in neither memory.',
  '- abstract (L0): one sentence naming the subject and its key facts. overview (L1): a short structured Markdown summary, keeping the headings of the existing overview where they still fit. content (L2): the full account.',
  '- For a profile, the result is the one up-to-date profile of the user.',
  '',
  ...dataContractAndExamples(['existing', 'incoming'], MERGE_CONTRACT, MERGE_EXAMPLES, renderMergeInput),
].join('\n');

/**
 * Build the request that merges a newer memory into a stored one of the same subject:
 * newer information wins on conflicts, nothing true is dropped, the result stays
 * self-contained. Parse the answer with {@link mergeOutputSchema}.
 */
export function buildMergePrompt(input: MergePromptInput): GenerateRequest {
  return {
    system: MERGE_SYSTEM,
    messages: [
      {
        role: 'user',
        content: `${renderMergeInput(input)}\n\nMerge the incoming memory into the existing one. Reply with only the JSON object.`,
      },
    ],
    json: true,
    temperature: 0,
  };
}
