import type { Memory } from '../spec/memory.js';
import { analyzeTerms } from './analyze.js';
import { claimTerms } from './claim-terms.js';

type TextFields = Pick<Memory, 'abstract' | 'overview' | 'content' | 'entities'> & {
  context?: string | null;
  metadata?: Memory['metadata'];
};

// A derived abstract is the content's first sentence; indexing it again would count those words twice.
function distinctAbstract(memory: TextFields): string {
  return memory.abstract && !memory.content.startsWith(memory.abstract) ? memory.abstract : '';
}

/**
 * How many times a memory's own text is indexed beside its `context`. The context (a turn's
 * neighbours) finds a memory by what was said around it, but it should not outweigh what the
 * memory itself says: counted once each, the four neighbours of a window of 2 made a turn
 * rank as high for its neighbours' words as for its own. Measured on LoCoMo with each half of
 * the conversations held out (bench:locomo --folds 2): 2 gains about 3 points of recall@5 on
 * both halves, with the vector list of a lexical embedder weighted lower (see recall-api).
 */
export const OWN_TEXT_WEIGHT = 2;

/**
 * The text a store indexes for lexical search: all three tiers and the entity names, then the
 * context; with a context, the memory's own text is repeated {@link OWN_TEXT_WEIGHT} times so
 * that it counts more than its neighbours'. The reserved terms of its claims come last, once.
 */
export function lexicalText(memory: TextFields): string {
  const own = [distinctAbstract(memory), memory.overview ?? '', memory.content, memory.entities.join(' ')]
    .filter((part) => part.length > 0)
    .join('\n');
  const terms = claimTerms(memory.metadata);
  const text = memory.context ? [...Array<string>(OWN_TEXT_WEIGHT).fill(own), memory.context].join('\n') : own;
  return terms ? `${text}\n${terms}` : text;
}

/** The analysed terms a store's lexical index holds for a memory: {@link lexicalText}, space-separated. */
export function lexicalTerms(memory: TextFields): string {
  return analyzeTerms(lexicalText(memory)).join(' ');
}

/** The text the engine embeds: the abstract and the full content (the ePro v2 rule). */
export function embeddingText(memory: TextFields): string {
  const abstract = distinctAbstract(memory);
  return abstract ? `${abstract} ${memory.content}` : memory.content;
}
