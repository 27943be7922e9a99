/**
 * The reserved index terms of a memory's claims: one per subject and attribute family (the
 * slot's timeline) and one per subject (every claim about someone, for "left Barcelona", which
 * names no family). They go into the lexical text every store indexes, so a store finds a slot's
 * every holder by one term — with no port member of its own.
 */
import type { Metadata } from '../spec/memory.js';

/** A claim as kept on a memory (`metadata.claims`). */
export interface StoredClaim {
  subject: string;
  family: string;
  key: string;
  value: string;
  negated?: boolean;
  from?: string;
}

// FNV-1a, 32 bits, twice with different seeds: short, stable across processes and versions.
function hash(text: string, seed: number): string {
  let h = seed >>> 0;
  for (let index = 0; index < text.length; index += 1) {
    h ^= text.charCodeAt(index);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(36);
}

// Letters and digits only, ending in "x": the analyser keeps such a word as it is.
const term = (kind: string, text: string) => `zz${kind}${hash(text, 0x811c9dc5)}${hash(text, 0x2545f491)}x`;

/** The term of a subject's slot of one family. */
export function slotTerm(subject: string, family: string): string {
  return term('s', `${subject}\u0000${family}`);
}

/** The term of every claim about a subject. */
export function subjectTerm(subject: string): string {
  return term('p', subject);
}

/** The claims kept on a memory's metadata, when well formed. */
export function storedClaims(metadata: Metadata | undefined): StoredClaim[] {
  const claims = metadata?.claims;
  if (!Array.isArray(claims)) return [];
  return claims.flatMap((item) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return [];
    const { subject, family, key, value } = item as Record<string, unknown>;
    return typeof subject === 'string' &&
      typeof family === 'string' &&
      typeof key === 'string' &&
      typeof value === 'string'
      ? [item as unknown as StoredClaim]
      : [];
  });
}

/** The index terms of a memory's kept claims, space-separated ('' when none). */
export function claimTerms(metadata: Metadata | undefined): string {
  const terms = new Set<string>();
  for (const claim of storedClaims(metadata)) {
    if (claim.family !== '*') terms.add(slotTerm(claim.subject, claim.family));
    terms.add(subjectTerm(claim.subject));
  }
  return [...terms].join(' ');
}
