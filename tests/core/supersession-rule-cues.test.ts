import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateMemories } from '../../bench/synthetic-memories.js';
import { UPDATE_CASES } from '../../bench/updates/update-cases.js';
import type { ClaimRule } from '../../src/core/supersession/claim.js';
import { clausesOf } from '../../src/core/supersession/clauses.js';
import { extractClaims } from '../../src/core/supersession/extract-claims.js';
import { RULES } from '../../src/core/supersession/rule-set.js';

// Each rule says which words its patterns need (`mayMatch`), so retain skips the patterns of
// a fact that states none of its concerns. The test can only be wrong one way: a clause a
// rule reads that its words turn away. It reads every sentence the rule tests and the update
// bench use, in variants that stress what the words are tested on (case, spacing, what
// stands before a word), and compares the claims with those of the rules ungated.

// Every string literal of the files that test the rules: sentences that state claims.
function literalsOf(path: string): string[] {
  const source = readFileSync(new URL(path, import.meta.url), 'utf8');
  const found: string[] = [];
  for (const match of source.matchAll(/'((?:[^'\\\n]|\\.){8,})'|"((?:[^"\\\n]|\\.){8,})"|`([^`$\n]{8,})`/gu)) {
    const text = (match[1] ?? match[2] ?? match[3] ?? '').replace(/\\(.)/gu, '$1');
    if (/\p{L}{2,}\s+\p{L}{2,}/u.test(text)) found.push(text);
  }
  return found;
}

const sentences = [
  ...literalsOf('./supersession-rules.test.ts'),
  ...literalsOf('./fact-correction.test.ts'),
  ...literalsOf('./versions.test.ts'),
  ...UPDATE_CASES.flatMap((updateCase) => updateCase.facts.map((fact) => fact.text)),
];

// What a fact may look like around the words the rules read.
const variants = (text: string) => [
  text,
  text.toUpperCase(),
  text.replace(/\b\p{L}/gu, (letter) => letter.toUpperCase()),
  text.replace(/ /gu, '\t'),
  text.replace(/ /gu, ' \n '),
  `é${text}`,
  `-${text}`,
  text.replace(/ (\p{L})/gu, '-$1'),
  text.replace(/'/gu, '’'),
  `Actually, ${text}`,
];

const ungated: ClaimRule[] = RULES.map((rule) => ({ ...rule, mayMatch: () => true }));

describe('supersession rule cues', () => {
  it('reads a corpus of several hundred sentences', () => {
    expect(sentences.length).toBeGreaterThan(200);
  });

  it('no rule turns away a clause it reads', () => {
    const missed: string[] = [];
    for (const sentence of sentences)
      for (const text of variants(sentence))
        for (const clause of clausesOf(text, { entities: ['Peter', 'The-Castle'] }))
          for (const rule of RULES)
            if (rule.match(clause.text).length > 0 && !rule.mayMatch(clause.text.toLowerCase()))
              missed.push(`${rule.name}: ${clause.text}`);
    expect(missed).toEqual([]);
  });

  it('the claims of every sentence are those of the rules without their cues', () => {
    const differ: string[] = [];
    for (const sentence of sentences)
      for (const text of variants(sentence)) {
        const context = { entities: ['Peter'] };
        const gated = JSON.stringify(extractClaims(text, context));
        if (gated !== JSON.stringify(extractClaims(text, context, ungated))) differ.push(text);
      }
    expect(differ).toEqual([]);
  });

  it('a fact that states none of the concerns passes few rules, so its patterns are not run', () => {
    let passed = 0;
    let facts = 0;
    for (const input of generateMemories(500)) {
      const lower = input.content.toLowerCase();
      passed += RULES.filter((rule) => rule.mayMatch(lower)).length;
      facts++;
    }
    // Ten rules; an agent-log line ("Ravi migrated the warelay … work: …") names about two.
    expect(passed / facts).toBeLessThan(3);
  });

  it('a word inside another word is no cue ("kaisa" does not say "is")', () => {
    const work = RULES.find((rule) => rule.name === 'work')!;
    expect(work.mayMatch('kaisa mevino dekatoti')).toBe(false);
    expect(work.mayMatch('she is a nurse')).toBe(true);
    expect(work.mayMatch("i'm a nurse")).toBe(true);
  });
});
