/** How strongly an opinion is held and on what: read from the memory, shown at every door the same way. */
import type { Memory } from '../spec/memory.js';

/**
 * An opinion's confidence and the evidence counted for and against it.
 *
 * @group Recall
 */
export interface OpinionStanding {
  /** Confidence 0..1 (`O(c=…)` in a workspace, or as reflect last updated it); absent when never set. */
  confidence?: number;
  /** Pieces of evidence reflect weighed, for and against together. */
  evidence: number;
  /** Of those, the ones that contradict it. */
  against: number;
}

const idCount = (value: unknown): number =>
  Array.isArray(value) ? value.filter((item) => typeof item === 'string').length : 0;

/**
 * The standing of an opinion memory (`kind: 'opinion'`), or undefined for any other kind and for
 * an opinion never weighed (no confidence, no evidence: an extracted preference, say, which
 * would otherwise read as a belief with nothing behind it). The confidence and the ids of
 * supporting / contradicting memories live in its metadata, where the workspace index and
 * reflect keep them.
 */
export function opinionStanding(memory: Pick<Memory, 'kind' | 'metadata'>): OpinionStanding | undefined {
  if (memory.kind !== 'opinion') return undefined;
  const value = memory.metadata.confidence;
  const confidence = typeof value === 'number' && value >= 0 && value <= 1 ? value : undefined;
  const against = idCount(memory.metadata.contradicting);
  const evidence = idCount(memory.metadata.supporting) + against;
  if (confidence === undefined && evidence === 0) return undefined;
  return {
    ...(confidence === undefined ? {} : { confidence }),
    evidence,
    against,
  };
}

/**
 * The standing in words, `confidence 0.72, 4 evidence, 1 against` (no confidence part when it
 * was never set, no `against` part when nothing contradicts it); undefined for a memory that is
 * not an opinion, or an opinion never weighed.
 */
export function opinionNote(memory: Pick<Memory, 'kind' | 'metadata'>): string | undefined {
  const standing = opinionStanding(memory);
  if (!standing) return undefined;
  return [
    standing.confidence === undefined ? '' : `confidence ${standing.confidence.toFixed(2)}`,
    `${standing.evidence} evidence`,
    standing.against > 0 ? `${standing.against} against` : '',
  ]
    .filter(Boolean)
    .join(', ');
}
