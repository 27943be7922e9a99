import { z } from 'zod';
import type { GenerateRequest } from '../spec/language-model.js';
import { dataBlock, dataContractAndExamples, escapePromptData, type PromptExample } from './extraction-prompt.js';

/**
 * Categories whose memories may be merged into an existing one. `events` and `cases` are
 * records of something particular that happened, so a new one is either its own memory or
 * a duplicate, never folded into another.
 */
export const MERGEABLE_CATEGORIES = ['profile', 'preferences', 'entities', 'patterns'] as const;

/** The three outcomes of deduplication. */
export const DEDUP_DECISIONS = ['CREATE', 'MERGE', 'SKIP'] as const;

/**
 * Output contract of the dedup prompt. `targetId` is required with `MERGE` and must be one
 * of the existing ids; the schema cannot know those, so the caller checks it.
 */
export const dedupDecisionSchema = z.object({
  decision: z.enum(DEDUP_DECISIONS),
  targetId: z.string().optional(),
  reason: z.string().min(1).max(1000),
});
/** A parsed, validated dedup decision. */
export type DedupDecision = z.infer<typeof dedupDecisionSchema>;

/** The three tiers of a memory as the prompts show them. `overview` may be missing, as on stored memories. */
export interface PromptMemoryText {
  /** L0, one sentence. */
  abstract: string;
  /** L1, a structured summary, or null when there is none. */
  overview?: string | null;
  /** L2, the full text. */
  content: string;
}

/** Input of {@link buildDedupPrompt}. */
export interface DedupPromptInput {
  /** The newly extracted memory. */
  candidate: PromptMemoryText & {
    /** Its category, one of the extraction categories or a custom one. */
    category: string;
  };
  /** Stored memories most similar to it, usually from a vector search of the same category. */
  existing: ReadonlyArray<
    PromptMemoryText & {
      /** Id of the stored memory; a MERGE names it as `targetId`. */
      id: string;
      /** Similarity to the candidate, 0..1. */
      similarity: number;
    }
  >;
}

/**
 * The dedup contract, completing "Reply with only a JSON object that …". Also suitable as
 * the `contract` option of `generateStructured`.
 */
export const DEDUP_CONTRACT =
  'has the keys "decision" (one of "CREATE", "MERGE", "SKIP"), "targetId" (only with "MERGE", and then required: the id of one of the existing memories, copied exactly) and "reason" (one or two sentences, 1 to 1000 characters)';

/** The worked examples shown in the dedup prompt. */
export const DEDUP_EXAMPLES: readonly PromptExample<DedupPromptInput, DedupDecision>[] = [
  {
    input: {
      candidate: {
        category: 'preferences',
        abstract: 'The user wants dark mode in every editor and terminal.',
        overview: '## Appearance\n- Dark mode in editors and terminals',
        content: 'The user asked for dark mode in every editor and terminal they use, including the new Zed setup.',
      },
      existing: [
        {
          id: 'mem_41',
          abstract: 'The user prefers dark themes in code editors.',
          overview: '## Appearance\n- Dark themes in code editors',
          content: 'The user prefers dark colour themes in code editors such as VS Code.',
          similarity: 0.91,
        },
      ],
    },
    output: {
      decision: 'MERGE',
      targetId: 'mem_41',
      reason: 'Same preference about dark themes; the candidate extends it to terminals and Zed.',
    },
  },
  {
    input: {
      candidate: {
        category: 'events',
        abstract: 'On 2025-03-02 the team shipped version 2.0 of the mobile app.',
        overview: '## Release\n- Mobile app 2.0\n- 2025-03-02',
        content: 'On 2025-03-02 the team shipped version 2.0 of the mobile app, with offline mode.',
      },
      existing: [
        {
          id: 'mem_7',
          abstract: 'On 2025-01-10 the team shipped version 1.4 of the mobile app.',
          overview: '## Release\n- Mobile app 1.4\n- 2025-01-10',
          content: 'On 2025-01-10 the team shipped version 1.4 of the mobile app, fixing login bugs.',
          similarity: 0.78,
        },
      ],
    },
    output: {
      decision: 'CREATE',
      reason: 'A different release on a different date; events are never merged.',
    },
  },
];

const formatSimilarity = (similarity: number): string =>
  Number.isFinite(similarity) ? similarity.toFixed(2) : 'unknown';

function memoryBody(memory: PromptMemoryText): string {
  return [
    `abstract: ${memory.abstract}`,
    'overview:',
    memory.overview?.trim() ? memory.overview : '(none)',
    'content:',
    memory.content,
  ].join('\n');
}

function renderDedupInput(input: DedupPromptInput): string {
  const candidate = dataBlock('candidate', memoryBody(input.candidate), { category: input.candidate.category });
  const existing =
    input.existing.length === 0
      ? '(no existing memories)'
      : input.existing
          .map((memory) =>
            dataBlock('existing', memoryBody(memory), {
              id: memory.id,
              similarity: formatSimilarity(memory.similarity),
            }),
          )
          .join('\n');
  return `${candidate}\n${existing}`;
}

// Built once: it depends only on constants.
const DEDUP_SYSTEM = [
  'You keep a long-term memory store free of duplicates. A new memory (the candidate) was just extracted; you compare it with the stored memories most similar to it and decide what to do with it.',
  '',
  '# Decisions',
  '- CREATE: the candidate is about something none of the existing memories cover (another topic, another entity, another event). It is stored as a new memory.',
  '- MERGE: the candidate is about the same subject as one existing memory and adds to it or corrects it. Name that memory in "targetId"; the two are combined, newer information winning.',
  '- SKIP: an existing memory already says everything the candidate says. The candidate is dropped.',
  '',
  '# Rules',
  `- MERGE is only allowed for the categories ${MERGEABLE_CATEGORIES.join(', ')}. For events and cases choose CREATE or SKIP.`,
  '- Judge by meaning, not wording; the similarity score is only a hint.',
  '- When unsure between CREATE and MERGE, choose CREATE: a duplicate costs less than a wrong merge.',
  '- "targetId" must be copied exactly from the id attribute of one <existing> block. Leave it out for CREATE and SKIP.',
  '',
  ...dataContractAndExamples(['candidate', 'existing'], DEDUP_CONTRACT, DEDUP_EXAMPLES, renderDedupInput),
].join('\n');

/**
 * Build the request that decides whether a candidate memory is new (CREATE), belongs in an
 * existing memory (MERGE, naming `targetId`) or is already known (SKIP). Parse the answer with
 * {@link dedupDecisionSchema}, then check that a MERGE names one of `input.existing`'s ids
 * and that the category is one of {@link MERGEABLE_CATEGORIES}.
 */
export function buildDedupPrompt(input: DedupPromptInput): GenerateRequest {
  // Ids come from the store, but they still pass through the escaper: nothing outside a data
  // block may carry unescaped markup.
  const ids = input.existing.map((memory) => escapePromptData(JSON.stringify(memory.id)));
  const allowed =
    ids.length > 0
      ? `Valid targetId values: ${ids.join(', ')}.`
      : 'There are no existing memories, so MERGE is not possible.';
  return {
    system: DEDUP_SYSTEM,
    messages: [
      {
        role: 'user',
        content: `${renderDedupInput(input)}\n\nDecide CREATE, MERGE or SKIP for the candidate above. ${allowed} Reply with only the JSON object.`,
      },
    ],
    json: true,
    temperature: 0,
  };
}
