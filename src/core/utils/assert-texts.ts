import { ValidationError, type ValidationIssue } from '../spec/errors.js';

/** Throw a ValidationError unless `texts` is an array of strings. Shared with the test embedder. */
export function assertTexts(texts: unknown, component: string): asserts texts is readonly string[] {
  if (!Array.isArray(texts)) {
    throw new ValidationError([{ field: 'texts', message: `expected an array of strings (got ${typeof texts})` }], {
      component,
      suggestion: 'Pass an array of strings, e.g. embed(["first text", "second text"]).',
    });
  }
  const issues: ValidationIssue[] = [];
  for (let i = 0; i < texts.length; i++) {
    const text: unknown = texts[i];
    if (typeof text !== 'string') {
      const got = text === null ? 'null' : Array.isArray(text) ? 'an array' : typeof text;
      issues.push({ field: `texts[${i}]`, message: `expected a string (got ${got})` });
    }
  }
  if (issues.length > 0) {
    throw new ValidationError(issues, { component, suggestion: 'Pass only strings; convert other values first.' });
  }
}
