import type { Memory } from '../spec/memory.js';

type TextFields = Pick<Memory, 'abstract' | 'overview' | 'content' | 'entities'> & { context?: string | null };

// A derived abstract is the content's first sentence; indexing it again would count those words twice.
function distinctAbstract(memory: TextFields): string {
  return memory.abstract && !memory.content.startsWith(memory.abstract) ? memory.abstract : '';
}

/** The text a store indexes for lexical search: all three tiers, the entity names and the context. */
export function lexicalText(memory: TextFields): string {
  return [
    distinctAbstract(memory),
    memory.overview ?? '',
    memory.content,
    memory.entities.join(' '),
    memory.context ?? '',
  ]
    .filter((part) => part.length > 0)
    .join('\n');
}

/** The text the engine embeds: the abstract and the full content (the ePro v2 rule). */
export function embeddingText(memory: TextFields): string {
  const abstract = distinctAbstract(memory);
  return abstract ? `${abstract} ${memory.content}` : memory.content;
}
